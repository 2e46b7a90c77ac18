package decimal

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ErrSyntax is returned for text that is not a decimal number.
var ErrSyntax = errors.New("not a decimal number")

// Format prints a at scale s with exactly s fraction digits (MySQL's text
// of a DECIMAL: 1234.50, -0.05, 0.000).
func Format(a Num, s int) string {
	digits := Big(a).String()
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if s > 0 {
		if len(digits) <= s {
			digits = strings.Repeat("0", s-len(digits)+1) + digits
		}
		cut := len(digits) - s
		digits = digits[:cut] + "." + digits[cut:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// Parse reads decimal text (an optional sign, digits, an optional point
// and fraction, an optional exponent: " -12.345e2 ") as an unscaled value
// at scale s. Extra fraction digits are rounded half away from zero and
// reported by rounded (MySQL's "Data truncated" note). An error means the
// text is no number or the value needs more than 255 bits.
func Parse(text string, s int) (n Num, rounded bool, err error) {
	v, exp, err := parseParts(strings.TrimSpace(text))
	if err != nil {
		return Num{}, false, err
	}
	// The value is v × 10^exp; bring it to scale s.
	// Digits and exponent are bounded (parseParts), so the power of ten
	// is at most 10^400.
	shift := exp + s
	switch {
	case shift >= 0:
		v.Mul(v, bigPow10(shift))
	default:
		p := bigPow10(-shift)
		q := divRoundBig(v, p)
		rounded = new(big.Int).Mul(q, p).Cmp(v) != 0
		v = q
	}
	n, ok := FromBig(v)
	if !ok {
		return Num{}, rounded, errOutOfRange
	}
	return n, rounded, nil
}

var errOutOfRange = errors.New("decimal value out of range")

// bigPow10 is 10^n for any n >= 0 (the table's up to 10^76).
func bigPow10(n int) *big.Int {
	if n < len(pow10) {
		return pow10[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// parseParts splits number text into an integer of all its digits and the
// power of ten that scales it.
func parseParts(t string) (*big.Int, int, error) {
	mant, exp := t, 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		e, err := strconv.Atoi(t[i+1:])
		if err != nil || i == 0 {
			return nil, 0, ErrSyntax
		}
		if e > 200 || e < -200 {
			return nil, 0, errOutOfRange
		}
		mant, exp = t[:i], e
	}
	neg := false
	if mant != "" && (mant[0] == '-' || mant[0] == '+') {
		neg, mant = mant[0] == '-', mant[1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return nil, 0, ErrSyntax
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	if len(digits) > 200 {
		return nil, 0, errOutOfRange
	}
	v := new(big.Int)
	if digits != "" {
		v.SetString(digits, 10)
	}
	if neg {
		v.Neg(v)
	}
	return v, exp - len(frac), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Float64 is a at scale s as the nearest double.
func Float64(a Num, s int) float64 {
	f, _ := strconv.ParseFloat(Format(a, s), 64)
	return f
}

// FromFloat64 is f at scale s, rounded half away from zero from f's
// shortest text that reads back to f (as MySQL converts
// a DOUBLE to DECIMAL); ok is false for NaN, infinities and values beyond
// 255 bits.
func FromFloat64(f float64, s int) (Num, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Num{}, false
	}
	n, _, err := Parse(strconv.FormatFloat(f, 'g', -1, 64), s)
	return n, err == nil
}

// Digits is the number of digits of a's integer part at scale s (0 for
// |a| < 1), for error messages and range checks.
func Digits(a Num, s int) int {
	v := Big(a)
	v.Abs(v)
	v.Quo(v, pow10[s])
	if v.Sign() == 0 {
		return 0
	}
	return len(v.String())
}
