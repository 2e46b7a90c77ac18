package planner

import (
	"math"
	"sync"
	"weak"

	"gpusql/storage/columnar"
)

// colStat is what the planner believes about one column of an
// intermediate result. Values are in the column's physical domain (codes,
// days, scaled decimals) as float64.
type colStat struct {
	Distinct float64
	Min, Max float64
	// HasRange: Min and Max are known.
	HasRange bool
	// Exact: Min and Max are true bounds of every non-NULL value (from the
	// table's statistics or a dictionary, narrowed only by predicates that
	// the rows passed), so executors may index arrays by them.
	Exact    bool
	NullFrac float64
	// Integral: the domain is whole numbers (not DOUBLE), so x < c means
	// x <= c-1.
	Integral bool
}

// relStats estimates an intermediate result.
type relStats struct {
	Rows float64
	Cols []colStat
}

func (s *relStats) clone() *relStats {
	return &relStats{Rows: s.Rows, Cols: append([]colStat{}, s.Cols...)}
}

// capDistinct bounds every column's distinct count by the row count.
func (s *relStats) capDistinct() {
	for i := range s.Cols {
		if s.Cols[i].Distinct > s.Rows {
			s.Cols[i].Distinct = math.Max(s.Rows, 1)
		}
		if s.Cols[i].Distinct < 1 {
			s.Cols[i].Distinct = 1
		}
	}
}

// unknownCol is the statistic of a computed column of type t over rows rows.
func unknownCol(t columnar.Type, rows float64) colStat {
	return colStat{Distinct: math.Max(rows, 1), Integral: t.Physical() != columnar.PhysFloat64, NullFrac: 0.01}
}

// summaryCache holds statistics computed by scanning columns of tables that
// carry none (tables built in memory, or loaded before statistics existed),
// keyed weakly so that dropped tables' columns can still be collected.
var summaryCache sync.Map // weak.Pointer[columnar.Column] → columnar.Summary

// tableColumnStat returns the statistics of column c of table t, from its
// chunk statistics when complete, else computed once by a scan.
func tableColumnStat(t *columnar.Table, c int) colStat {
	col := t.Columns[c]
	rows := float64(t.Rows)
	if t.Rows == 0 {
		return colStat{Distinct: 1, Integral: col.Type.Physical() != columnar.PhysFloat64}
	}
	if col.Type.ID == columnar.Vector || col.Type.IsWide() {
		// Vectors and wide DECIMALs have no int64 range to plan dense
		// tables or bitmaps over; count them as distinct.
		return colStat{Distinct: rows}
	}
	var s columnar.Summary
	if c < len(t.Stats) && len(t.Stats[c]) == t.NumChunks() && t.NumChunks() > 0 {
		s = t.ColumnSummary(c)
	} else if v, ok := summaryCache.Load(weak.Make(col)); ok {
		s = v.(columnar.Summary)
	} else {
		s = scanSummary(col, t.Rows)
		summaryCache.Store(weak.Make(col), s)
	}
	cs := colStat{Distinct: math.Max(float64(s.Distinct), 1), NullFrac: float64(s.NullCount) / rows,
		Integral: col.Type.Physical() != columnar.PhysFloat64}
	switch {
	case col.Type.ID == columnar.String && col.Dict != nil:
		cs.Min, cs.Max, cs.HasRange, cs.Exact = 0, float64(col.Dict.Len()-1), true, true
		cs.Distinct = math.Max(float64(col.Dict.Len()), 1)
	case col.Type.Physical() == columnar.PhysFloat64:
		cs.Min, cs.Max, cs.HasRange = s.MinF, s.MaxF, s.NullCount < t.Rows
	default:
		cs.Min, cs.Max = float64(s.Min), float64(s.Max)
		cs.HasRange = s.NullCount < t.Rows
		cs.Exact = cs.HasRange
	}
	if cs.Distinct > rows {
		cs.Distinct = rows
	}
	return cs
}

// scanSummary computes min, max, NULL count and a distinct estimate of a
// column: exact over a bitmap of the value range when that is small, else
// from a sample, scaled.
func scanSummary(col *columnar.Column, rows int) columnar.Summary {
	var s columnar.Summary
	first := true
	for i := 0; i < rows; i++ {
		if col.IsNull(i) {
			s.NullCount++
			continue
		}
		if col.F64 != nil {
			v := col.F64[i]
			if first || v < s.MinF {
				s.MinF = v
			}
			if first || v > s.MaxF {
				s.MaxF = v
			}
		} else {
			v := col.Int64At(i)
			if first || v < s.Min {
				s.Min = v
			}
			if first || v > s.Max {
				s.Max = v
			}
		}
		first = false
	}
	if first {
		return s
	}
	if col.F64 == nil && s.Max-s.Min < 1<<24 {
		seen := make([]uint64, (s.Max-s.Min)/64+1)
		for i := 0; i < rows; i++ {
			if !col.IsNull(i) {
				v := col.Int64At(i) - s.Min
				if seen[v>>6]&(1<<(v&63)) == 0 {
					seen[v>>6] |= 1 << (v & 63)
					s.Distinct++
				}
			}
		}
		return s
	}
	const sample = 1 << 16
	step := max(1, rows/sample)
	set := map[uint64]struct{}{}
	n := 0
	for i := 0; i < rows; i += step {
		if col.IsNull(i) {
			continue
		}
		n++
		if col.F64 != nil {
			set[math.Float64bits(col.F64[i])] = struct{}{}
		} else {
			set[uint64(col.Int64At(i))] = struct{}{}
		}
	}
	d := len(set)
	if n > 0 && d > n/2 {
		// Mostly distinct in the sample: assume distinct overall.
		d = d * (rows - s.NullCount) / n
	}
	s.Distinct = max(d, 1)
	return s
}
