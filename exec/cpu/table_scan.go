package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
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
		v.i32, v.i64, v.f64, v.vecs, v.w, v.nulls = nil, nil, nil, nil, nil, nil
		switch {
		case c.I32 != nil:
			v.i32 = c.I32[off : off+n]
		case c.I64 != nil:
			v.i64 = c.I64[off : off+n]
		case c.F64 != nil:
			v.f64 = c.F64[off : off+n]
		case c.W != nil:
			v.w = c.W[off : off+n]
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
// it can reject the whole morsel from the chunk statistics alone
// (planner.ZoneSkips, which the GPU's plans use too).
func zoneSkips(ts *planner.TableScan, cond sql.Expr) []bool { return planner.ZoneSkips(ts, cond) }
