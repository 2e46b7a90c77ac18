package planner

import (
	"fmt"
	"math"
	"strings"
)

// Dimensions tested as fact filters. The fused star kernel tests the fact
// table's own filters first, most selective first, then probes the
// dimensions; a column read after selective tests costs only the sectors
// that still hold a live row (gpu_fact_reads.go). A dimension that gives
// the query no group column needs no payload: its probe is a membership
// test of the fact key in the keys its filters keep, which is exactly a
// fact filter over a bitmap of those keys (Kruliš & Yaghob's bitmap join).
// Tested as one, it takes its place among the fact filters by selectivity
// instead of after all of them: SSB Q1.1's date (d_year = 1993, 1/7 of the
// fact rows) goes before lo_discount (3/11) and lo_quantity (1/2), so
// those and lo_extendedprice are read for a seventh of the rows; Q1.3's
// week (1/364) leaves the other three columns almost unread.
//
// planDimFilters marks each dimension with no group column, a direct join
// table and its payload in global memory whose selectivity is at most
// that of every dimension that stays a probe: testing it earlier then
// never moves a more selective probe later. Its join table gets a bitmap
// (the filter's set), which is all the kernel reads of it.
func planDimFilters(q *GPUStar) {
	probeSel := math.Inf(1)
	for _, d := range q.Dims {
		if !dimFilterShape(d) {
			probeSel = math.Min(probeSel, d.Sel)
		}
	}
	for _, d := range q.Dims {
		if dimFilterShape(d) && d.Sel <= probeSel {
			d.AsFilter = true
			d.Build.Bitmap, d.Build.BitsOnly = true, true
		}
	}
}

// dimFilterShape reports whether dimension d can be tested as a fact
// filter: it adds no group column, so its payload is never read, and its
// join table is a direct array in global memory.
func dimFilterShape(d *GPUStarDim) bool {
	return len(d.GroupCols) == 0 && d.Build.Direct && d.Payload.Layout == PayloadGlobal
}

// explainFactFilters is EXPLAIN's line for the order of the kernel's fact
// filters ("" when it has none).
func explainFactFilters(q *GPUStar) string {
	if len(q.FactFilters) == 0 {
		return ""
	}
	parts := make([]string, len(q.FactFilters))
	for i, f := range q.FactFilters {
		col := q.Fact.Table.Fields[f.Col].Name
		parts[i] = fmt.Sprintf("%s (sel %.3g)", col, f.Sel)
		if f.Dim != nil {
			parts[i] = fmt.Sprintf("%s in %s's keys, %s (sel %.3g)", col, f.Dim.Scan.Table.Name, opName(f.Dim.Join), f.Sel)
		}
	}
	return "fact filters: " + strings.Join(parts, ", ")
}
