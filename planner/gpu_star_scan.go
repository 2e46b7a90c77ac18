package planner

// The star_scan kernels (kernels/star_scan.cuh) take a star with one
// group whose dimensions only filter (SSB Q1.x; any SUM or COUNT over a
// fact table's ranges and joins): a thread's 16 rows' liveness is one
// mask, so more warps stay resident to cover the chain of dependent loads
// that bounds such a star (Q1.1 at SF 10 on the H100: 0.244 → 0.203 ms).
// exec/gpu checks the launch parameters too (a SUM that could overflow
// needs the per-row check of star_fast) and falls back to star_fast.

// scanRowsPerThread is the rows one thread of a star_scan kernel holds
// (SCAN_IT). It loads them in 16-byte units, skipping a unit none of whose
// rows is alive, so its reads cost the sectors that hold a live row as
// star_fast's do (gpu_fact_reads.go's model holds for both).
const scanRowsPerThread = 16

// planStarScan reports whether star q's fact kernel is a star_scan
// kernel: no group key, every dimension a fact filter, no expression
// predicate over the fact table, aggregates integer COUNTs and SUMs of
// columns, no fact column it reads with NULLs.
func planStarScan(q *GPUStar) bool {
	if len(q.Keys) > 0 || len(q.FactGroupCols) > 0 {
		return false
	}
	for _, d := range q.Dims {
		if !d.AsFilter {
			return false
		}
	}
	for _, x := range q.ExprPreds {
		if x.Scan == q.Fact {
			return false
		}
	}
	for _, f := range q.FactFilters {
		if q.nullable(f.Col) {
			return false
		}
	}
	for _, a := range q.Aggs {
		if a.IsFloat || a.Expr != nil || a.Fn != GPUCountStar && a.Fn != GPUCount && a.Fn != GPUSum || q.nullable(a.A) || q.nullable(a.B) {
			return false
		}
	}
	return true
}

// packsFactColumns reports whether a fact column of g stays bit-packed on
// the device (SET gpu_packing = ON): only the star_fast kernels read that
// form.
func packsFactColumns(g *GPUPlan) bool {
	for _, c := range g.Columns {
		if c.Fact && c.Packing != nil && !c.Packing.Transfer {
			return true
		}
	}
	return false
}
