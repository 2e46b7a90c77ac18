// Package decimal is the arithmetic of wide exact decimals: MySQL's
// DECIMAL(M,D) with 19 <= M <= 65 digits and D <= 30 fraction digits,
// whose values do not fit the scaled int64 of a narrow DECIMAL.
//
// A value is an unscaled integer (1234.50 at scale 2 is 123450) held in
// Arrow's decimal256.Num: four 64-bit words, two's complement, 32 bytes a
// row. Fixed width keeps columns flat (no pointer per value, no per-value
// allocation), lets Arrow decimal256 arrays share the layout, and holds
// 10^65 with room to spare (2^255 > 5.7×10^76), so a sum of 65-digit values
// can be checked for overflow after the fact. Addition, subtraction and
// comparison work on the words; multiplication, division, parsing and
// printing go through math/big, exact and rare enough per row.
//
// Rounding is MySQL's: half away from zero (ROUND(2.5) = 3, ROUND(-2.5) = -3).
package decimal

import (
	"math/big"
	"math/bits"

	"github.com/apache/arrow/go/v15/arrow/decimal256"
)

// Num is one unscaled wide decimal value.
type Num = decimal256.Num

const (
	// MaxPrecision is the most digits a DECIMAL holds (MySQL's 65).
	MaxPrecision = 65
	// MaxScale is the most fraction digits a DECIMAL holds (MySQL's 30).
	MaxScale = 30
	// NarrowPrecision is the most digits a scaled int64 holds: a DECIMAL
	// of more digits is wide.
	NarrowPrecision = 18
	// CarryPrecision is the most digits a Num holds (Arrow decimal256's
	// 76): no DECIMAL column declares it, but a value stored into a
	// column travels to the store in it, so that one past 65 digits
	// (1e70) reaches the column's range check (1264) instead of failing
	// the cast.
	CarryPrecision = 76
)

// pow10 holds 10^0 .. 10^76 as big integers.
var pow10 = func() []*big.Int {
	p := make([]*big.Int, 77)
	p[0] = big.NewInt(1)
	ten := big.NewInt(10)
	for i := 1; i < len(p); i++ {
		p[i] = new(big.Int).Mul(p[i-1], ten)
	}
	return p
}()

// Pow10 is 10^n as a big integer (0 <= n <= 76); callers must not modify it.
func Pow10(n int) *big.Int { return pow10[n] }

// FromInt64 is v at scale 0.
func FromInt64(v int64) Num { return decimal256.FromI64(v) }

// FromUint64 is v at scale 0.
func FromUint64(v uint64) Num { return decimal256.FromU64(v) }

// Add is a + b; it cannot overflow for operands below 10^76.
func Add(a, b Num) Num { return a.Add(b) }

// Sub is a - b.
func Sub(a, b Num) Num { return a.Sub(b) }

// Neg is -a.
func Neg(a Num) Num { return a.Negate() }

// Cmp compares a and b: -1, 0 or +1 (same scale assumed).
func Cmp(a, b Num) int {
	x, y := a.Array(), b.Array()
	if sx, sy := int64(x[3]) < 0, int64(y[3]) < 0; sx != sy {
		if sx {
			return -1
		}
		return 1
	}
	for i := 3; i >= 0; i-- {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Sign is -1, 0 or +1.
func Sign(a Num) int { return a.Sign() }

// Big is a as a big integer.
func Big(a Num) *big.Int { return a.BigInt() }

// FromBig is v as a Num; ok is false when v needs more than 255 bits.
func FromBig(v *big.Int) (Num, bool) {
	if v.BitLen() > 255 {
		return Num{}, false
	}
	return decimal256.FromBigInt(v), true
}

// Fits reports whether a has at most prec digits.
func Fits(a Num, prec int) bool {
	if prec >= 76 {
		return true
	}
	return Big(a).CmpAbs(pow10[prec]) < 0
}

// Int64 is a as an int64; ok is false when it does not fit.
func Int64(a Num) (int64, bool) {
	w := a.Array()
	lo := int64(w[0])
	ext := uint64(lo >> 63) // sign extension of the low word
	return lo, w[1] == ext && w[2] == ext && w[3] == ext
}

// Uint64 is a as a uint64; ok is false when a is negative or too big.
func Uint64(a Num) (uint64, bool) {
	w := a.Array()
	return w[0], w[1] == 0 && w[2] == 0 && w[3] == 0
}

// divRoundBig is a / b rounded half away from zero (b != 0).
func divRoundBig(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Sign() == 0 {
		return q
	}
	r2 := new(big.Int).Abs(r)
	r2.Lsh(r2, 1)
	if r2.CmpAbs(b) >= 0 {
		if (a.Sign() < 0) != (b.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// Rescale changes a's scale from `from` to `to`, rounding half away from
// zero when digits are dropped. ok is false when the result needs more than
// 255 bits (scales are at most 30, so only for absurd inputs).
func Rescale(a Num, from, to int) (Num, bool) {
	switch {
	case from == to:
		return a, true
	case to > from:
		return FromBig(new(big.Int).Mul(Big(a), pow10[to-from]))
	}
	return FromBig(divRoundBig(Big(a), pow10[from-to]))
}

// Truncate drops fraction digits from scale `from` to `to` (< from)
// toward zero, as TRUNCATE does.
func Truncate(a Num, from, to int) Num {
	if to >= from {
		n, _ := Rescale(a, from, to)
		return n
	}
	q := new(big.Int).Quo(Big(a), pow10[from-to])
	n, _ := FromBig(q)
	return n
}

// Floor and Ceil round a at scale s to an integer (scale 0).
func Floor(a Num, s int) Num { return roundToward(a, s, -1) }

// Ceil: see Floor.
func Ceil(a Num, s int) Num { return roundToward(a, s, 1) }

func roundToward(a Num, s, dir int) Num {
	if s == 0 {
		return a
	}
	q, r := new(big.Int).QuoRem(Big(a), pow10[s], new(big.Int))
	if r.Sign() != 0 && r.Sign() == dir {
		q.Add(q, big.NewInt(int64(dir)))
	}
	n, _ := FromBig(q)
	return n
}

// Mul is a×b, the unscaled product (its scale is the sum of the operands'
// scales); ok is false beyond 255 bits.
func Mul(a, b Num) (Num, bool) {
	// Fast path: both fit in 64 bits, the product in 128.
	if x, ok := Int64(a); ok {
		if y, ok := Int64(b); ok {
			return mul64(x, y), true
		}
	}
	return FromBig(new(big.Int).Mul(Big(a), Big(b)))
}

func mul64(x, y int64) Num {
	neg := (x < 0) != (y < 0)
	hi, lo := bits.Mul64(uabs(x), uabs(y))
	n := decimal256.New(0, 0, hi, lo)
	if neg {
		n = n.Negate()
	}
	return n
}

func uabs(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// Div is a/b for values of scales sa and sb as a value of scale st,
// rounded half away from zero: a×10^(st-sa+sb)/b. ok is false when b is
// zero or the quotient exceeds 255 bits.
func Div(a, b Num, sa, sb, st int) (Num, bool) {
	num, den, ok := divOperands(a, b, sa, sb, st)
	if !ok {
		return Num{}, false
	}
	return FromBig(divRoundBig(num, den))
}

// DivTrunc is Div cut toward zero at st digits, as MySQL's decimal
// division computes a quotient.
func DivTrunc(a, b Num, sa, sb, st int) (Num, bool) {
	num, den, ok := divOperands(a, b, sa, sb, st)
	if !ok {
		return Num{}, false
	}
	return FromBig(num.Quo(num, den))
}

// divOperands are a and b scaled so that num/den is a/b at scale st
// (ok false when b is zero).
func divOperands(a, b Num, sa, sb, st int) (num, den *big.Int, ok bool) {
	if b.Sign() == 0 {
		return nil, nil, false
	}
	num, den = Big(a), Big(b)
	if e := st - sa + sb; e >= 0 {
		num.Mul(num, pow10[e])
	} else {
		den.Mul(den, pow10[-e])
	}
	return num, den, true
}

// IntDiv is the integer part of a/b for scales sa and sb (DIV), truncated
// toward zero; ok is false when b is zero or the result exceeds 255 bits.
func IntDiv(a, b Num, sa, sb int) (Num, bool) {
	if b.Sign() == 0 {
		return Num{}, false
	}
	num, den := Big(a), Big(b)
	if sb >= sa {
		num.Mul(num, pow10[sb-sa])
	} else {
		den.Mul(den, pow10[sa-sb])
	}
	return FromBig(num.Quo(num, den))
}

// Mod is a % b for values already at one scale: the remainder takes a's
// sign (MySQL); ok is false when b is zero.
func Mod(a, b Num) (Num, bool) {
	if b.Sign() == 0 {
		return Num{}, false
	}
	r := new(big.Int).Rem(Big(a), Big(b))
	return FromBig(r)
}

// New is the value of the four words hi..lo (most significant first).
func New(w3, w2, w1, w0 uint64) Num { return decimal256.New(w3, w2, w1, w0) }
