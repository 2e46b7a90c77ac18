package columnar

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
)

// Conversion of Arrow arrays (as decoded from Parquet) into column builders.

// parquetConvertible reports whether appendArrow converts arrays of dt into
// a column of type t.
func parquetConvertible(dt arrow.DataType, t Type) bool {
	switch t.ID {
	case Int32, Int64:
		return isArrowInt(dt)
	case Float64:
		return isArrowInt(dt) || dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT64
	case Decimal:
		return isArrowInt(dt) || dt.ID() == arrow.DECIMAL128 || t.IsWide() && dt.ID() == arrow.DECIMAL256
	case Date:
		return dt.ID() == arrow.DATE32 || dt.ID() == arrow.DATE64
	case Datetime:
		return dt.ID() == arrow.TIMESTAMP || dt.ID() == arrow.DATE32 || dt.ID() == arrow.DATE64
	case Time:
		return dt.ID() == arrow.TIME32 || dt.ID() == arrow.TIME64
	case Bool:
		return dt.ID() == arrow.BOOL
	case Vector:
		// Lists of floats, or strings in the text form (what EXPORT
		// DATABASE and other engines' dumps write).
		return isArrowFloatList(dt) || dt.ID() == arrow.STRING || dt.ID() == arrow.LARGE_STRING
	case String:
		if d, ok := dt.(*arrow.DictionaryType); ok {
			dt = d.ValueType
		}
		switch dt.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
			return true
		}
	}
	return false
}

func isArrowInt(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return true
	}
	return false
}

// appendArrow appends arr to b. On a value that does not fit it returns the
// row's index in arr and why; b is then left partly appended (the load is
// abandoned).
func appendArrow(b *Builder, arr arrow.Array) (int, error) {
	n := arr.Len()
	b.Reserve(n)
	start := b.n
	var bad int
	var err error
	switch b.typ.ID {
	case Int32, Int64, Decimal:
		if b.typ.IsWide() {
			bad, err = appendArrowWide(b, arr)
			break
		}
		if b.typ.Unsigned {
			bad, err = appendArrowUnsigned(b, arr)
			break
		}
		bad, err = appendArrowInts(b, arr)
	case Float64:
		dst := b.f64[start : start+n]
		switch a := arr.(type) {
		case *array.Float64:
			copy(dst, a.Float64Values())
		case *array.Float32:
			for i, v := range a.Float32Values() {
				dst[i] = float64(v)
			}
		default:
			bad, err = appendArrowInts(b, arr)
		}
	case Date:
		dst := b.i32[start : start+n]
		switch a := arr.(type) {
		case *array.Date32:
			for i, v := range a.Date32Values() {
				dst[i] = int32(v)
			}
		case *array.Date64:
			for i, v := range a.Date64Values() {
				ms := int64(v)
				d := ms / 86400000
				if ms%86400000 < 0 {
					d--
				}
				dst[i] = int32(d)
			}
		}
	case Datetime:
		bad, err = appendArrowDatetimes(b, arr)
	case Time:
		bad, err = appendArrowTimes(b, arr)
	case Bool:
		a := arr.(*array.Boolean)
		dst := b.i32[start : start+n]
		for i := range dst {
			dst[i] = 0
			if a.Value(i) {
				dst[i] = 1
			}
		}
	case String:
		bad, err = appendArrowStrings(b, arr)
	case Vector:
		bad, err = appendArrowVectors(b, arr)
	default:
		err = errors.New("unsupported column type " + b.typ.String())
	}
	if err != nil {
		return bad, err
	}
	if nulls := arr.NullN(); nulls > 0 {
		b.ensureValid()
		for i := 0; i < n; i++ {
			if arr.IsNull(i) {
				r := start + i
				b.valid[r>>6] &^= 1 << (uint(r) & 63)
			}
		}
		b.nulls += nulls
	}
	b.n = start + n
	return 0, nil
}

// appendArrowInts converts an integer array (and, for DECIMAL, a decimal128
// array) into b's physical domain with range checks. It writes rows
// [b.n, b.n+arr.Len()) without advancing b.n.
func appendArrowInts(b *Builder, arr arrow.Array) (int, error) {
	start, t := b.n, b.typ
	scale := int64(1)
	maxAbs := int64(math.MaxInt64)
	if t.ID == Decimal {
		scale = Pow10[t.Scale]
		if t.Precision > 0 && t.Precision <= 18 {
			maxAbs = Pow10[t.Precision] - 1
		}
	}
	// put stores v (an integer in the column's unit, not yet scaled).
	put := func(i int, v int64, text func() string) error {
		if t.ID == Decimal {
			if v > maxAbs/scale || v < -maxAbs/scale {
				return fmt.Errorf("%s is out of range for %s", text(), t)
			}
			v *= scale
		}
		if t.Year { // a number, by MySQL's numeric YEAR rule (0 is 0000)
			y, ok := YearFromNumber(v)
			if !ok {
				return fmt.Errorf("%s is out of range for YEAR (1901 to 2155, or 0)", text())
			}
			v = int64(y)
		}
		switch t.Physical() {
		case PhysInt32:
			lo, hi, ok := t.IntBounds()
			if !ok {
				lo, hi = math.MinInt32, math.MaxInt32
			}
			if v < lo || v > hi {
				return fmt.Errorf("%s is out of range for %s", text(), t)
			}
			b.i32[start+i] = int32(v)
		case PhysInt64:
			b.i64[start+i] = v
		case PhysFloat64:
			b.f64[start+i] = float64(v)
		}
		return nil
	}
	signed := func(vals []int64) (int, error) {
		if arr.NullN() > 0 {
			for i := range vals {
				if arr.IsNull(i) {
					vals[i] = 0 // whatever a NULL slot holds must not fail a check
				}
			}
		}
		for i, v := range vals {
			if err := put(i, v, func() string { return strconv.FormatInt(v, 10) }); err != nil {
				return i, err
			}
		}
		return 0, nil
	}
	// Fast paths: same width, no check (TINYINT to MEDIUMINT check each
	// value, and YEAR maps each by MySQL's numeric rule: 99 is 1999, 99999
	// is out of range).
	switch a := arr.(type) {
	case *array.Int32:
		if t.Physical() == PhysInt32 && !t.IsNarrowInt() && !t.Year {
			copy(b.i32[start:], a.Int32Values())
			return 0, nil
		}
	case *array.Int64:
		if t.Physical() == PhysInt64 && t.ID != Decimal {
			copy(b.i64[start:], a.Int64Values())
			return 0, nil
		}
	case *array.Decimal128:
		return appendDecimal128(b, a)
	}
	n := arr.Len()
	vals := make([]int64, n)
	switch a := arr.(type) {
	case *array.Int8:
		for i, v := range a.Int8Values() {
			vals[i] = int64(v)
		}
	case *array.Int16:
		for i, v := range a.Int16Values() {
			vals[i] = int64(v)
		}
	case *array.Int32:
		for i, v := range a.Int32Values() {
			vals[i] = int64(v)
		}
	case *array.Int64:
		copy(vals, a.Int64Values())
	case *array.Uint8:
		for i, v := range a.Uint8Values() {
			vals[i] = int64(v)
		}
	case *array.Uint16:
		for i, v := range a.Uint16Values() {
			vals[i] = int64(v)
		}
	case *array.Uint32:
		for i, v := range a.Uint32Values() {
			vals[i] = int64(v)
		}
	case *array.Uint64:
		for i, v := range a.Uint64Values() {
			if v > math.MaxInt64 && arr.IsValid(i) {
				return i, fmt.Errorf("%d is out of range for %s", v, t)
			}
			vals[i] = int64(v)
		}
	default:
		return 0, fmt.Errorf("cannot load %s into %s", arr.DataType(), t)
	}
	return signed(vals)
}

// appendDecimal128 rescales decimal128 values to b's scale (rounding half
// away from zero) and checks them against its precision.
func appendDecimal128(b *Builder, a *array.Decimal128) (int, error) {
	t := b.typ
	from, to := a.DataType().(*arrow.Decimal128Type).Scale, int32(t.Scale)
	prec := int32(t.Precision)
	if prec <= 0 || prec > 18 {
		prec = 18
	}
	maxAbs := Pow10[prec] - 1
	dst := b.i64[b.n : b.n+a.Len()]
	for i := range dst {
		dst[i] = 0
		if a.IsNull(i) {
			continue
		}
		v, ok := rescaleDecimal128(a.Value(i), from, to, maxAbs)
		if !ok {
			return i, fmt.Errorf("%s is out of range for %s", a.Value(i).ToString(from), t)
		}
		dst[i] = v
	}
	return 0, nil
}

// rescaleDecimal128 converts v at scale from to an int64 at scale to with
// |result| <= maxAbs, in int64 arithmetic when v fits one.
func rescaleDecimal128(v decimal128.Num, from, to int32, maxAbs int64) (int64, bool) {
	hi, lo := v.HighBits(), v.LowBits()
	if (hi == 0 && lo <= math.MaxInt64) || (hi == -1 && lo > math.MaxInt64) {
		x := int64(lo)
		switch d := to - from; {
		case d > 0:
			if d > 18 || x > maxAbs/Pow10[d] || x < -maxAbs/Pow10[d] {
				return 0, false
			}
			x *= Pow10[d]
		case d < 0:
			if -d > 18 {
				return 0, true // rounds to zero
			}
			p := Pow10[-d]
			q, r := x/p, x%p
			if r >= (p+1)/2 {
				q++
			} else if r <= -(p+1)/2 {
				q--
			}
			x = q
		}
		return x, x <= maxAbs && x >= -maxAbs
	}
	switch {
	case from < to:
		v = v.IncreaseScaleBy(to - from)
	case from > to:
		v = v.ReduceScaleBy(from-to, true)
	}
	if !v.Abs().Less(decimal128.FromI64(maxAbs + 1)) {
		return 0, false
	}
	return int64(v.LowBits()), true
}

// appendArrowStrings appends string or binary values, plain or dictionary
// encoded, to a String builder (rows [b.n, b.n+arr.Len()), b.n not
// advanced). Dictionary arrays cost one map lookup per dictionary entry.
// Arrow strings view buffers released with the record: a string is cloned
// when it first enters the builder. Each distinct string is checked once
// against the column's width and UTF-8 (FitString) as it first enters the
// builder or, for dictionary arrays, per entry; on a failure the first row
// holding the value is returned with a *StringError.
func appendArrowStrings(b *Builder, arr arrow.Array) (int, error) {
	start, n := b.n, arr.Len()
	dst := b.i32[start : start+n]
	value := func(a arrow.Array) func(int) string {
		switch v := a.(type) {
		case *array.String:
			return v.Value
		case *array.LargeString:
			return v.Value
		case *array.Binary:
			return v.ValueString
		case *array.LargeBinary:
			return v.ValueString
		}
		panic("columnar: unexpected string array " + a.DataType().String())
	}
	// id interns s; it fails only for a string not seen before. A value
	// that FitString cuts (trailing spaces) may equal one already stored:
	// it takes that one's id, so the dictionary stays distinct.
	id := func(s string) (int32, error) {
		if c, ok := b.ids[s]; ok {
			return c, nil
		}
		v, err := b.typ.FitString(s)
		if err != nil {
			return 0, err
		}
		s = strings.Clone(s)
		v = s[:len(v)]
		c, ok := b.ids[v]
		if !ok {
			c = int32(len(b.vals))
			b.ids[v] = c
			b.vals = append(b.vals, v)
		}
		b.ids[s] = c
		return c, nil
	}
	if d, ok := arr.(*array.Dictionary); ok {
		dict := d.Dictionary()
		get := value(dict)
		trans := make([]int32, dict.Len())
		for j := range trans {
			if dict.IsValid(j) {
				var err error
				if trans[j], err = id(get(j)); err != nil {
					// An entry no row uses does no harm.
					if i := firstRowWithIndex(d, j); i >= 0 {
						return i, err
					}
				}
			}
		}
		if idx, ok := d.Indices().(*array.Int32); ok {
			for i, k := range idx.Int32Values() {
				dst[i] = 0
				if d.IsValid(i) {
					dst[i] = trans[k]
				}
			}
			return 0, nil
		}
		for i := range dst {
			dst[i] = 0
			if d.IsValid(i) {
				dst[i] = trans[d.GetValueIndex(i)]
			}
		}
		return 0, nil
	}
	get := value(arr)
	for i := range dst {
		dst[i] = 0
		if arr.IsValid(i) {
			var err error
			if dst[i], err = id(get(i)); err != nil {
				return i, err
			}
		}
	}
	return 0, nil
}

// firstRowWithIndex is the first non-NULL row of d using dictionary entry
// j, or -1.
func firstRowWithIndex(d *array.Dictionary, j int) int {
	for i := 0; i < d.Len(); i++ {
		if d.IsValid(i) && d.GetValueIndex(i) == j {
			return i
		}
	}
	return -1
}
