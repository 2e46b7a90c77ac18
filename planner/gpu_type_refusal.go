package planner

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// typeOnCPU names the first operator that carries or computes a value of a
// type the GPU executor does not hold, so that such a plan runs on the CPU,
// said in the plan rather than discovered by the GPU executor halfway
// through. Why each type stays off the GPU:
//
//   - VECTOR: n float32 per row; the column cache and the expression
//     compiler hold fixed-width scalars only.
//   - JSON: dictionary-encoded text like VARCHAR, but every JSON function
//     parses documents row by row (exec/cpu/rowfunc_json.go), with no
//     kernel; splitting a plan between a GPU moving codes and a CPU
//     computing on them buys nothing.
//   - unsigned integers: BIGINT UNSIGNED values are uint64 bit patterns in
//     int64 slots that every kernel would read as signed, and unsigned
//     arithmetic and comparison have no kernel; INT UNSIGNED is exact as
//     int64 but its arithmetic is unsigned and no GPU test covers it.
//   - TIME, YEAR: stored as integers the kernels could move, but their
//     conversions live in the CPU executor and no GPU test covers them.
//   - wide DECIMAL (more than 18 digits): 256-bit words per value; the
//     kernels compute decimals as scaled int64 only.
//   - ENUM, SET: dictionary-encoded text the kernels could move, but their
//     index and bitmask (ORDER BY, numeric contexts) are computed from the
//     text with FIELD / FIND_IN_SET, and no GPU test covers them.
//   - a DOUBLE of fixed decimals (PI() and arithmetic on it, printed with
//     6 decimals: sql/double_decimals.go): the kernels compute plain
//     doubles and no GPU test checks that the result keeps its decimals.
func typeOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		for _, c := range n.Schema() {
			if label, why := cpuOnlyType(c.Type); why != "" {
				return fmt.Sprintf("%s column %s in %s: %s", label, c.Name, opName(n), why)
			}
		}
		reason := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if label, why := cpuOnlyType(x.Type()); reason == "" && why != "" {
					reason = fmt.Sprintf("%s value %s in %s: %s", label, x, opName(n), why)
				}
			})
		}
		if reason != "" {
			return reason
		}
	}
	return ""
}

// cpuOnlyType names t and says why the CPU computes its values; why is ""
// for the types the GPU holds.
func cpuOnlyType(t columnar.Type) (label, why string) {
	switch {
	case t.ID == columnar.Vector:
		return "VECTOR", "VECTOR values are computed on the CPU"
	case t.IsWide():
		return t.String(), "DECIMAL of more than 18 digits is computed on the CPU"
	case t.JSON:
		return "JSON", "JSON values are computed on the CPU"
	case t.Unsigned:
		return t.String(), "unsigned integers are computed on the CPU"
	case t.ID == columnar.Time:
		return "TIME", "TIME values are computed on the CPU"
	case t.Year:
		return "YEAR", "YEAR values are computed on the CPU"
	case t.Members != "" && t.Set:
		return "SET", "SET values are computed on the CPU"
	case t.Members != "":
		return "ENUM", "ENUM values are computed on the CPU"
	case t.ID == columnar.Float64 && t.Scale > 0:
		return fmt.Sprintf("DOUBLE of %d decimals", t.Scale), "DOUBLE values of fixed decimals are computed on the CPU"
	}
	return "", ""
}
