package columnar

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// A VECTOR column loads from a Parquet list of floats: LIST, LARGE_LIST
// or FIXED_SIZE_LIST of FLOAT or DOUBLE (what pyarrow, DuckDB and Spark
// write for embeddings), or from strings in the text form '[1,2,3]'. A NULL list is a NULL vector; a NULL element, NaN,
// an infinity, a double past float32's range or a length that does not fit
// VECTOR(n) rejects the row.

// isArrowFloatList reports whether dt is a list of float32 or float64.
func isArrowFloatList(dt arrow.DataType) bool {
	var elem arrow.DataType
	switch l := dt.(type) {
	case *arrow.ListType:
		elem = l.Elem()
	case *arrow.LargeListType:
		elem = l.Elem()
	case *arrow.FixedSizeListType:
		elem = l.Elem()
	default:
		return false
	}
	return elem.ID() == arrow.FLOAT32 || elem.ID() == arrow.FLOAT64
}

// appendArrowVectors writes arr's lists into rows [b.n, b.n+arr.Len()) of a
// Vector builder without advancing b.n (appendArrow marks NULLs).
func appendArrowVectors(b *Builder, arr arrow.Array) (int, error) {
	if s, ok := arr.(interface{ Value(int) string }); ok {
		return appendTextVectors(b, arr, s.Value)
	}
	list, ok := arr.(array.ListLike)
	if !ok {
		return 0, fmt.Errorf("%s is not a list of floats", arr.DataType())
	}
	elems := list.ListValues()
	var f32 []float32
	var f64 []float64
	switch e := elems.(type) {
	case *array.Float32:
		f32 = e.Float32Values()
	case *array.Float64:
		f64 = e.Float64Values()
	default:
		return 0, fmt.Errorf("a list of %s is not a vector (want FLOAT or DOUBLE elements)", elems.DataType())
	}
	var row []float32
	for i := range arr.Len() {
		r := b.n + i
		if arr.IsNull(i) {
			b.setZero(r)
			continue
		}
		lo, hi := list.ValueOffsets(i)
		row = row[:0]
		for j := lo; j < hi; j++ {
			if elems.IsNull(int(j)) {
				return i, &VectorError{"NULL element in a vector"}
			}
			v, err := vectorElement(f32, f64, int(j))
			if err != nil {
				return i, err
			}
			row = append(row, v)
		}
		if err := CheckVectorDim(len(row), b.typ); err != nil {
			return i, err
		}
		if d := b.typ.Dim; d > 0 {
			copy(b.f32[r*d:(r+1)*d], row)
		} else {
			b.rows[r] = append([]float32{}, row...)
		}
	}
	return 0, nil
}

// appendTextVectors parses a string array's text forms into rows
// [b.n, b.n+arr.Len()) (appendArrow marks NULLs).
func appendTextVectors(b *Builder, arr arrow.Array, value func(int) string) (int, error) {
	for i := range arr.Len() {
		if arr.IsNull(i) {
			b.setZero(b.n + i)
			continue
		}
		if err := b.parseVector(b.n+i, []byte(value(i))); err != nil {
			return i, err
		}
	}
	return 0, nil
}

// vectorElement is element j of a float32 or float64 array as a checked
// float32.
func vectorElement(f32 []float32, f64 []float64, j int) (float32, error) {
	x := 0.0
	if f32 != nil {
		x = float64(f32[j])
	} else {
		x = f64[j]
	}
	switch {
	case math.IsNaN(x):
		return 0, &VectorError{"NaN not allowed in vector"}
	case math.IsInf(x, 0):
		return 0, &VectorError{"infinite value not allowed in vector"}
	case math.Abs(x) > math.MaxFloat32:
		return 0, &VectorError{fmt.Sprintf("vector element %g is out of range for float32", x)}
	}
	return float32(x), nil
}
