package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Zone maps: each table chunk (columnar.ChunkRows rows) keeps its columns'
// minimum and maximum (columnar.ChunkStats); a filter conjunct col op
// literal whose range misses a chunk's, or a dictionary code set matching
// none of its codes, rules the whole chunk out. The CPU executor skips
// such chunks' morsels; a star plan on the GPU launches over the chunks
// left (gpu_zone_maps.go).

// ZoneSkips returns, per morsel of a scan, whether a filter directly above
// it can reject the whole morsel from the chunk statistics alone (a zone
// map): a conjunct col op literal whose range misses the chunk's [min, max],
// or a dictionary code set matching no code in it. nil when nothing can be
// skipped.
func ZoneSkips(ts *TableScan, cond sql.Expr) []bool {
	t := ts.Table
	if t.NumChunks() < 2 {
		return nil
	}
	var skip []bool
	for _, c := range conjuncts(cond) {
		test := zoneTest(ts, c)
		if test == nil {
			continue
		}
		if skip == nil {
			skip = make([]bool, t.NumChunks())
		}
		for k := range skip {
			skip[k] = skip[k] || !test(k)
		}
	}
	return skip
}

// zoneTest returns whether chunk k may hold a row passing c (nil: c gives
// no zone test).
func zoneTest(ts *TableScan, c sql.Expr) func(k int) bool {
	t := ts.Table
	stats := func(ref *sql.ColRef) []columnar.ChunkStats {
		if ref.Index >= len(ts.Columns) {
			return nil
		}
		tc := ts.Columns[ref.Index]
		if tc >= len(t.Stats) || len(t.Stats[tc]) != t.NumChunks() {
			return nil
		}
		return t.Stats[tc]
	}
	switch e := c.(type) {
	case *sql.CodeSet:
		st := stats(e.E)
		if st == nil || e.E.Col.Dict == nil || t.Columns[ts.Columns[e.E.Index]].Dict != e.E.Col.Dict {
			return nil
		}
		// prefix[i] = matching codes below i.
		prefix := make([]int, len(e.Match)+1)
		for i, m := range e.Match {
			prefix[i+1] = prefix[i]
			if m {
				prefix[i+1]++
			}
		}
		return func(k int) bool {
			lo, hi := max(st[k].Min, 0), min(st[k].Max, int64(len(e.Match)-1))
			return lo <= hi && prefix[hi+1] > prefix[lo]
		}
	case *sql.Binary:
		if e.Op < sql.OpEQ || e.Op > sql.OpGE || e.Op == sql.OpNE {
			return nil
		}
		ref, lok := e.L.(*sql.ColRef)
		k, rok := e.R.(*sql.Const)
		op := e.Op
		if !lok || !rok {
			ref, lok = e.R.(*sql.ColRef)
			k, rok = e.L.(*sql.Const)
			op = op.Flip()
		}
		if !lok || !rok || k.Null {
			return nil
		}
		// DATETIMEs of any fsp are microseconds: comparable as they are.
		comparable := sql.SameType(ref.Col.Type, k.T) || ref.Col.Type.ID == k.T.ID && (k.T.ID == columnar.Datetime || k.T.ID == columnar.Time)
		if !comparable || ref.Col.Type.ID == columnar.String || ref.Col.Type.IsWide() {
			return nil // wide DECIMAL chunks keep no min/max
		}
		st := stats(ref)
		if st == nil {
			return nil
		}
		if ref.Col.Type.Physical() == columnar.PhysFloat64 {
			v := k.F
			return func(c int) bool { return rangeMay(op, st[c].MinF, st[c].MaxF, v) }
		}
		v := k.I
		return func(c int) bool { return rangeMay(op, st[c].Min, st[c].Max, v) }
	}
	return nil
}

// rangeMay reports whether some x in [lo, hi] satisfies x op v.
func rangeMay[T int64 | float64](op sql.BinOp, lo, hi, v T) bool {
	switch op {
	case sql.OpEQ:
		return lo <= v && v <= hi
	case sql.OpLT:
		return lo < v
	case sql.OpLE:
		return lo <= v
	case sql.OpGT:
		return hi > v
	case sql.OpGE:
		return hi >= v
	}
	return true
}
