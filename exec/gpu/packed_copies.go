package gpu

import (
	"container/list"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// packedCopies keeps the packed host copies of columns (pinned memory,
// what a cold load copies to the device: column_pack.go) across device
// cache evictions and drops, least recently used first out, within a
// byte budget. Packing a column costs host time (one pass, parallel by
// chunk); keeping its packed copy makes every later cold load a copy of
// the packed bytes alone, which is what lifts a cold query above the
// link's rate in rows per second. A copy in use by a device entry is never
// freed; the budget may be passed while every copy is in use, and is
// restored as they are released. Keyed by column identity and bits; a
// copy whose column's vector moved (a new snapshot) is packed again.
// DropColumnCache (bench's cold runs) keeps them: a packed copy is the
// column's host form for the GPU, made once, as the pinned vector it
// comes from is; the first load of a column pays for packing it. Columns
// in pageable memory (a database's mapped files) get whole copies here
// too, copied once so that later loads are DMA at the link's rate.
// errNoRoom: a packed form does not fit the device cache, or its host
// copy host or pinned memory, now.
var errNoRoom = errors.New("no room for a packed column")

type packedCopies struct {
	budget, used int64
	mem          hostMemory
	m            map[packedCopyKey]*packedCopy
	lru          list.List // front = most recent
}

// hostMemory is where packed copies live: reserve takes memory the
// packing fills, pin then page-locks and maps it for the device (pinning
// memory already written is far cheaper than allocating pinned memory:
// driver.go), release gives it back, pinned or not.
type hostMemory struct {
	reserve func(n int) (unsafe.Pointer, error)
	pin     func(p unsafe.Pointer, n int) error
	release func(p unsafe.Pointer, pinned bool)
}

type packedCopyKey struct {
	col  *columnar.Column
	bits int
	runs bool // the run-length form (storage/columnar/runs.go)
}

// packedCopy is one packed column in host memory: words, then frames; or
// its run-length form (runs).
type packedCopy struct {
	key           packedCopyKey
	vector        uintptr // the column's values when packed
	rows          int
	mem           unsafe.Pointer
	words, frames int
	runs          *columnar.RunForm
	size          int64
	users         int
	elem          *list.Element
}

func newPackedCopies(budget int64, mem hostMemory) *packedCopies {
	return &packedCopies{budget: budget, mem: mem, m: map[packedCopyKey]*packedCopy{}}
}

func vectorPtr(col *columnar.Column) uintptr {
	b := col.Data()
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

// wholeCopy, as get's bits, asks for the column's vector as it is: the
// pinned copy a column in pageable memory (a database's mapped files, the
// Go heap) is copied to the device from by DMA at the link's rate instead
// of through the driver's staging buffers at a seventh of it.
const wholeCopy = -1

// get returns col packed in bits bits (or whole), held until release: the
// kept copy, or a new one packed (or copied) into memory from reserve and
// pinned after.
func (s *packedCopies) get(col *columnar.Column, bits int) (*packedCopy, error) {
	return s.getForm(packedCopyKey{col: col, bits: bits})
}

// getTransfer returns the host copy a cold load of col as pk plans it
// reads: its run-length form when runs (a copy the plan sends as runs),
// its packed form otherwise (a copy sent packed, a read in place). Where
// the plan sends col as runs, the other form is made too, and kept: the
// column's host forms are made together, by the first load that needs
// one, so a later cold query that reads the column the other way pays for
// no encoding (a query reading it in place, then one copying it).
func (s *packedCopies) getTransfer(col *columnar.Column, pk *planner.GPUPacking, runs bool) (*packedCopy, error) {
	c, err := s.getForm(packedCopyKey{col: col, bits: pk.Bits, runs: runs})
	if err != nil || pk.RunBytes == 0 {
		return c, err
	}
	if other, err := s.getForm(packedCopyKey{col: col, bits: pk.Bits, runs: !runs}); err == nil {
		s.release(other) // kept within the budget; without room, made when needed
	}
	return c, nil
}

// getRuns is get for col's run-length form in bits bits a run.
func (s *packedCopies) getRuns(col *columnar.Column, bits int) (*packedCopy, error) {
	return s.getForm(packedCopyKey{col: col, bits: bits, runs: true})
}

func (s *packedCopies) getForm(k packedCopyKey) (*packedCopy, error) {
	col, bits := k.col, k.bits
	if c, ok := s.m[k]; ok {
		if c.vector == vectorPtr(col) && c.rows == col.Len {
			c.users++
			s.lru.MoveToFront(c.elem)
			return c, nil
		}
		if c.users > 0 {
			return nil, fmt.Errorf("gpu: internal error: a packed copy in use went stale")
		}
		s.remove(c)
	}
	c := &packedCopy{key: k, vector: vectorPtr(col), rows: col.Len}
	switch {
	case k.runs:
		f, err := columnar.CountRuns(col, bits)
		if err != nil {
			return nil, err
		}
		c.runs, c.size = f, 4*int64(f.Words())
	case bits == wholeCopy:
		c.size = int64(len(col.Data()))
	default:
		c.words, c.frames = columnar.PackedWords(col.Len, bits), columnar.PackedFrames(col.Len)
		c.size = 4 * int64(c.words+c.frames)
	}
	s.evict(c.size)
	mem, err := s.mem.reserve(int(c.size))
	if err != nil {
		return nil, fmt.Errorf("%w: %d bytes to pack a column: %v", errNoRoom, c.size, err)
	}
	c.mem = mem
	if err := c.fill(col); err != nil {
		s.mem.release(mem, false)
		return nil, err
	}
	if err := s.mem.pin(mem, int(c.size)); err != nil {
		// Pinned memory is short: give back every unused copy, once.
		s.evict(s.budget + c.size)
		if err = s.mem.pin(mem, int(c.size)); err != nil {
			s.mem.release(mem, false)
			return nil, fmt.Errorf("%w: pinning %d bytes of a packed column: %v", errNoRoom, c.size, err)
		}
	}
	c.users = 1
	c.elem = s.lru.PushFront(c)
	s.m[k] = c
	s.used += c.size
	return c, nil
}

// form names c's form in traces.
func (c *packedCopy) form() string {
	switch {
	case c.runs != nil:
		return "runs"
	case c.key.bits == wholeCopy:
		return "whole"
	}
	return "packed"
}

// fill writes col's form into c's memory.
func (c *packedCopy) fill(col *columnar.Column) error {
	switch {
	case c.runs != nil:
		return columnar.EncodeRuns(col, c.runs, unsafe.Slice((*uint32)(c.mem), c.size/4))
	case c.key.bits == wholeCopy:
		parallelCopy(c.bytes(), col.Data())
		return nil
	}
	return columnar.PackInto(col, c.key.bits, c.wordSlice(), c.frameSlice())
}

func (c *packedCopy) wordSlice() []uint32 { return unsafe.Slice((*uint32)(c.mem), c.words) }

// bytes is the copy's memory.
func (c *packedCopy) bytes() []byte { return unsafe.Slice((*byte)(c.mem), c.size) }

// parallelCopy copies src into dst from every CPU: a first touch of both
// (dst's fresh pages, src's mapped file pages) faults their pages in
// parallel.
func parallelCopy(dst, src []byte) {
	const part = 4 << 20
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for lo := 0; lo < len(src); lo += part {
		hi := min(lo+part, len(src))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			copy(dst[lo:hi], src[lo:hi])
			<-sem
		}()
	}
	wg.Wait()
}

func (c *packedCopy) frameSlice() []int32 {
	if c.frames == 0 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Add(c.mem, 4*c.words)), c.frames)
}

// release ends one use of c.
func (s *packedCopies) release(c *packedCopy) {
	if c.users > 0 {
		c.users--
	}
	s.evict(0)
}

// evict frees unused copies, least recent first, until n more bytes fit.
func (s *packedCopies) evict(n int64) {
	for el := s.lru.Back(); el != nil && s.used+n > s.budget; {
		prev := el.Prev()
		if c := el.Value.(*packedCopy); c.users == 0 {
			s.remove(c)
		}
		el = prev
	}
}

func (s *packedCopies) remove(c *packedCopy) {
	s.mem.release(c.mem, true)
	s.used -= c.size
	s.lru.Remove(c.elem)
	delete(s.m, c.key)
}
