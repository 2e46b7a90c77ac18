package gpu

import (
	"bytes"
	"errors"
	"testing"
	"unsafe"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// heapAlloc stands in for host memory pinned after packing: Go memory
// kept reachable, counted, pinned by a flag.
type heapAlloc struct {
	live   map[unsafe.Pointer][]byte
	pinned map[unsafe.Pointer]bool
}

func (h *heapAlloc) alloc(n int) (unsafe.Pointer, error) {
	b := make([]byte, max(n, 1))
	p := unsafe.Pointer(&b[0])
	h.live[p] = b
	return p, nil
}

func (h *heapAlloc) release(p unsafe.Pointer, pinned bool) {
	if pinned != h.pinned[p] {
		panic("released pinned as unpinned or the other way")
	}
	delete(h.live, p)
	delete(h.pinned, p)
}

func (h *heapAlloc) pin(p unsafe.Pointer, n int) error {
	h.pinned[p] = true
	return nil
}

func (h *heapAlloc) memory() hostMemory {
	return hostMemory{reserve: h.alloc, pin: h.pin, release: h.release}
}

func newHeapAlloc() *heapAlloc {
	return &heapAlloc{live: map[unsafe.Pointer][]byte{}, pinned: map[unsafe.Pointer]bool{}}
}

func intColumn(n int, f func(i int) int32) *columnar.Column {
	c := &columnar.Column{Type: columnar.TInt32, Len: n, I32: make([]int32, n)}
	for i := range c.I32 {
		c.I32[i] = f(i)
	}
	return c
}

// Packed copies are made once, shared while in use, kept after release
// within the budget, evicted least recent first when unused, never while
// in use, and packed again for a new vector; they decode to the column.
func TestPackedCopies(t *testing.T) {
	h := newHeapAlloc()
	a := intColumn(10_000, func(i int) int32 { return int32(i % 11) })
	b := intColumn(10_000, func(i int) int32 { return int32(i%50 - 20) })
	size := columnar.PackedBytes(10_000, 6)
	s := newPackedCopies(size+size/2, h.memory()) // room for one 6-bit copy
	ca, err := s.get(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < a.Len; i++ {
		if got := columnar.UnpackAt(ca.wordSlice(), ca.frameSlice(), 4, i); got != int64(a.I32[i]) {
			t.Fatalf("row %d: %d, want %d", i, got, a.I32[i])
		}
	}
	again, _ := s.get(a, 4)
	if again != ca || ca.users != 2 || len(h.live) != 1 || !h.pinned[ca.mem] {
		t.Errorf("a second get packed again: %v users %d, %d allocations", again == ca, ca.users, len(h.live))
	}
	s.release(ca)
	s.release(ca)
	if _, ok := s.m[packedCopyKey{col: a, bits: 4}]; !ok {
		t.Error("an unused copy within the budget was freed")
	}
	// b needs room: a (unused) goes.
	cb, err := s.get(b, 6)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.m[packedCopyKey{col: a, bits: 4}]; ok || len(h.live) != 1 || s.used != size {
		t.Errorf("a not evicted for b: %d allocations, %d bytes used", len(h.live), s.used)
	}
	// In use, b stays even past the budget.
	ca, err = s.get(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.live) != 2 || s.used <= s.budget {
		t.Errorf("over the budget with both in use: %d allocations, %d of %d bytes", len(h.live), s.used, s.budget)
	}
	s.release(cb)
	if _, ok := s.m[packedCopyKey{col: b, bits: 6}]; ok || s.used > s.budget {
		t.Errorf("the released copy past the budget stays: %d of %d bytes", s.used, s.budget)
	}
	s.release(ca)
	// A new vector under the same column packs again.
	a.I32 = append([]int32(nil), a.I32...)
	a.I32[0] = 10
	c2, err := s.get(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	if c2 == ca || columnar.UnpackAt(c2.wordSlice(), c2.frameSlice(), 4, 0) != 10 {
		t.Error("a stale copy served a new vector")
	}
	// Too few bits for the values is an error, and frees what it took.
	s.release(c2)
	n := len(h.live)
	if _, err := s.get(b, 2); err == nil || len(h.live) != n {
		t.Errorf("b in 2 bits: %v, %d allocations (had %d)", err, len(h.live), n)
	}
	// An empty column packs into nothing (whole groups of no rows).
	e, err := s.get(intColumn(0, nil), 0)
	if err != nil || e.frames != 0 || e.words != 0 {
		t.Errorf("empty column: %+v, %v", e, err)
	}
	// A whole copy is the vector's bytes, pinned, kept as packed ones are.
	w, err := s.get(b, wholeCopy)
	if err != nil || !bytes.Equal(w.bytes(), b.Data()) || !h.pinned[w.mem] || w.size != int64(4*b.Len) {
		t.Errorf("whole copy of b: %v, equal %v, pinned %v", err, err == nil && bytes.Equal(w.bytes(), b.Data()), err == nil && h.pinned[w.mem])
	}
	if again, _ := s.get(b, wholeCopy); again != w {
		t.Error("a second whole copy of b was made")
	}
	s.release(w)
	s.release(w)
	// Pinned memory short: unused copies go, then the error says no room
	// (the caller reads the 4-byte form instead).
	s.release(e)
	mem := h.memory()
	mem.pin = func(unsafe.Pointer, int) error { return errors.New("out of pinned memory") }
	fail := newPackedCopies(1<<30, mem)
	n = len(h.live)
	if _, err := fail.get(a, 4); !errors.Is(err, errNoRoom) || len(h.live) != n {
		t.Errorf("pinning failing: %v, want errNoRoom; %d allocations (had %d)", err, len(h.live), n)
	}
}

// A column's run-length copy is its own entry beside its packed copy of
// the same bits, shared while in use, decodes to the column, and is
// counted at its size.
func TestRunCopies(t *testing.T) {
	h := newHeapAlloc()
	a := intColumn(10_000, func(i int) int32 { return int32(i / 3 % 11) })
	s := newPackedCopies(1<<20, h.memory())
	pa, err := s.get(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := s.getRuns(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	if ra == pa || ra.runs == nil || len(h.live) != 2 || ra.size != 4*int64(ra.runs.Words()) || s.used != pa.size+ra.size {
		t.Fatalf("runs and packed copies: same %v, %d allocations, %d bytes used", ra == pa, len(h.live), s.used)
	}
	got := columnar.DecodeRuns(ra.runs, unsafe.Slice((*uint32)(ra.mem), ra.size/4))
	for i, v := range got {
		if v != a.I32[i] {
			t.Fatalf("row %d: %d, want %d", i, v, a.I32[i])
		}
	}
	if again, _ := s.getRuns(a, 4); again != ra || ra.users != 2 || ra.form() != "runs" || pa.form() != "packed" {
		t.Errorf("a second getRuns made another copy, or forms misnamed")
	}
}

// A cold load of a column the plan sends as runs makes both its host
// forms, once; one the plan sends packed makes only the packed form.
func TestTransferCopiesTogether(t *testing.T) {
	h := newHeapAlloc()
	a := intColumn(10_000, func(i int) int32 { return int32(i / 3 % 11) })
	s := newPackedCopies(1<<20, h.memory())
	c, err := s.getTransfer(a, &planner.GPUPacking{Bits: 4}, false)
	if err != nil || c.runs != nil || len(s.m) != 1 {
		t.Fatalf("sent packed: %v, %d copies", err, len(s.m))
	}
	s.release(c)
	pk := &planner.GPUPacking{Bits: 4, RunBytes: 1}
	for _, runs := range []bool{false, true, true} {
		c, err := s.getTransfer(a, pk, runs)
		if err != nil || (c.runs != nil) != runs || len(s.m) != 2 || len(h.live) != 2 {
			t.Fatalf("runs %v: %v, %d copies, %d allocations", runs, err, len(s.m), len(h.live))
		}
		s.release(c)
	}
	for _, c := range s.m {
		if c.users != 0 {
			t.Errorf("a %s copy left in use", c.form())
		}
	}
}
