package exec

import (
	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"gpusql/storage/columnar"
)

// wideDecimalArray is a wide DECIMAL column as Arrow: decimal128 up to 38
// digits (what most readers take, Parquet's usual decimal), decimal256
// beyond, whose words are the column's own.
func wideDecimalArray(mem memory.Allocator, c *columnar.Column, n int) arrow.Array {
	switch dt := ArrowType(c.Type).(type) {
	case *arrow.Decimal128Type:
		b := array.NewDecimal128Builder(mem, dt)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if c.IsNull(i) {
				b.AppendNull()
				continue
			}
			w := c.W[i].Array() // at most 38 digits: the low two words hold it
			b.Append(decimal128.New(int64(w[1]), w[0]))
		}
		return b.NewArray()
	case *arrow.Decimal256Type:
		b := array.NewDecimal256Builder(mem, dt)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if c.IsNull(i) {
				b.AppendNull()
			} else {
				b.Append(c.W[i])
			}
		}
		return b.NewArray()
	}
	panic("exec: wide DECIMAL without a decimal Arrow type")
}
