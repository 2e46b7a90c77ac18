package planner

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// timeYearOnCPU names the first operator that carries or computes a TIME
// or YEAR value. Both are stored as integers (TIME as signed µs, YEAR as
// an INT), so the GPU kernels would move them, but their conversions
// (TIME's text and HHMMSS forms, YEAR's two-digit rules and four-digit
// output) live in the CPU executor and the engine, and no GPU test covers
// such a column; until one does, a plan touching them runs on the CPU,
// said in the plan, so that nothing untested runs on the GPU.
func timeYearOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		for _, c := range n.Schema() {
			if k := timeOrYear(c.Type); k != "" {
				return k + " column " + c.Name + " in " + opName(n) + ": " + k + " values are computed on the CPU"
			}
		}
		why := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if k := timeOrYear(x.Type()); why == "" && k != "" {
					why = k + " value " + fmt.Sprint(x) + " in " + opName(n) + ": " + k + " values are computed on the CPU"
				}
			})
		}
		if why != "" {
			return why
		}
	}
	return ""
}

func timeOrYear(t columnar.Type) string {
	switch {
	case t.Year:
		return "YEAR"
	case t.ID == columnar.Time:
		return "TIME"
	}
	return ""
}
