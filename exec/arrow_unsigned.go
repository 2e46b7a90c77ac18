package exec

import (
	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"gpusql/storage/columnar"
)

// UnsignedArray is rows [lo, hi) of an unsigned integer column as Arrow's
// uint32 (TINYINT to INT UNSIGNED) or uint64 (BIGINT UNSIGNED, whose int64 values are
// uint64 bit patterns), so clients read 18446744073709551615, not -1.
func UnsignedArray(mem memory.Allocator, c *columnar.Column, lo, hi int) arrow.Array {
	if c.Type.Width != 0 {
		b := array.NewUint32Builder(mem)
		defer b.Release()
		b.Reserve(hi - lo)
		for i := lo; i < hi; i++ {
			if c.IsNull(i) {
				b.AppendNull()
			} else {
				b.Append(uint32(c.I64[i]))
			}
		}
		return b.NewArray()
	}
	b := array.NewUint64Builder(mem)
	defer b.Release()
	b.Reserve(hi - lo)
	for i := lo; i < hi; i++ {
		if c.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(uint64(c.I64[i]))
		}
	}
	return b.NewArray()
}
