package sql

import (
	"math/big"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// An integer column stores text by MySQL's my_strntoull10rnd, which reads
// [sign] digits [. digits] [e [sign] digits] and rounds half away from
// zero, without a warning: '2.5' into INT is 3, '1e3' 1000, '1.5e1' 15
// (Field_num::get_int and check_int note only text that is no number,
// 1366, or has more after it, 1265). CAST(x AS SIGNED) reads differently
// (the leading digits only), so this is for stores.

// integerStoreText is c as the integer text an integer column t stores
// for it, when c is such text with a fraction or an exponent; otherwise c.
func integerStoreText(c *Const, t columnar.Type) *Const {
	if c.Null || c.hex || c.T.ID != columnar.String || t.Year || t.Bit > 0 ||
		t.ID != columnar.Int32 && t.ID != columnar.Int64 || integerText(strings.TrimSpace(c.S)) {
		return c
	}
	if s, ok := roundedIntText(c.S); ok {
		return &Const{T: c.T, S: s}
	}
	return c
}

// roundedIntText is s, a number with a fraction or an exponent, rounded
// half away from zero to an integer's digits; ok is false for other text.
func roundedIntText(s string) (string, bool) {
	s = strings.Trim(s, " \t")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 100 || e < -100 {
			return "", false
		}
		mant, exp = s[:i], e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := whole + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" || len(s) > 0 && s[0] != '.' && (s[0] < '0' || s[0] > '9') {
		return "", false
	}
	point := len(whole) + exp // the decimal point's place in digits
	up := false
	switch {
	case point <= 0:
		up = point == 0 && digits[0] >= '5'
		whole = "0"
	case point >= len(digits):
		whole = digits + strings.Repeat("0", point-len(digits))
	default:
		whole, up = digits[:point], digits[point] >= '5'
	}
	n, _ := new(big.Int).SetString(whole, 10)
	if up {
		n.Add(n, big.NewInt(1))
	}
	if neg {
		n.Neg(n)
	}
	return n.String(), true
}
