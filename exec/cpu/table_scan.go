package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// TableScan is the source of a pipeline: the table's column vectors are
// read in place, a morsel (a statistics chunk) at a time, and handed to the
// first operator in batches of batchSize rows whose vectors borrow the
// column storage (only NULL flags are decoded).

// scanRel exposes a scan's columns as a rel (no copy).
func scanRel(s *planner.TableScan) *rel {
	r := &rel{types: typesOf(s.Out), rows: s.Table.Rows}
	for _, c := range s.Columns {
		// A column mapped from a database file is checksummed on its first
		// scan (engine checks the plan's scans up front; this catches the
		// scans of subqueries planned while the query runs).
		if err := s.Table.Columns[c].Verify(); err != nil {
			raise(err)
		}
		r.cols = append(r.cols, s.Table.Columns[c])
	}
	return r
}

// readBatch points the vectors of b at rows [off, off+n) of r (borrowing the
// column storage; NULL flags are decoded into the vectors' own buffers).
func (r *rel) readBatch(b *batch, vs []*vec, off, n int) {
	b.n, b.off = n, off
	b.sel = identSel[:n]
	b.cols = b.cols[:0]
	for i, c := range r.cols {
		v := vs[i]
		if c == nil {
			b.cols = append(b.cols, nil)
			continue
		}
		v.t, v.dict = c.Type, c.Dict
		v.i32, v.i64, v.f64, v.vecs, v.nulls = nil, nil, nil, nil, nil
		switch {
		case c.I32 != nil:
			v.i32 = c.I32[off : off+n]
		case c.I64 != nil:
			v.i64 = c.I64[off : off+n]
		case c.F64 != nil:
			v.f64 = c.F64[off : off+n]
		case c.F32 != nil:
			v.vecs = vectorRows(v.vecs, c, off, n)
		}
		if c.Valid != nil {
			nl := v.nullsFor(n)
			for j := 0; j < n; j++ {
				row := off + j
				nl[j] = c.Valid[row>>6]&(1<<(uint(row)&63)) == 0
			}
		}
		b.cols = append(b.cols, v)
	}
}

// zoneSkips returns, per morsel of a scan, whether a filter directly above
// it can reject the whole morsel from the chunk statistics alone (a zone
// map): a conjunct col op literal whose range misses the chunk's [min, max],
// or a dictionary code set matching no code in it. nil when nothing can be
// skipped.
func zoneSkips(ts *planner.TableScan, cond sql.Expr) []bool {
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

func conjuncts(e sql.Expr) []sql.Expr {
	if b, ok := e.(*sql.Binary); ok && b.Op == sql.OpAnd {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []sql.Expr{e}
}

// zoneTest returns whether chunk k may hold a row passing c (nil: c gives
// no zone test).
func zoneTest(ts *planner.TableScan, c sql.Expr) func(k int) bool {
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
		// DATETIMEs of any fsp are microseconds: comparable as they are.
		comparable := sameType(ref.Col.Type, k.T) || ref.Col.Type.ID == columnar.Datetime && k.T.ID == columnar.Datetime
		if !lok || !rok || k.Null || !comparable || ref.Col.Type.ID == columnar.String {
			return nil
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
