package planner

import (
	"fmt"

	"gpusql/sql"
)

// collationOnCPU names the first operator that computes a value of an
// explicit case-insensitive collation (sql.CollationFuncs: COLLATE, its
// sort keys and LIKE folding), so that the plan runs on the CPU: the GPU
// executor would evaluate collation_key over a dictionary column once per
// entry, which is right, but its string results have no dictionary to
// compare, join or sort by there, and no GPU test covers them.
func collationOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		if why := setOpCollation(n); why != "" {
			return why
		}
		reason := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if f, ok := x.(*sql.Func); ok && reason == "" && sql.CollationFuncs[f.Name] {
					reason = fmt.Sprintf("%s() in %s: values of a case-insensitive collation are compared on the CPU", f.Name, opName(n))
				}
			})
		}
		if reason != "" {
			return reason
		}
	}
	return ""
}

// setOpCollation names an INTERSECT or EXCEPT whose rows compare by a
// case-insensitive collation: the CPU executor compares them by its keys,
// the GPU's set operations compare dictionary codes.
func setOpCollation(n Node) string {
	op, ok := n.(*SetOp)
	if !ok || op.Kind == sql.SetUnion {
		return ""
	}
	for _, c := range op.Out {
		if c.Collation != "" {
			return fmt.Sprintf("%s compares column '%s' by collation %s: on the CPU", opName(n), c.Name, c.Collation)
		}
	}
	return ""
}
