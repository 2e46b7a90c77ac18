package columnar

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FLOAT and fixed-point DOUBLE columns ("Floating-Point Types", "Problems
// with Floating-Point Values"). A FLOAT column (Type.Single) holds single
// precision values: 1.1 is stored as the float32 nearest it, so f * 2 is
// 2.200000047683716 and f = 1.1 is false, as in MySQL, while f prints as
// 1.1 (the shortest digits that read back to the float32). FLOAT(M,D) and
// DOUBLE(M,D) (Scale D, Precision M) round a stored value to D decimals
// and print it with D: 999.00009 in a FLOAT(7,4) is 999.0001. Values stay
// float64 in memory, on disk and on the GPU; only stores round them.

// TFloat is a FLOAT column's type: single precision, and with m > 0 the
// fixed-point FLOAT(m,d).
func TFloat(m, d int) Type {
	t := Type{ID: Float64, Single: true}
	if m > 0 {
		t.Precision, t.Scale = m, d
	}
	return t
}

// TDoubleFixed is DOUBLE(m,d).
func TDoubleFixed(m, d int) Type { return Type{ID: Float64, Precision: m, Scale: d} }

// RoundsStore reports a Float64 type whose stores round (StoreFloat).
func (t Type) RoundsStore() bool { return t.ID == Float64 && (t.Single || t.Precision > 0) }

// StoreFloat is v as a column of type t keeps it: rounded to Scale
// decimals for FLOAT(M,D) / DOUBLE(M,D), then to single precision for FLOAT.
func (t Type) StoreFloat(v float64) float64 {
	if t.Precision > 0 && t.Scale >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
		p := math.Pow10(t.Scale)
		if r := math.Round(v*p) / p; !math.IsInf(r, 0) {
			v = r
		}
	}
	if t.Single {
		v = float64(float32(v))
	}
	return v
}

// RoundStoredFloats applies StoreFloat to rows [from, c.Len) of c.
func RoundStoredFloats(c *Column, from int) {
	if !c.Type.RoundsStore() {
		return
	}
	for i := from; i < c.Len && i < len(c.F64); i++ {
		c.F64[i] = c.Type.StoreFloat(c.F64[i])
	}
}

// floatName is the SQL name of a Float64 column type.
func (t Type) floatName() string {
	name := "DOUBLE"
	if t.Single {
		name = "FLOAT"
	}
	if t.Precision > 0 {
		return fmt.Sprintf("%s(%d,%d)", name, t.Precision, t.Scale)
	}
	return name
}

// FormatFloat32 prints a FLOAT value as MySQL does (Field_float::val_str,
// my_gcvt with MY_GCVT_ARG_FLOAT): rounded to FLT_DIG (6) significant
// digits, trailing zeros dropped, so 1/3 is 0.333333 and 123456789 is
// 123457000; plain for ordinary magnitudes and with an exponent without
// '+' beyond them (3.40282e38).
func FormatFloat32(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return formatShortest(f, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'e', 5, 64), 64)
	return formatShortest(r, 64)
}

// FormatDouble prints a DOUBLE as MySQL does: the shortest digits that
// read back to f, plain for ordinary magnitudes and with an exponent
// without '+' beyond them (1e20, 1.5e-7).
func FormatDouble(f float64) string { return formatShortest(f, 64) }

func formatShortest(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0" // MySQL's my_gcvt keeps the sign: ROUND(-0.4e0) is -0
	case f == 0:
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e-6 && a < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, bits)
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, bits), "e")
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}
