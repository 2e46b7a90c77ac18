package planner

import (
	"fmt"

	"gpusql/sql"
)

// jsonOnCPU names the first operator that carries or computes a JSON
// value. A JSON column is dictionary-encoded text like VARCHAR, but every
// JSON function parses documents row by row (exec/cpu/rowfunc_json.go),
// which has no GPU kernel; rather than split a plan between a GPU that
// moves JSON codes and a CPU that computes on them, a plan touching JSON
// runs on the CPU, said in the plan.
func jsonOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		for _, c := range n.Schema() {
			if c.Type.JSON {
				return "JSON column " + c.Name + " in " + opName(n) + ": JSON values are computed on the CPU"
			}
		}
		why := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if why == "" && x.Type().JSON {
					why = "JSON value " + fmt.Sprint(x) + " in " + opName(n) + ": JSON values are computed on the CPU"
				}
			})
		}
		if why != "" {
			return why
		}
	}
	return ""
}
