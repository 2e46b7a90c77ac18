package planner

import "gpusql/storage/columnar"

// Zone maps through dimension keys: a fact table loaded in the order of a
// foreign key (rows by date, as facts usually arrive, or after ALTER TABLE
// ... ORDER BY) keeps each chunk's keys in a narrow range. A dimension's
// filters keep a set of its keys, and a fact row joins only when its key
// lies between the least and the greatest of them, so a chunk whose key
// range misses that interval holds no row of the result. The interval is
// known once the dimension is built (the build kernel finds it); the star
// kernel then skips those chunks' tiles as it skips those the fact filters
// rule out. The planner asks for it where the fact key is clustered:
// chunks whose ranges are narrow against the column's, where an interval
// can miss some of them.

// clusteredSpan is the largest mean chunk key range, as a fraction of the
// column's whole range, at which a fact key counts as clustered: keys in
// random order give chunks that each span nearly all of it (SSB's
// lo_orderdate as generated: 0.99).
const clusteredSpan = 0.5

// dimZoneKeys returns the star's dimensions (indexes into q.Dims) whose key
// intervals can rule out fact chunks: filtered dimensions whose fact key
// is clustered.
func dimZoneKeys(q *GPUStar) []int {
	var out []int
	for i, d := range q.Dims {
		if dimFiltered(q, d) && sameIntKeys(q, d) && keyClustered(q.Fact.Table, d.Probe.Col) {
			out = append(out, i)
		}
	}
	return out
}

// sameIntKeys reports whether the join compares integers of one type on
// both sides (not dictionary codes, whose values differ between tables).
func sameIntKeys(q *GPUStar, d *GPUStarDim) bool {
	ft, dt := q.Fact.Table, d.Scan.Table
	fc, dc := d.Probe.Col, d.Key
	if fc >= len(ft.Columns) || dc >= len(dt.Columns) {
		return false
	}
	f, k := ft.Columns[fc], dt.Columns[dc]
	return f.Dict == nil && k.Dict == nil && (f.I32 != nil || f.I64 != nil) && (k.I32 != nil || k.I64 != nil) &&
		ft.Fields[fc].Type == dt.Fields[dc].Type
}

func dimFiltered(q *GPUStar, d *GPUStarDim) bool {
	for _, f := range q.Filters {
		if f.Input == Node(d.Scan) {
			return true
		}
	}
	return false
}

// keyClustered reports whether column c of t has chunks whose key ranges
// are on average at most clusteredSpan of the column's range.
func keyClustered(t *columnar.Table, c int) bool {
	if t.NumChunks() < 2 || c >= len(t.Stats) || len(t.Stats[c]) != t.NumChunks() {
		return false
	}
	var lo, hi int64
	var spans float64
	n := 0
	for k, s := range t.Stats[c] {
		if s.NullCount == min(columnar.ChunkRows, t.Rows-k*columnar.ChunkRows) {
			continue // every value NULL
		}
		if n == 0 || s.Min < lo {
			lo = s.Min
		}
		if n == 0 || s.Max > hi {
			hi = s.Max
		}
		spans += float64(s.Max) - float64(s.Min)
		n++
	}
	if n < 2 || hi <= lo {
		return false
	}
	return spans/float64(n) <= clusteredSpan*(float64(hi)-float64(lo))
}
