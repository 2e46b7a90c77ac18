package planner

import (
	"fmt"

	"gpusql/sql"
)

// unsignedOnCPU names the first operator that carries or computes an
// unsigned integer. BIGINT UNSIGNED values are uint64 bit patterns in
// int64 slots, which every GPU kernel (filters, hash keys, group keys,
// sums, sorts) would read as signed, and unsigned arithmetic and the
// signed/unsigned comparison (ucompare) have no kernel. INT UNSIGNED
// values are exact as int64, but its arithmetic is unsigned (a - b below
// 0 is an error) and no GPU test covers it, so a plan touching either
// runs on the CPU, said in the plan.
func unsignedOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		for _, c := range n.Schema() {
			if c.Type.Unsigned {
				return fmt.Sprintf("%s column %s in %s: unsigned integers are computed on the CPU", c.Type, c.Name, opName(n))
			}
		}
		why := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if why == "" && x.Type().Unsigned {
					why = fmt.Sprintf("%s value %s in %s: unsigned integers are computed on the CPU", x.Type(), x, opName(n))
				}
			})
		}
		if why != "" {
			return why
		}
	}
	return ""
}
