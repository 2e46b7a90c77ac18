package cpu

import (
	"math"
	"math/big"
	"math/bits"

	"gpusql/storage/columnar"
)

// pow10 returns 10^n for 0 <= n <= 18.
func pow10(n int) int64 {
	if n < 0 || n >= len(columnar.Pow10) {
		return math.MaxInt64
	}
	return columnar.Pow10[n]
}

// rescale changes a decimal's scale, rounding half away from zero when
// digits are dropped.
func rescale(v int64, from, to int) int64 {
	switch {
	case to == from:
		return v
	case to > from:
		return v * pow10(to-from)
	}
	return divRound(v, pow10(from-to))
}

// divRound is a/b rounded half away from zero (b > 0 or < 0, not 0).
func divRound(a, b int64) int64 {
	q, r := a/b, a%b
	if r < 0 {
		r = -r
	}
	bb := b
	if bb < 0 {
		bb = -bb
	}
	if 2*uint64(r) >= uint64(bb) {
		if (a < 0) != (b < 0) {
			q--
		} else {
			q++
		}
	}
	return q
}

// mulDivRound computes a×m/d rounded half away from zero with a 128-bit
// intermediate product; ok is false on overflow or d = 0.
func mulDivRound(a, m, d int64) (int64, bool) { return mulDiv(a, m, d, true) }

// mulDivTrunc is mulDivRound truncated toward zero.
func mulDivTrunc(a, m, d int64) (int64, bool) { return mulDiv(a, m, d, false) }

func mulDiv(a, m, d int64, round bool) (int64, bool) {
	if d == 0 {
		return 0, false
	}
	neg := (a < 0) != (m < 0) != (d < 0)
	ua, um, ud := uabs(a), uabs(m), uabs(d)
	hi, lo := bits.Mul64(ua, um)
	if hi >= ud {
		return 0, false
	}
	q, r := bits.Div64(hi, lo, ud)
	if round && r >= ud-r {
		q++
	}
	if q > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(q), true
	}
	return int64(q), true
}

func uabs(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// decimalDiv is a/b for decimals of scales sa and sb, as a decimal of scale
// st: a×10^(st-sa+sb)/b, cut toward zero as MySQL's long division stops
// at the digits it computes (sql/division_digits.go: st is those digits).
func decimalDiv(a, b int64, sa, sb, st int) (int64, bool) {
	e := st - sa + sb
	switch {
	case e > 18:
		// 7 / 3.00000000000: 18 digits over a divisor of 11, past the
		// int64's powers of ten.
		if b == 0 {
			return 0, false
		}
		num := new(big.Int).Mul(big.NewInt(a), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
		q := num.Quo(num, big.NewInt(b))
		return q.Int64(), q.IsInt64()
	case e >= 0:
		return mulDivTrunc(a, pow10(e), b)
	case -e > 18:
		return 0, b != 0 // |a| < 10^19 over |b| * 10^19 and more
	}
	return mulDivTrunc(a, 1, b*pow10(-e))
}
