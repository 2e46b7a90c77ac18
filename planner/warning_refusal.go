package planner

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// warningOnCPU names the first operator that computes a value which may
// note one of MySQL's warnings (sql/warnings.go), so that the plan runs
// on the CPU, whose evaluators note one a row. The GPU kernels give the
// same values without noting anything, so a plan with:
//
//   - a string read as a number (CAST(s AS SIGNED), s + 1, s = 1, and a
//     literal read only in part, '1abc' + 1: 1292) or as a date or time
//     (CAST(s AS DATE): NULL and 1292 when it is none), and a number read
//     as a date (MONTH(20240506); MONTH(3) is NULL and 1292),
//   - a division, DIV or % whose divisor is not a constant other than 0
//     (1365; a / 2 stays on the GPU, a / b does not),
//   - STR_TO_DATE (1411),
//   - CAST(x AS DECIMAL(M,D)) of an x that may need more than M-D integer
//     digits (clipped to the type's largest value, 1264),
//
// stays on the CPU, where SHOW WARNINGS and @@warning_count count what
// MySQL counts. Operators above the GPU's part (a ratio of two sums over
// the groups, a HAVING) do not count: the GPU executor hands them to the
// CPU executor (exec/gpu/host_tail.go), which notes the warnings.
func warningOnCPU(p *Physical) string {
	return firstBelowTail(p, func(n Node, e sql.Expr) string {
		reason := ""
		walkExpr(e, func(x sql.Expr) {
			if why := mayWarn(x); reason == "" && why != "" {
				reason = fmt.Sprintf("%s in %s: %s", x, opName(n), why)
			}
		})
		return reason
	})
}

// firstBelowTail is the first reason why gives for an expression of an
// operator below the GPU's host tail ("" when none): the operators the
// GPU would compute, the tail going to the CPU executor anyway.
func firstBelowTail(p *Physical, why func(n Node, e sql.Expr) string) string {
	onHost := map[Node]bool{}
	tail, _ := gpuSplit(p.Root)
	for _, n := range tail {
		onHost[n] = true
	}
	for _, n := range p.Nodes() {
		if onHost[n] {
			continue
		}
		for _, e := range nodeExprs(n) {
			if reason := why(n, e); reason != "" {
				return reason
			}
		}
	}
	return ""
}

// mayWarn says why x may note a warning ("" when it cannot).
func mayWarn(x sql.Expr) string {
	const noted = "the warnings MySQL notes are counted on the CPU"
	switch x := x.(type) {
	case *sql.Cast:
		if x.E.Type().ID == columnar.String && numberType(x.T) {
			return "a string read as a number may be truncated (warning 1292); " + noted
		}
		if x.E.Type().ID == columnar.String && (x.T.ID == columnar.Date || x.T.ID == columnar.Datetime || x.T.ID == columnar.Time) {
			return "a string that is no date or time is NULL with warning 1292; " + noted
		}
		if x.E.Type().IsNumeric() && (x.T.ID == columnar.Date || x.T.ID == columnar.Datetime) {
			return "a number that is no date (MONTH(3)) is NULL with warning 1292; " + noted
		}
	case *sql.Binary:
		switch x.Op {
		case sql.OpDiv, sql.OpIntDiv, sql.OpMod:
			if c, ok := x.R.(*sql.Const); !ok || c.Null || (c.I == 0 && c.F == 0) {
				return "the divisor may be 0 (warning 1365); " + noted
			}
		case sql.OpEQ, sql.OpNE, sql.OpLT, sql.OpLE, sql.OpGT, sql.OpGE:
			lt, rt := x.L.Type(), x.R.Type()
			if lt.ID == columnar.String && numberType(rt) || rt.ID == columnar.String && numberType(lt) {
				return "a string compared with a number is read as one (warning 1292); " + noted
			}
		}
	case *sql.Func:
		if x.Name == "str_to_date" {
			return "an invalid date notes warning 1411; " + noted
		}
		if x.Name == sql.CastChar {
			return "a value cut to CHAR(n) or BINARY(n) notes warning 1292; " + noted
		}
		if x.Name == sql.DecimalClip {
			return "a value past the DECIMAL's digits is clipped to its largest with warning 1264; " + noted
		}
	}
	return ""
}

func numberType(t columnar.Type) bool {
	return !t.Year && (t.IsInteger() || t.ID == columnar.Float64 || t.ID == columnar.Decimal || t.ID == columnar.Bool)
}

// MayWarn reports whether evaluating e may note one of MySQL's warnings
// (mayWarn of any part of it): the CPU executor computes a select list
// of two or more such expressions one row at a time, so that the
// warnings come row by row as MySQL's do.
func MayWarn(e sql.Expr) bool {
	found := false
	walkExpr(e, func(x sql.Expr) { found = found || mayWarn(x) != "" })
	return found
}
