package cpu

import (
	"errors"
	"io"
	"strings"

	"gpusql/internal/decimal"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Merging sorted runs: a binary heap of cursors, one per run, each holding
// the run's current block; the smallest row (keys, then place) goes out
// next. The merge's memory is the output plus, per run, its reader's
// buffer and one decoded block; when the runs are more than the memory
// left allows at once, the first ones are merged into a new run first
// (a multi-pass merge, fan-in from the free memory, at least 2).

// sortMaxFanIn bounds the runs merged at once (a variable for the tests
// of multi-pass merges).
var sortMaxFanIn = 256

// runCursor reads one run block by block.
type runCursor struct {
	r    *spillReader
	cols []*vec
	n, p int
}

// next moves to the run's next row; false at its end.
func (c *runCursor) next() (bool, error) {
	if c.p++; c.p < c.n {
		return true, nil
	}
	cols, n, err := c.r.readBlock()
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c.cols, c.n, c.p = cols, n, 0
	return true, nil
}

// mergeRuns merges the runs into the sort's output.
func (s *sortSink) mergeRuns() (*rel, error) {
	var total int64
	nulls := make([]bool, len(s.types))
	for _, r := range s.runs {
		total += r.rows
		for c := range nulls {
			nulls[c] = nulls[c] || r.nulls[c]
		}
	}
	// The output is reserved after the intermediate merges, which do not
	// hold it, and the final merge's fan-in is what the memory left
	// beside it allows.
	var width int64
	for c, t := range s.types {
		width += valueBytes(t) + int64(b2byte(nulls[c]))
	}
	outBytes := width * total
	perRun, err := s.mergeDown(outBytes)
	if err != nil {
		return nil, err
	}
	if err := s.x.reserve(s.owner, outBytes); err != nil {
		return nil, err
	}
	out := &rel{types: s.types, rows: int(total), cols: make([]*columnar.Column, len(s.types)), mem: outBytes}
	for c, t := range s.types {
		out.cols[c] = newColumn(t, int(total), nulls[c])
	}
	if err := s.x.reserve(s.owner, int64(len(s.runs))*perRun); err != nil {
		s.x.free(out)
		return nil, err
	}
	defer s.x.release(int64(len(s.runs)) * perRun)
	b := newRelBuilder(out)
	if err := s.merge(s.runs, b.add); err != nil {
		s.x.free(out)
		return nil, err
	}
	b.finish()
	if s.x.stats != nil {
		s.x.stats.AddSpill(s.owner.Props().ID, s.files, s.wrote)
	}
	return out, nil
}

// mergeDown merges the first runs into new ones until the rest can be
// merged at once beside keep bytes, and returns what each run's cursor
// holds (its reader's buffer and a decoded block).
func (s *sortSink) mergeDown(keep int64) (perRun int64, err error) {
	perRun = int64(spillBufBytes) + 2*int64(spillBlockRows)*rowWidth(s.runTypes)
	fanIn := int(min(max((s.x.mem.Free()-keep)/perRun, 2), int64(sortMaxFanIn)))
	for len(s.runs) > fanIn {
		// An intermediate merge also holds its writer (one perRun more).
		k := int(min(max(s.x.mem.Free()/perRun-1, 2), int64(sortMaxFanIn), int64(len(s.runs))))
		if err := s.mergeFirst(k, perRun); err != nil {
			return 0, err
		}
	}
	return perRun, nil
}

// mergeFirst merges the first k runs into one new run at the end.
func (s *sortSink) mergeFirst(k int, perRun int64) error {
	cost := int64(k+1) * perRun
	if err := s.x.reserve(s.owner, cost); err != nil {
		return err
	}
	defer s.x.release(cost)
	w, err := newSpillWriter(s.x.spill, planner.OpName(s.owner), s.runTypes)
	if err != nil {
		return err
	}
	b := newBlockBuilder(s.runTypes, w)
	merged := &sortRun{nulls: make([]bool, len(s.runTypes))}
	if err := s.merge(s.runs[:k], b.add); err != nil {
		return err
	}
	if err := b.flush(); err != nil {
		return err
	}
	if merged.f, err = w.close(); err != nil {
		return err
	}
	merged.rows = w.rows
	for _, r := range s.runs[:k] {
		for c := range merged.nulls {
			merged.nulls[c] = merged.nulls[c] || r.nulls[c]
		}
		r.f.Remove()
	}
	s.runs = append(s.runs[k:], merged)
	s.wrote += merged.f.Size()
	s.files++
	return nil
}

// merge streams the rows of runs in order to emit.
func (s *sortSink) merge(runs []*sortRun, emit func(cols []*vec, p int) error) error {
	var h []*runCursor
	defer func() {
		for _, c := range h {
			c.r.close()
		}
	}()
	for _, r := range runs {
		rd, err := openSpillReader(r.f, s.runTypes)
		if err != nil {
			return err
		}
		c := &runCursor{r: rd, p: -1}
		ok, err := c.next()
		if err != nil {
			rd.close()
			return err
		}
		if ok {
			h = append(h, c)
		} else {
			rd.close()
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		s.siftDown(h, i)
	}
	for rows := 0; len(h) > 0; rows++ {
		if err := s.x.checkEvery(rows, 1<<14); err != nil {
			return err
		}
		c := h[0]
		if err := emit(c.cols, c.p); err != nil {
			return err
		}
		ok, err := c.next()
		if err != nil {
			return err
		}
		if !ok {
			c.r.close()
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		s.siftDown(h, 0)
	}
	return nil
}

func (s *sortSink) siftDown(h []*runCursor, i int) {
	for {
		m := i
		if l := 2*i + 1; l < len(h) && s.compareCursors(h[l], h[m]) < 0 {
			m = l
		}
		if r := 2*i + 2; r < len(h) && s.compareCursors(h[r], h[m]) < 0 {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// compareCursors orders the current rows of a and b as compare orders
// rows of one sort (NULLs first ascending, last descending), then by
// their place in the input.
func (s *sortSink) compareCursors(a, b *runCursor) int {
	for i, col := range s.keyCol {
		r := compareSpilled(s.runTypes[col], a.cols[col], a.p, b.cols[col], b.p)
		if r != 0 {
			if s.n.Keys[i].Desc {
				return -r
			}
			return r
		}
	}
	place := len(s.runTypes) - 2
	if r := cmp3(a.cols[place].i64[a.p], b.cols[place].i64[b.p]); r != 0 {
		return r
	}
	return cmp3(a.cols[place+1].i64[a.p], b.cols[place+1].i64[b.p])
}

// compareSpilled compares row pa of va with row pb of vb (nil vectors are
// all NULL), strings by their text: each block has its own dictionary.
func compareSpilled(t columnar.Type, va *vec, pa int, vb *vec, pb int) int {
	an := va == nil || va.isNull(int32(pa))
	bn := vb == nil || vb.isNull(int32(pb))
	switch {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return 1
	case t.ID == columnar.String:
		return strings.Compare(va.dict.Values[va.i32[pa]], vb.dict.Values[vb.i32[pb]])
	case va.i32 != nil:
		return cmp3(va.i32[pa], vb.i32[pb])
	case va.i64 != nil:
		return cmp3(orderedInt64(t, va.i64[pa]), orderedInt64(t, vb.i64[pb]))
	case va.w != nil:
		return decimal.Cmp(va.w[pa], vb.w[pb])
	}
	return cmp3(va.f64[pa], vb.f64[pb])
}

// rowWidth is the bytes of one row of types in memory (values and NULL
// flags).
func rowWidth(types []columnar.Type) int64 {
	var w int64
	for _, t := range types {
		w += valueBytes(t) + 1
	}
	return w
}
