package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// vectorReason says why n keeps a plan on the CPU executor: the GPU
// executor has no VECTOR columns (its column cache, kernels and result
// decoding are for fixed-width scalars), so an operator that reads,
// computes or outputs a vector — a distance in a filter or ORDER BY, a
// vector column carried to the result — runs on the CPU. A plan over a
// table with vector columns that never reads them stays eligible for the
// GPU: the scan's output is the columns the query needs.
func vectorReason(n Node) string {
	for _, c := range n.Schema() {
		if c.Type.ID == columnar.Vector {
			return "VECTOR column " + c.Name + " in " + opName(n) + ": vectors are not implemented on the GPU"
		}
	}
	for _, e := range nodeExprs(n) {
		found := false
		walkExpr(e, func(x sql.Expr) {
			if x.Type().ID == columnar.Vector {
				found = true
			}
		})
		if found {
			return "VECTOR expression in " + opName(n) + ": vectors are not implemented on the GPU"
		}
	}
	return ""
}
