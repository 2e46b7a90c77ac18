package columnar

import (
	"errors"

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
