package cpu

import (
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Every operator that holds rows beyond a batch (collected intermediate
// results, hash-join tables, aggregate tables, sort permutations, nested
// subquery caches) reserves their bytes from the query's accountant
// (exec.Memory, carried by the context) before it allocates them, naming
// itself as EXPLAIN does. Past the limit the reservation fails and the
// query stops with that error; nothing is left half done because queries
// change no state. A rel remembers what it was charged (rel.mem) so that
// the operator that consumes it whole can give the bytes back.

// reserve charges bytes to operator n.
func (x *executor) reserve(n planner.Node, bytes int64) error {
	if x.mem == nil || bytes <= 0 {
		return nil
	}
	return x.mem.Reserve(bytes, planner.OpName(n))
}

// release gives back bytes reserved earlier.
func (x *executor) release(bytes int64) { x.mem.Release(bytes) }

// free gives back what r was charged, once r is no longer needed.
func (x *executor) free(r *rel) {
	if r != nil && r.mem > 0 {
		x.release(r.mem)
		r.mem = 0
	}
}

// own charges r's bytes to n and records them on r.
func (x *executor) own(n planner.Node, r *rel) error {
	b := relBytes(r)
	if err := x.reserve(n, b); err != nil {
		return err
	}
	r.mem += b
	return nil
}

// valueBytes is the width of one value of type t in a vector or column
// (for VECTOR, its fixed dimension's elements; vectorBytes counts the
// elements a VECTOR column or batch actually holds).
func valueBytes(t columnar.Type) int64 {
	switch t.Physical() {
	case columnar.PhysInt32:
		return 4
	case columnar.PhysVector:
		return 4 * int64(t.Dim)
	case columnar.PhysWide:
		return 32
	}
	return 8
}

// vectorBytes is what a collected vector batch holds beyond valueBytes:
// a slice header per row and, without a fixed dimension, the elements.
func vectorBytes(v *vec, rows int) int64 {
	b := int64(24 * rows)
	if v.t.Dim == 0 {
		for _, x := range v.vecs[:min(rows, len(v.vecs))] {
			b += 4 * int64(len(x))
		}
	}
	return b
}

// relBytes estimates the bytes of r's columns: values plus validity.
func relBytes(r *rel) int64 {
	var w, extra int64
	for i, c := range r.cols {
		if c == nil {
			continue
		}
		w += valueBytes(r.types[i])
		if c.Valid != nil {
			w++
		}
		if c.Offsets != nil {
			extra += 4*int64(len(c.F32)) + 8*int64(len(c.Offsets))
		}
	}
	return w*int64(r.rows) + extra
}

// chunkBytes estimates the bytes of a collected chunk.
func chunkBytes(ch *chunk) int64 {
	var w, extra int64
	for _, v := range ch.cols {
		if v == nil {
			continue
		}
		w += valueBytes(v.t)
		if v.nulls != nil {
			w++
		}
		if v.vecs != nil {
			extra += vectorBytes(v, ch.rows)
		}
	}
	return w*int64(ch.rows) + extra
}

// attemptMark returns a function putting the EXPLAIN ANALYZE statistics
// and the statement's warnings back as they are now: an operator that
// gives up an attempt at the memory limit and runs its input again (to
// spill) counts the input's rows, and notes its warnings, once.
func (x *executor) attemptMark() func() {
	w := x.warn.Mark()
	if x.stats == nil {
		return func() { x.warn.Rewind(w) }
	}
	snap := x.stats.Snapshot()
	return func() {
		x.stats.Restore(snap)
		x.warn.Rewind(w)
	}
}
