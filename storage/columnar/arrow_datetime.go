package columnar

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// appendArrowDatetimes converts Arrow timestamps (any unit; a time zone
// names an instant, which gpusql's UTC session shows as UTC wall-clock
// time) and dates into a DATETIME or TIMESTAMP builder, rounding to the
// column's fsp and checking its range. It writes rows [b.n, b.n+arr.Len())
// without advancing b.n.
func appendArrowDatetimes(b *Builder, arr arrow.Array) (int, error) {
	t := b.typ
	dst := b.i64[b.n : b.n+arr.Len()]
	var micros func(i int) int64
	switch a := arr.(type) {
	case *array.Timestamp:
		perUnit := map[arrow.TimeUnit]int64{arrow.Second: MicrosPerSecond, arrow.Millisecond: 1000, arrow.Microsecond: 1}
		unit := a.DataType().(*arrow.TimestampType).Unit
		vals := a.TimestampValues()
		if unit == arrow.Nanosecond {
			micros = func(i int) int64 { return floorDiv(int64(vals[i])+500, 1000) }
		} else {
			m := perUnit[unit]
			micros = func(i int) int64 { return int64(vals[i]) * m }
		}
	case *array.Date32:
		micros = func(i int) int64 { return int64(a.Value(i)) * MicrosPerDay }
	case *array.Date64:
		micros = func(i int) int64 { return floorDiv(int64(a.Value(i)), 86_400_000) * MicrosPerDay }
	default:
		return 0, fmt.Errorf("cannot load %s into %s", arr.DataType(), t)
	}
	for i := range dst {
		dst[i] = 0
		if arr.IsNull(i) {
			continue
		}
		v := RoundDatetime(micros(i), t.Scale)
		if !t.InDatetimeRange(v) {
			return i, fmt.Errorf("%s is out of range for %s", FormatDatetime(v, MaxFsp), t)
		}
		dst[i] = v
	}
	return 0, nil
}
