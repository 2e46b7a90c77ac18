package columnar

import (
	"errors"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal256"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"gpusql/internal/decimal"
)

// Wide DECIMAL columns (more than 18 digits) hold unscaled 256-bit values
// (internal/decimal); a value must have at most Precision digits.

// parseWide parses decimal text into row i of a wide DECIMAL builder,
// rounding extra fraction digits half away from zero (as MySQL's LOAD DATA
// does) and refusing values of more than Precision digits.
func (b *Builder) parseWide(i int, f []byte) error {
	v, _, err := decimal.Parse(string(f), b.typ.Scale)
	switch {
	case errors.Is(err, decimal.ErrSyntax):
		return errNotValid(f, b.typ)
	case err != nil || !decimal.Fits(v, b.typ.Precision):
		return errOutOfRange(f, b.typ)
	}
	b.w[i] = v
	return nil
}

// AppendWide appends an unscaled value (at the column's scale) to a wide
// DECIMAL column; it fails when the value has more than Precision digits.
func (b *Builder) AppendWide(v decimal.Num) error {
	if !decimal.Fits(v, b.typ.Precision) {
		return errOutOfRange([]byte(decimal.Format(v, b.typ.Scale)), b.typ)
	}
	if b.n == len(b.w) {
		b.grow()
	}
	b.w[b.n] = v
	b.n++
	return nil
}

// WideAt returns row i of a DECIMAL column as an unscaled wide value at
// the column's scale, whether the column is wide or a scaled int64.
func (c *Column) WideAt(i int) decimal.Num {
	if c.W != nil {
		return c.W[i]
	}
	return decimal.FromInt64(c.Int64At(i))
}

// appendArrowWide converts an integer, decimal128 or decimal256 array into
// a wide DECIMAL builder's rows [b.n, b.n+arr.Len()) (b.n not advanced),
// rescaling half away from zero and checking the precision. On a value
// that does not fit it returns the row and why.
func appendArrowWide(b *Builder, arr arrow.Array) (int, error) {
	t := b.typ
	dst := b.w[b.n : b.n+arr.Len()]
	var from int
	var at func(i int) decimal.Num
	switch a := arr.(type) {
	case *array.Decimal128:
		from = int(a.DataType().(*arrow.Decimal128Type).Scale)
		at = func(i int) decimal.Num { return decimal256.FromDecimal128(a.Value(i)) }
	case *array.Decimal256:
		from = int(a.DataType().(*arrow.Decimal256Type).Scale)
		at = a.Value
	case *array.Uint64:
		at = func(i int) decimal.Num { return decimal.FromUint64(a.Value(i)) }
	default:
		if !isArrowInt(arr.DataType()) {
			return 0, fmt.Errorf("cannot load %s into %s", arr.DataType(), t)
		}
		at = func(i int) decimal.Num { return decimal.FromInt64(arrowIntAt(arr, i)) }
	}
	for i := range dst {
		dst[i] = decimal.Num{}
		if arr.IsNull(i) {
			continue
		}
		v, ok := decimal.Rescale(at(i), from, t.Scale)
		if !ok || !decimal.Fits(v, t.Precision) {
			return i, fmt.Errorf("%s is out of range for %s", decimal.Format(at(i), from), t)
		}
		dst[i] = v
	}
	return 0, nil
}

// arrowIntAt is row i of a signed or narrow unsigned integer array.
func arrowIntAt(arr arrow.Array, i int) int64 {
	switch a := arr.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return int64(a.Value(i))
	case *array.Uint16:
		return int64(a.Value(i))
	case *array.Uint32:
		return int64(a.Value(i))
	}
	return 0
}

// decimal256Readable refuses a Parquet decimal256 column whose values are
// stored in a byte width that is not a multiple of 8: Arrow Go v15's
// reader (pqarrow bigEndianToDecimal256) shifts a partial word by bytes
// instead of bits and returns wrong values for them, silently. Widths of
// 24 and 32 bytes (precision 57 and 76, what EXPORT writes: see
// Decimal256ExportPrecision) read correctly.
func decimal256Readable(dt arrow.DataType) error {
	d, ok := dt.(*arrow.Decimal256Type)
	if !ok {
		return nil
	}
	if w := pqarrow.DecimalSize(d.Precision); w%8 != 0 {
		return fmt.Errorf("Parquet decimal256(%d,%d) is stored in %d bytes, which this build's Parquet reader (Arrow Go v15) decodes wrongly; write the column as decimal256 of precision 57 or 76, or as decimal128 (up to 38 digits)", d.Precision, d.Scale, w)
	}
	return nil
}

// Decimal256ExportPrecision is the precision a wide DECIMAL of p > 38
// digits is written to Parquet with: 57 or 76, whose 24- and 32-byte
// values every reader, this one included, decodes (decimal256Readable).
func Decimal256ExportPrecision(p int) int32 {
	if p <= 57 {
		return 57
	}
	return 76
}
