package columnar

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// parseUnsigned parses a decimal integer for an unsigned column of type t:
// digits with an optional '+', at most t.UnsignedMax(). A '-' before
// digits other than zeros is out of range (MySQL's strict mode rejects a
// negative value for an unsigned column), not a syntax error. The result
// is the value's bits in an int64 slot.
func parseUnsigned(b []byte, t Type) (v int64, ok, inRange bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	if i == len(b) {
		return 0, false, false
	}
	limit := t.UnsignedMax()
	var u uint64
	inRange = true
	for ; i < len(b); i++ {
		d := uint64(b[i] - '0')
		if d > 9 {
			return 0, false, false
		}
		if u > (limit-d)/10 {
			inRange = false // keep scanning: a later non-digit is a syntax error
			continue
		}
		u = u*10 + d
	}
	if neg && u != 0 {
		inRange = false
	}
	return int64(u), true, inRange
}

// appendArrowUnsigned converts an integer array into an unsigned column
// (rows [b.n, b.n+arr.Len()), b.n not advanced): uint64 Parquet columns
// keep every value; a negative value of a signed array, or one past the
// column's maximum, is out of range.
func appendArrowUnsigned(b *Builder, arr arrow.Array) (int, error) {
	start, t := b.n, b.typ
	max := t.UnsignedMax()
	put := func(i int, u uint64, neg bool, text func() string) error {
		if arr.IsNull(i) {
			b.i64[start+i] = 0
			return nil
		}
		if neg || u > max {
			return fmt.Errorf("%s is out of range for %s", text(), t)
		}
		b.i64[start+i] = int64(u)
		return nil
	}
	signedAt := func(i int, v int64) error {
		return put(i, uint64(v), v < 0, func() string { return strconv.FormatInt(v, 10) })
	}
	var err error
	switch a := arr.(type) {
	case *array.Uint64:
		for i, v := range a.Uint64Values() {
			if err = put(i, v, false, func() string { return strconv.FormatUint(v, 10) }); err != nil {
				return i, err
			}
		}
		return 0, nil
	case *array.Uint32:
		for i, v := range a.Uint32Values() {
			_ = put(i, uint64(v), false, nil) // every uint32 fits
		}
		return 0, nil
	case *array.Uint16:
		for i, v := range a.Uint16Values() {
			_ = put(i, uint64(v), false, nil)
		}
		return 0, nil
	case *array.Uint8:
		for i, v := range a.Uint8Values() {
			_ = put(i, uint64(v), false, nil)
		}
		return 0, nil
	case *array.Int64:
		for i, v := range a.Int64Values() {
			if err = signedAt(i, v); err != nil {
				return i, err
			}
		}
		return 0, nil
	case *array.Int32:
		for i, v := range a.Int32Values() {
			if err = signedAt(i, int64(v)); err != nil {
				return i, err
			}
		}
		return 0, nil
	case *array.Int16:
		for i, v := range a.Int16Values() {
			if err = signedAt(i, int64(v)); err != nil {
				return i, err
			}
		}
		return 0, nil
	case *array.Int8:
		for i, v := range a.Int8Values() {
			if err = signedAt(i, int64(v)); err != nil {
				return i, err
			}
		}
		return 0, nil
	}
	return 0, fmt.Errorf("cannot load %s into %s", arr.DataType(), t)
}
