package exec

import (
	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"gpusql/storage/columnar"
)

// WideDecimalArray is rows [lo, hi) of a wide DECIMAL column as Arrow:
// decimal128 up to 38 digits (what most readers take, Parquet's usual
// decimal), decimal256 beyond, whose words are the column's own.
// dt is the array's type: ArrowType's, or another decimal type that
// holds the column's values (a Parquet export's wider decimal256).
func WideDecimalArray(mem memory.Allocator, c *columnar.Column, lo, hi int, dt arrow.DataType) arrow.Array {
	n := hi - lo
	switch dt := dt.(type) {
	case *arrow.Decimal128Type:
		b := array.NewDecimal128Builder(mem, dt)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if c.IsNull(lo + i) {
				b.AppendNull()
				continue
			}
			w := c.W[lo+i].Array() // at most 38 digits: the low two words hold it
			b.Append(decimal128.New(int64(w[1]), w[0]))
		}
		return b.NewArray()
	case *arrow.Decimal256Type:
		b := array.NewDecimal256Builder(mem, dt)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if c.IsNull(lo + i) {
				b.AppendNull()
			} else {
				b.Append(c.W[lo+i])
			}
		}
		return b.NewArray()
	}
	panic("exec: wide DECIMAL without a decimal Arrow type")
}
