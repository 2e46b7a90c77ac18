package gpu

import (
	"unsafe"

	"gpusql/storage/columnar"
)

// narrowValues writes col's values into dst in width bytes each (1, 2 or
// 4; little-endian two's complement, which the kernels' ldi reads back
// sign-extended), in parallel. Every non-NULL value must fit the width;
// NULL rows' values are truncated, their validity bit masks them.
func narrowValues(dst []byte, col *columnar.Column, width int) {
	parallelRange(int64(col.Len), func(lo, hi int64) {
		for i := lo; i < hi; i++ {
			v := col.Int64At(int(i))
			switch width {
			case 1:
				dst[i] = byte(int8(v))
			case 2:
				*(*int16)(unsafe.Pointer(&dst[2*i])) = int16(v)
			case 4:
				*(*int32)(unsafe.Pointer(&dst[4*i])) = int32(v)
			}
		}
	})
}
