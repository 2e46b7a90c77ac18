package sql

import (
	"fmt"
	"math"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// intervalBound binds a RANGE frame offset over a DATE or DATETIME order
// key: MySQL requires an INTERVAL there (RANGE BETWEEN INTERVAL 7 DAY
// PRECEDING AND CURRENT ROW) and refuses one over any other key. The value
// is a non-negative constant; SECOND may be fractional (0.5 SECOND is
// 500000 microseconds), other single units take the nearest integer as
// DATE_ADD does, and composite units ('1:30' HOUR_MINUTE) are read as
// DATE_ADD reads them.
func (b *binder) intervalBound(out FrameBound, unitType ast.TimeUnitType, c *Const, kt columnar.Type, pos int) (FrameBound, error) {
	switch {
	case unitType == ast.TimeUnitInvalid:
		err := b.errCode(pos, ErWindowRangeFrameTemporal, "Window '<unnamed window>' with RANGE frame has ORDER BY expression of datetime type. Only INTERVAL bound value allowed.")
		err.Detail = fmt.Sprintf("a RANGE frame over an ORDER BY expression of type %s needs an INTERVAL offset (INTERVAL 7 DAY PRECEDING)", kt)
		return out, err
	case kt.ID != columnar.Date && kt.ID != columnar.Datetime:
		err := b.errCode(pos, ErWindowRangeFrameNumeric, "Window '<unnamed window>' with RANGE frame has ORDER BY expression of numeric type, INTERVAL bound value not allowed.")
		err.Detail = fmt.Sprintf("a RANGE frame over an ORDER BY expression of type %s cannot have an INTERVAL offset (only DATE and DATETIME keys)", kt)
		return out, err
	case c == nil:
		err := b.errCode(pos, ErWindowRangeBoundNotConstant, "Window '<unnamed window>' has a non-constant frame bound.")
		err.Detail = "a RANGE frame INTERVAL must be a non-negative constant"
		return out, err
	case c.Null:
		return out, b.frameIllegal(pos, "a RANGE frame INTERVAL must be a non-negative constant, not NULL")
	}
	if sizes, ok := compositeUnits[unitType]; ok {
		total, err := b.compositeTotal(c, sizes, pos)
		if err != nil {
			return out, err
		}
		out.N, out.Unit = total, "microsecond"
		if countsMonths(sizes) {
			out.Unit = "month"
		}
		return out, b.nonNegativeInterval(out, pos)
	}
	u, ok := intervalUnits[unitType]
	if !ok {
		return out, b.errf(pos, "unsupported: INTERVAL unit %s in a window frame", unitType.String())
	}
	f, okF := convertConst(c, columnar.TFloat64)
	if !okF || f.Null || math.IsNaN(f.F) || math.Abs(f.F) > 1<<52 {
		return out, b.errf(pos, "a RANGE frame INTERVAL must be a non-negative constant, not %s", c)
	}
	out.N, out.Unit = int64(math.Round(f.F))*u.mult, u.name
	if u.name == "second" && f.F != math.Trunc(f.F) {
		out.N, out.Unit = int64(math.Round(f.F*float64(columnar.MicrosPerSecond))), "microsecond"
	}
	return out, b.nonNegativeInterval(out, pos)
}

func (b *binder) nonNegativeInterval(fb FrameBound, pos int) error {
	if fb.N < 0 {
		return b.frameIllegal(pos, "a RANGE frame INTERVAL must not be negative (write FOLLOWING or PRECEDING instead)")
	}
	return nil
}
