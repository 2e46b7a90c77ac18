package planner

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gpusql/sql"
)

// The fused star kernel reads a fact column only for the rows still alive
// when it gets there (late materialization): a thread skips the loads of
// its rows when none is alive, so a column read after selective filters
// and probes costs only the 32-byte sectors that hold a live row. The plan
// fixes the order (fact filters most selective first, then the probes in
// their order, then group columns and aggregate arguments) and estimates
// the bytes each column costs, so EXPLAIN and bench count what the kernel
// fetches, not the columns' whole size.

// GPUFactFilter is one fact column's conjuncts, or the membership of a
// fact key in a dimension's keys (Dim set: gpu_dim_filters.go), as the
// kernel tests them.
type GPUFactFilter struct {
	Col int     // fact table column
	Sel float64 // estimated fraction of rows its conjuncts keep
	Dim *GPUStarDim
}

// GPUFactRead is what the kernel fetches of one fact column.
type GPUFactRead struct {
	Col int // fact table column
	// Alive is the estimated fraction of rows alive when the kernel first
	// reads the column; Sectors the fraction of its 32-byte sectors that
	// hold one of them; Bytes the bytes fetched (resident or zero-copy
	// columns: their device bytes times Sectors).
	Alive, Sectors float64
	Bytes          int64
}

// sectorBytes is the unit of a device memory read; starItems the rows
// one thread of the star kernel holds (kernels/star_pipeline.cu's
// default ITEMS): it skips them together.
const (
	sectorBytes = 32
	starItems   = 8
)

// planFactFilters orders the fact table's filtered columns by estimated
// selectivity, most selective first (ties by column, so the order is the
// same every run).
func planFactFilters(q *GPUStar) {
	sels := map[int]float64{}
	for sc, cs := range q.ColumnPreds {
		if sc.Scan != q.Fact {
			continue
		}
		s := 1.0
		for _, c := range cs {
			s *= conjunctSel(q, c)
		}
		sels[sc.Col] = s
	}
	q.FactFilters = q.FactFilters[:0]
	for c, s := range sels {
		q.FactFilters = append(q.FactFilters, GPUFactFilter{Col: c, Sel: s})
	}
	for _, d := range q.Dims {
		if d.AsFilter {
			q.FactFilters = append(q.FactFilters, GPUFactFilter{Col: d.Probe.Col, Sel: d.Sel, Dim: d})
		}
	}
	// Ties: a column's own conjuncts before a dimension's keys (no
	// gather), then by column.
	sort.Slice(q.FactFilters, func(i, j int) bool {
		a, b := q.FactFilters[i], q.FactFilters[j]
		if a.Sel != b.Sel {
			return a.Sel < b.Sel
		}
		if (a.Dim == nil) != (b.Dim == nil) {
			return a.Dim == nil
		}
		return a.Col < b.Col
	})
}

// conjunctSel estimates conjunct c of a star filter over the fact scan's
// column statistics: the filter's input columns that come from the fact
// table get their table statistics, the others none (c reads one column).
func conjunctSel(q *GPUStar, c sql.Expr) float64 {
	for _, f := range q.Filters {
		for _, fc := range conjuncts(f.Cond) {
			if fc != c {
				continue
			}
			in := &relStats{Rows: math.Max(float64(q.Fact.Table.Rows), 1)}
			for i := range f.Input.Schema() {
				var cs colStat
				if sc, ok := ResolveScanColumn(f.Input, i); ok && sc.Scan == q.Fact {
					cs = tableColumnStat(q.Fact.Table, sc.Col)
				}
				in.Cols = append(in.Cols, cs)
			}
			return math.Min(1, applyFilter(in, c).Rows/in.Rows)
		}
	}
	return 1
}

// planFactReads estimates each fact column's fetched bytes in the kernel's
// order, from the rows alive at its first read and its bytes per row on
// the device (g.Columns), over the chunks the zone maps leave.
func planFactReads(g *GPUPlan) {
	q := g.Star
	rows := float64(q.Fact.Table.Rows)
	scanned := rows
	if z := q.Zones; z != nil && z.Off == "" && z.Chunks > 0 {
		scanned = rows * float64(z.Live) / float64(z.Chunks)
	}
	perRow, packedBits := map[int]float64{}, map[int]int{}
	for _, c := range g.Columns {
		for i, tc := range q.Fact.Table.Columns {
			if c.Fact && c.Col == tc && rows > 0 {
				perRow[i] = float64(c.Bytes) / rows
				if c.Packing != nil && !c.Packing.Transfer {
					packedBits[i] = c.Packing.Bits
				}
			}
		}
	}
	q.FactReads, q.FactReadBytes = q.FactReads[:0], 0
	seen := map[int]bool{}
	alive := 1.0
	read := func(col int) {
		if seen[col] || col < 0 {
			return
		}
		seen[col] = true
		r := GPUFactRead{Col: col, Alive: alive, Sectors: sectorShare(alive, perRow[col])}
		if bits, ok := packedBits[col]; ok {
			r.Sectors = packedSectorShare(alive, bits)
		}
		r.Bytes = int64(r.Sectors * perRow[col] * scanned)
		q.FactReads = append(q.FactReads, r)
		q.FactReadBytes += r.Bytes
	}
	for _, f := range q.FactFilters {
		read(f.Col)
		alive *= f.Sel
	}
	for _, d := range q.Dims {
		if d.AsFilter {
			continue
		}
		read(d.Probe.Col)
		alive *= d.Sel
	}
	for _, c := range q.FactGroupCols {
		read(c)
	}
	for _, a := range q.Aggs {
		read(a.A)
		read(a.B)
	}
}

// sectorShare is the fraction of a column's sectors that hold a row alive
// with probability alive (rows independent), at perRow bytes a row: a
// sector spans the rows of one thread at least.
func sectorShare(alive, perRow float64) float64 {
	if alive >= 1 || perRow <= 0 {
		return 1
	}
	span := math.Max(starItems, sectorBytes/perRow)
	return 1 - math.Pow(1-alive, span)
}

// explainFactReads is EXPLAIN's line for the kernel's fact reads.
func explainFactReads(q *GPUStar, whole int64) string {
	if len(q.FactReads) == 0 {
		return ""
	}
	parts := make([]string, len(q.FactReads))
	for i, r := range q.FactReads {
		name := q.Fact.Table.Fields[r.Col].Name
		if r.Alive >= 1 {
			parts[i] = fmt.Sprintf("%s all rows", name)
		} else {
			parts[i] = fmt.Sprintf("%s for est %.3g%% of rows (%.3g%% of sectors)", name, 100*r.Alive, 100*r.Sectors)
		}
	}
	return fmt.Sprintf("fact reads: %s; est %s fetched of %s", strings.Join(parts, ", "), fmtBytes(q.FactReadBytes), fmtBytes(whole))
}
