package planner

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// divisionOnCPU names the first operator below the GPU's host tail that
// divides by a constant whose quotient MySQL cuts: a quotient carries the
// digits MySQL's decimal library computes (sql/division_digits.go: 9 for
// integers), cut toward zero, where the GPU's expression VM rounds the
// last one (x / 3: 0.333333333 and 0.666666667 where MySQL has
// 0.666666666, which x / 3 * 1000000 shows). A divisor that divides
// 10^digits (x / 2, x / 100, x / 0.25) gives an exact quotient, the same
// either way, and stays on the GPU; other divisors are refused already
// (warningOnCPU: the divisor may be 0). An AVG (sum / count at the same
// digits) stays on the GPU, which rounds its last digit where the CPU
// cuts it: the printed value, rounded to 5 digits fewer, differs only
// where those digits are 49999 and the next rounds them up.
func divisionOnCPU(p *Physical) string {
	return firstBelowTail(p, func(n Node, e sql.Expr) string {
		if x := cutQuotientRead(e, false); x != nil {
			return fmt.Sprintf("%s in %s: MySQL cuts the quotient after its %d digits, the GPU rounds it", x, opName(n), x.Type().Scale)
		}
		return ""
	})
}

// cutQuotientRead is the first cut quotient under e whose digits are read
// (computed with, compared, summed), nil if none: one rounded to fewer
// digits straight away (a column of the result, rounded to the digits
// MySQL prints; ROUND, FLOOR, CEIL, TRUNCATE) gives the same value from
// either last digit but where the digits between are all 4s or 9s.
func cutQuotientRead(e sql.Expr, rounded bool) sql.Expr {
	if !rounded && cutQuotient(e) {
		return e
	}
	f, isFunc := e.(*sql.Func)
	for i, c := range exprChildren(e) {
		r := isFunc && i == 0 && (f.Name == "round" || f.Name == "floor" || f.Name == "ceil" || f.Name == "truncate")
		if x := cutQuotientRead(c, r); x != nil {
			return x
		}
	}
	return nil
}

// cutQuotient reports a DECIMAL x / c whose constant divisor does not
// divide 10^k, k the digits the quotient is scaled up by.
func cutQuotient(x sql.Expr) bool {
	b, ok := x.(*sql.Binary)
	if !ok || b.Op != sql.OpDiv || b.T.ID != columnar.Decimal {
		return false
	}
	c, ok := b.R.(*sql.Const)
	if !ok || c.Null || c.T.IsWide() || c.T.ID == columnar.Float64 {
		return false // refused elsewhere, or computed on the CPU
	}
	k := b.T.Scale - b.L.Type().DecimalScale() + c.T.DecimalScale()
	if c.I == 0 || k < 0 || k >= len(columnar.Pow10) {
		return true
	}
	return columnar.Pow10[k]%c.I != 0
}
