//go:build cuda

package gpu

import (
	"fmt"
	"math/bits"
	"unsafe"

	"gorgonia.org/cu"
)

// uvaJoin is one `bench uva` join (kernels/uva_join.cu) over two tables in
// pinned host memory: the device state and the three ways of reaching the
// tables. Only code inside the device's do uses it.
type uvaJoin struct {
	d            *device
	r, s         []UVATuple   // pinned, device-mapped host memory
	rDev, sDev   cu.DevicePtr // their device aliases (zero-copy)
	table        cu.DevicePtr
	bits         int
	out, count   cu.DevicePtr
	rCopy, sCopy cu.DevicePtr // whole-table device copies (copy mode)
	streams      []cu.Stream
	bufs         []cu.DevicePtr // one chunk buffer per stream
	chunkRows    int64
	grid, block  int
	allocs       []cu.DevicePtr
	hostR, hostS unsafe.Pointer
}

// newUVAJoin allocates pinned tables of nr and ns tuples and the device
// state for every mode.
func (d *device) newUVAJoin(nr, ns int64, streams int, chunkRows int64) (*uvaJoin, error) {
	if nr <= 0 || nr >= 1<<31 || ns < 0 || ns >= 1<<31 {
		return nil, fmt.Errorf("bench uva: table sizes must be in [1, 2^31) tuples (have %d and %d)", nr, ns)
	}
	j := &uvaJoin{d: d, chunkRows: max(chunkRows, 1), block: 256, grid: d.sms * 8}
	var err error
	if j.hostR, j.rDev, err = hostAlloc(int(8 * nr)); err != nil {
		return nil, err
	}
	j.r = unsafe.Slice((*UVATuple)(j.hostR), nr)
	if j.hostS, j.sDev, err = hostAlloc(int(8 * max(ns, 1))); err != nil {
		j.close()
		return nil, err
	}
	j.s = unsafe.Slice((*UVATuple)(j.hostS), ns)
	// At least twice as many slots as build rows (load factor <= 1/2).
	j.bits = max(bits.Len64(uint64(2*nr-1)), 8)
	sizes := []int64{8 << j.bits, 8 * max(ns, 1), 8, 8 * nr, 8 * max(ns, 1)}
	ptrs := []*cu.DevicePtr{&j.table, &j.out, &j.count, &j.rCopy, &j.sCopy}
	for k := 0; k < max(streams, 1); k++ {
		st, err := cu.MakeStream(cu.NonBlocking)
		if err != nil {
			j.close()
			return nil, fmt.Errorf("bench uva: creating a stream: %v", err)
		}
		j.streams = append(j.streams, st)
		j.bufs = append(j.bufs, 0)
	}
	for k := range j.bufs {
		sizes, ptrs = append(sizes, 8*j.chunkRows), append(ptrs, &j.bufs[k])
	}
	for k, n := range sizes {
		p, err := cu.MemAlloc(n)
		if err != nil {
			j.close()
			return nil, fmt.Errorf("bench uva: allocating %d bytes of device memory: %v", n, err)
		}
		*ptrs[k] = p
		j.allocs = append(j.allocs, p)
	}
	return j, nil
}

func (j *uvaJoin) close() {
	for _, p := range j.allocs {
		cu.MemFree(p)
	}
	for k := range j.streams {
		j.streams[k].Destroy()
	}
	if j.hostR != nil {
		hostFree(j.hostR)
	}
	if j.hostS != nil {
		hostFree(j.hostS)
	}
}

// reset empties the hash table (before a build) and the match count.
func (j *uvaJoin) reset(table bool) error {
	if table {
		if err := cu.MemsetD32(j.table, 0xffffffff, 2<<j.bits); err != nil {
			return err
		}
	}
	if err := cu.MemsetD32(j.count, 0, 2); err != nil {
		return err
	}
	return j.d.sync()
}

// uvaBuildArgs and uvaProbeArgs are the kernels' parameters, all 8 bytes
// wide: a parameter buffer longer than the kernel's parameters (trailing
// padding) fails the launch.
type uvaBuildArgs struct {
	In    uint64
	N     int64
	Table uint64
	Bits  int64
}

type uvaProbeArgs struct {
	In    uint64
	N     int64
	Table uint64
	Bits  int64
	Out   uint64
	Count uint64
	Cache int64
}

// build inserts the build table, reaching it as mode says, and waits.
func (j *uvaJoin) build(mode string) error {
	f, err := j.d.fn("uva_build")
	if err != nil {
		return err
	}
	run := func(st cu.Stream, in cu.DevicePtr, n int64) error {
		a := uvaBuildArgs{In: uint64(in), N: n, Table: uint64(j.table), Bits: int64(j.bits)}
		return launchOn(st, f, j.gridFor(n), j.block, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
	}
	return j.each(mode, j.r, j.rDev, j.rCopy, run)
}

// probe looks up the probe table, reaching it as mode says, with or
// without the shared-memory result cache, and waits.
func (j *uvaJoin) probe(mode string, cache bool) error {
	f, err := j.d.fn("uva_probe")
	if err != nil {
		return err
	}
	run := func(st cu.Stream, in cu.DevicePtr, n int64) error {
		a := uvaProbeArgs{In: uint64(in), N: n, Table: uint64(j.table), Bits: int64(j.bits),
			Out: uint64(j.out), Count: uint64(j.count), Cache: b2i64(cache)}
		return launchOn(st, f, j.gridFor(n), j.block, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
	}
	return j.each(mode, j.s, j.sDev, j.sCopy, run)
}

// each runs kernel over table t: in place through its device alias
// (zero-copy), after copying it whole to whole (copy), or chunk by chunk,
// chunk c copied into stream c mod k's buffer and run on that stream, so
// that chunk c+1's copy overlaps chunk c's kernel and a buffer is reused
// only after its stream's kernel is done (streams order their own work).
func (j *uvaJoin) each(mode string, t []UVATuple, alias, whole cu.DevicePtr, kernel func(cu.Stream, cu.DevicePtr, int64) error) error {
	n := int64(len(t))
	if n == 0 {
		return nil
	}
	switch mode {
	case UVAZeroCopy:
		if err := kernel(cu.Stream{}, alias, n); err != nil {
			return err
		}
	case UVACopy:
		if err := cu.MemcpyHtoD(whole, unsafe.Pointer(&t[0]), 8*n); err != nil {
			return fmt.Errorf("bench uva: copying a table: %v", err)
		}
		if err := kernel(cu.Stream{}, whole, n); err != nil {
			return err
		}
	case UVAStreamed:
		for c, lo := 0, int64(0); lo < n; c, lo = c+1, lo+j.chunkRows {
			rows := min(j.chunkRows, n-lo)
			k := c % len(j.streams)
			if err := cu.MemcpyHtoDAsync(j.bufs[k], unsafe.Pointer(&t[lo]), 8*rows, j.streams[k]); err != nil {
				return fmt.Errorf("bench uva: copying a chunk: %v", err)
			}
			if err := kernel(j.streams[k], j.bufs[k], rows); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("bench uva: unknown mode %q", mode)
	}
	return j.d.sync()
}

// gridFor is the launch grid for n tuples: 8 blocks per SM (enough loads
// in flight to cover PCIe latency), fewer for small inputs.
func (j *uvaJoin) gridFor(n int64) int {
	return min(grid1D(n, j.block*4), j.grid)
}

// matches reads back the match count.
func (j *uvaJoin) matches() (int64, error) {
	var c uint64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&c), j.count, 8); err != nil {
		return 0, err
	}
	return int64(c), nil
}

// results reads back the matches: {build payload, probe payload} pairs.
func (j *uvaJoin) results() ([]UVATuple, error) {
	m, err := j.matches()
	if err != nil || m == 0 {
		return nil, err
	}
	out := make([]UVATuple, m)
	return out, cu.MemcpyDtoH(unsafe.Pointer(&out[0]), j.out, 8*m)
}
