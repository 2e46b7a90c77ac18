package gpu

import (
	"testing"
	"unsafe"

	"gpusql/storage/columnar"
)

// Narrowed values read back sign-extended, as the kernels' ldi reads a
// 1-, 2- or 4-byte chunk, for the extremes of each width and both column
// vector types.
func TestNarrowValues(t *testing.T) {
	for _, c := range []struct {
		width  int
		values []int64
	}{
		{1, []int64{0, 1, -1, 127, -128, 42, -7}},
		{2, []int64{0, -1, 32767, -32768, 300, -300, 1}},
		{4, []int64{0, -1, 2147483647, -2147483648, 70000, -70000}},
	} {
		for _, typ := range []columnar.Type{columnar.TInt32, columnar.TInt64} {
			if typ == columnar.TInt32 && c.width == 4 {
				continue // an int32 vector is sent as it is
			}
			col := columnar.NewColumnIn(columnar.HeapAllocator, typ, len(c.values), false)
			for i, v := range c.values {
				if col.I32 != nil {
					col.I32[i] = int32(v)
				} else {
					col.I64[i] = v
				}
			}
			dst := make([]byte, c.width*len(c.values))
			narrowValues(dst, col, c.width)
			for i, want := range c.values {
				var got int64
				switch c.width {
				case 1:
					got = int64(int8(dst[i]))
				case 2:
					got = int64(*(*int16)(unsafe.Pointer(&dst[2*i])))
				case 4:
					got = int64(*(*int32)(unsafe.Pointer(&dst[4*i])))
				}
				if got != want {
					t.Errorf("width %d %s row %d: read back %d, want %d", c.width, typ, i, got, want)
				}
			}
		}
	}
}
