package planner

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// vectorOnCPU names the first operator that carries or computes a VECTOR
// value. The GPU's column cache and expression compiler hold fixed-width
// scalars only; a VECTOR is n float32 per row, so a plan that touches one
// runs on the CPU, said in the plan rather than discovered by the GPU
// executor halfway through.
func vectorOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		for _, c := range n.Schema() {
			if c.Type.ID == columnar.Vector {
				return "VECTOR column " + c.Name + " in " + opName(n) + ": VECTOR values are computed on the CPU"
			}
		}
		why := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if why == "" && x.Type().ID == columnar.Vector {
					why = "VECTOR value " + fmt.Sprint(x) + " in " + opName(n) + ": VECTOR values are computed on the CPU"
				}
			})
		}
		if why != "" {
			return why
		}
	}
	return ""
}
