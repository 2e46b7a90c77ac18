package columnar

import "fmt"

// RowRange is a view of rows [lo, hi) of c sharing its vectors (nothing is
// copied): how a device of a plan split over several GPUs sees its part of
// a fact table. lo must be a multiple of 64 (unless the range is empty) so that the validity bitmap's
// words stay aligned. The view runs c's integrity check first, since the
// view itself carries none.
func (c *Column) RowRange(lo, hi int) (*Column, error) {
	if lo < 0 || hi > c.Len || lo > hi || lo%64 != 0 && lo != hi {
		return nil, fmt.Errorf("columnar: row range [%d, %d) of a %d-row column (the start must be a multiple of 64)", lo, hi, c.Len)
	}
	if c.F32 != nil || c.Offsets != nil {
		return nil, fmt.Errorf("columnar: row ranges of vector columns are not supported")
	}
	if err := c.Verify(); err != nil {
		return nil, err
	}
	v := &Column{Type: c.Type, Len: hi - lo, Dict: c.Dict}
	switch {
	case c.I32 != nil:
		v.I32 = c.I32[lo:hi:hi]
	case c.I64 != nil:
		v.I64 = c.I64[lo:hi:hi]
	case c.F64 != nil:
		v.F64 = c.F64[lo:hi:hi]
	case c.W != nil:
		v.W = c.W[lo:hi:hi]
	}
	switch {
	case c.Valid == nil:
	case lo == hi:
		v.Valid = []uint64{} // none, and still a nullable column
	default:
		end := (hi + 63) / 64
		v.Valid = c.Valid[lo/64 : end : end]
	}
	return v, nil
}
