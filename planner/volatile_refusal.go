package planner

import (
	"fmt"

	"gpusql/sql"
)

// volatileOnCPU names the first operator that calls a function whose value
// differs per call (RAND, UUID, UUID_SHORT, RANDOM_BYTES: sql.VolatileFuncs), so that
// the plan runs on the CPU. The GPU executor evaluates a subexpression
// over one dictionary-encoded string column once per dictionary entry
// (exec/gpu/expr_compile_lookup.go): concat(s, uuid()) would give every
// row with the same s the same UUID. The CPU executor calls the function
// per row.
func volatileOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		reason := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if f, ok := x.(*sql.Func); ok && reason == "" && sql.VolatileFuncs[f.Name] {
					why := "a new value per row is computed on the CPU"
					if sql.LockFuncs[f.Name] {
						why = "user-level locks are taken on the CPU, row by row"
					}
					if f.Name == sql.UserVarSet || f.Name == sql.UserVarGet {
						why = "user variables are assigned and read on the CPU, row by row in order"
					}
					reason = fmt.Sprintf("%s() in %s: %s", f.Name, opName(n), why)
				}
			})
		}
		if reason != "" {
			return reason
		}
	}
	return ""
}

// CallsVolatile reports whether the plan calls a function whose value or
// effect differs per call (RAND, UUID, GET_LOCK, @x := ...): exec/cpu then
// never runs an input twice (to spill), which would call it again.
func CallsVolatile(p *Physical) bool { return volatileOnCPU(p) != "" }

// AssignsUserVariables reports whether the plan reads or assigns user
// variables row by row (SELECT @n := @n + 1 ...): exec/cpu then runs it on
// one worker, rows in order.
func AssignsUserVariables(p *Physical) bool {
	found := false
	for _, n := range p.Nodes() {
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if f, ok := x.(*sql.Func); ok && (f.Name == sql.UserVarSet || f.Name == sql.UserVarGet) {
					found = true
				}
			})
		}
	}
	return found
}
