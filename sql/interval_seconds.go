package sql

import "gpusql/storage/columnar"

// fractionalSeconds is INTERVAL k SECOND of a k with a fraction (a
// DECIMAL with decimals, a DOUBLE) in microseconds, and the fraction
// digits of the result (-1, k unchanged, for an integer k). MySQL reads
// such a k as seconds and microseconds (get_interval_value), where any
// other unit rounds k to an integer: DATE_ADD('2024-01-01', INTERVAL 1.5
// SECOND) is 2024-01-01 00:00:01.5 (the DECIMAL's one digit; a DOUBLE's
// six), while INTERVAL 1.5 DAY is 2 days. k * 10^6 is computed as a
// DOUBLE and rounded: exact for up to six decimals (4.35 * 10^6 is
// 4349999.999999999 as a double, which a cut would make 4349999); MySQL
// cuts a seventh digit off where this rounds it.
func fractionalSeconds(k Expr) (Expr, int) {
	t := k.Type()
	fsp := -1
	switch {
	case t.ID == columnar.Float64:
		fsp = columnar.MaxFsp
	case t.ID == columnar.Decimal && t.Scale > 0:
		fsp = min(t.Scale, columnar.MaxFsp)
	default:
		return k, -1
	}
	return &Binary{Op: OpMul, L: castTo(k, columnar.TFloat64), R: &Const{T: columnar.TFloat64, F: 1e6}, T: columnar.TFloat64}, fsp
}
