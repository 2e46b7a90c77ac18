package planner

import (
	"fmt"

	"gpusql/sql"
)

// yearOnCPU names the first operator that carries or computes a YEAR
// value. A YEAR is stored as an INT, so the GPU kernels would move it
// correctly, but its conversions (the two-digit rules, the four-digit
// output) live in the CPU executor and the engine, and no GPU test covers
// a YEAR column; until one does, a plan touching YEAR runs on the CPU,
// said in the plan, so that nothing untested runs on the GPU.
func yearOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		for _, c := range n.Schema() {
			if c.Type.Year {
				return "YEAR column " + c.Name + " in " + opName(n) + ": YEAR values are computed on the CPU"
			}
		}
		why := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if why == "" && x.Type().Year {
					why = "YEAR value " + fmt.Sprint(x) + " in " + opName(n) + ": YEAR values are computed on the CPU"
				}
			})
		}
		if why != "" {
			return why
		}
	}
	return ""
}
