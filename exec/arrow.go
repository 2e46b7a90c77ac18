package exec

import (
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// This file turns a Result into what clients see: an Arrow record batch
// (Record) and the text of each value (FormatValue and friends), which the
// REPL, the database/sql driver and the SQL logic tests all print the same
// way. The text follows the MySQL client: DECIMAL with exactly its scale
// (12.50), DATE as YYYY-MM-DD, DOUBLE in the shortest form that reads back
// to the same value (0.1, 1e20), BOOLEAN as 1 or 0, and NULL as NULL.

// ArrowType is the Arrow type a column of type t is returned as. DECIMAL
// keeps its scale (precision 38 where the binder left it unknown), so a
// client sees exact values. VECTOR is a string in TiDB's text form
// '[0.5,1,2]': every client (MySQL wire, Flight SQL, database/sql, CSV)
// reads it as it is, and VEC_FROM_TEXT or an INSERT turns it back into the
// same float32 values.
func ArrowType(t columnar.Type) arrow.DataType {
	switch t.ID {
	case columnar.Int32:
		return arrow.PrimitiveTypes.Int32
	case columnar.Int64:
		switch {
		case t.Unsigned && t.Width != 0: // TINYINT to INT UNSIGNED
			return arrow.PrimitiveTypes.Uint32
		case t.Unsigned:
			return arrow.PrimitiveTypes.Uint64
		}
		return arrow.PrimitiveTypes.Int64
	case columnar.Float64:
		return arrow.PrimitiveTypes.Float64
	case columnar.Decimal:
		p := t.Precision
		if p > 38 {
			return &arrow.Decimal256Type{Precision: int32(p), Scale: int32(t.Scale)}
		}
		if p <= 0 {
			p = 38
		}
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(t.Scale)}
	case columnar.Date:
		return arrow.FixedWidthTypes.Date32
	case columnar.Datetime:
		// No time zone: DATETIME is wall-clock time, and TIMESTAMP is shown
		// in the session's zone, which is UTC.
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	case columnar.Time:
		return arrow.FixedWidthTypes.Time64us
	case columnar.Bool:
		return arrow.FixedWidthTypes.Boolean
	default:
		return arrow.BinaryTypes.String
	}
}

// Schema is the Arrow schema of the result; every field is nullable because
// a result column may carry NULLs whatever its source.
func (r *Result) Schema() *arrow.Schema {
	fields := make([]arrow.Field, len(r.Columns))
	for i, c := range r.Columns {
		fields[i] = ArrowField(r.Names[i], c.Type)
	}
	return arrow.NewSchema(fields, nil)
}

// ArrowField is the nullable field of a result column. A JSON column is a
// string field marked as Arrow's canonical JSON extension type
// ("arrow.json", UTF-8 storage), which readers that know it decode and
// others read as its text.
func ArrowField(name string, t columnar.Type) arrow.Field {
	f := arrow.Field{Name: name, Type: ArrowType(t), Nullable: true}
	if t.JSON {
		f.Metadata = arrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"}, []string{"arrow.json", ""})
	}
	return f
}

// Record returns the result as one Arrow record batch (Go heap memory; the
// caller Releases it). Strings are decoded from their dictionary codes.
func (r *Result) Record() arrow.Record {
	mem := memory.DefaultAllocator
	cols := make([]arrow.Array, len(r.Columns))
	for i, c := range r.Columns {
		cols[i] = arrowArray(mem, c, r.Rows)
	}
	rec := array.NewRecord(r.Schema(), cols, int64(r.Rows))
	for _, a := range cols {
		a.Release()
	}
	return rec
}

func arrowArray(mem memory.Allocator, c *columnar.Column, n int) arrow.Array {
	switch c.Type.ID {
	case columnar.Int32:
		b := array.NewInt32Builder(mem)
		defer b.Release()
		b.AppendValues(c.I32[:n], validBools(c, n))
		return b.NewArray()
	case columnar.Int64:
		if c.Type.Unsigned {
			return UnsignedArray(mem, c, 0, n)
		}
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.AppendValues(c.I64[:n], validBools(c, n))
		return b.NewArray()
	case columnar.Datetime:
		return TimestampArray(mem, c, 0, n)
	case columnar.Time:
		return Time64Array(mem, c, 0, n)
	case columnar.Float64:
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		b.AppendValues(c.F64[:n], validBools(c, n))
		return b.NewArray()
	case columnar.Decimal:
		if c.Type.IsWide() {
			return WideDecimalArray(mem, c, 0, n, ArrowType(c.Type))
		}
		b := array.NewDecimal128Builder(mem, ArrowType(c.Type).(*arrow.Decimal128Type))
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if c.IsNull(i) {
				b.AppendNull()
			} else {
				b.Append(decimal128.FromI64(c.I64[i]))
			}
		}
		return b.NewArray()
	case columnar.Date:
		b := array.NewDate32Builder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if c.IsNull(i) {
				b.AppendNull()
			} else {
				b.Append(arrow.Date32(c.I32[i]))
			}
		}
		return b.NewArray()
	case columnar.Bool:
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if c.IsNull(i) {
				b.AppendNull()
			} else {
				b.Append(c.I32[i] != 0)
			}
		}
		return b.NewArray()
	default:
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			switch {
			case c.IsNull(i):
				b.AppendNull()
			case c.Type.ID == columnar.Vector:
				b.Append(columnar.VectorText(c.VectorAt(i)))
			default:
				b.Append(c.StringAt(i))
			}
		}
		return b.NewArray()
	}
}

// validBools is the per-row validity Arrow's AppendValues wants; nil when the
// column has no NULLs.
func validBools(c *columnar.Column, n int) []bool {
	if !c.HasNulls() {
		return nil
	}
	v := make([]bool, n)
	for i := range v {
		v[i] = !c.IsNull(i)
	}
	return v
}

// FormatValue is the text of row i of c as the MySQL client prints it;
// NULL is "NULL".
func FormatValue(c *columnar.Column, i int) string {
	if c.IsNull(i) {
		return "NULL"
	}
	switch c.Type.ID {
	case columnar.Int32:
		if c.Type.Year {
			return columnar.FormatYear(c.I32[i])
		}
		return strconv.FormatInt(int64(c.I32[i]), 10)
	case columnar.Int64:
		if c.Type.Bit > 0 {
			return columnar.FormatBit(uint64(c.I64[i]), c.Type.Bit)
		}
		if c.Type.IsBigUnsigned() {
			return columnar.ZeroFilled(strconv.FormatUint(uint64(c.I64[i]), 10), c.Type)
		}
		return columnar.ZeroFilled(strconv.FormatInt(c.I64[i], 10), c.Type)
	case columnar.Float64:
		if c.Type.Scale > 0 { // a DOUBLE of fixed decimals: PI() is 3.141593 (sql/double_decimals.go)
			return strconv.FormatFloat(c.F64[i], 'f', c.Type.Scale, 64)
		}
		if c.Type.Single {
			return columnar.FormatFloat32(c.F64[i])
		}
		return FormatDouble(c.F64[i])
	case columnar.Decimal:
		if c.W != nil {
			return columnar.ZeroFilled(decimal.Format(c.W[i], c.Type.Scale), c.Type)
		}
		return columnar.ZeroFilled(FormatDecimal(c.I64[i], c.Type.Scale), c.Type)
	case columnar.Date:
		return FormatDate(c.I32[i])
	case columnar.Datetime:
		return columnar.FormatDatetime(c.I64[i], c.Type.Scale)
	case columnar.Time:
		return columnar.FormatTime(c.I64[i], c.Type.Scale)
	case columnar.Bool:
		if c.I32[i] != 0 {
			return "1"
		}
		return "0"
	case columnar.String:
		return c.StringAt(i)
	case columnar.Vector:
		return columnar.VectorText(c.VectorAt(i))
	}
	return "?"
}

// Value is row i of c as a Go value: nil for NULL, int32 (INT), int64
// (BIGINT), uint64 (INT UNSIGNED, BIGINT UNSIGNED), float64 (DOUBLE), string (VARCHAR, and DECIMAL as its exact
// text), time.Time at UTC midnight (DATE), time.Time in UTC (DATETIME,
// TIMESTAMP) or bool (BOOLEAN).
func Value(c *columnar.Column, i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch c.Type.ID {
	case columnar.Int32:
		return c.I32[i]
	case columnar.Int64:
		if c.Type.Unsigned {
			return uint64(c.I64[i])
		}
		return c.I64[i]
	case columnar.Float64:
		return c.F64[i]
	case columnar.Decimal:
		if c.W != nil {
			return columnar.ZeroFilled(decimal.Format(c.W[i], c.Type.Scale), c.Type)
		}
		return columnar.ZeroFilled(FormatDecimal(c.I64[i], c.Type.Scale), c.Type)
	case columnar.Date:
		return DateTime(c.I32[i])
	case columnar.Datetime:
		return DatetimeTime(c.I64[i])
	case columnar.Time:
		return columnar.FormatTime(c.I64[i], c.Type.Scale) // as MySQL drivers hand TIME over: text
	case columnar.Bool:
		return c.I32[i] != 0
	case columnar.Vector:
		return columnar.VectorText(c.VectorAt(i))
	default:
		return c.StringAt(i)
	}
}

// Row formats row i of every column.
func (r *Result) Row(i int) []string {
	out := make([]string, len(r.Columns))
	for j, c := range r.Columns {
		out[j] = FormatValue(c, i)
	}
	return out
}

// FormatDecimal prints a scaled integer with exactly scale digits after the
// point (v=1250, scale=2 → "12.50"), without going through a float.
func FormatDecimal(v int64, scale int) string {
	if scale <= 0 {
		return strconv.FormatInt(v, 10)
	}
	neg := v < 0
	// Negating math.MinInt64 overflows; its digits are those of the uint64.
	u := uint64(v)
	if neg {
		u = uint64(-(v + 1)) + 1
	}
	digits := strconv.FormatUint(u, 10)
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	cut := len(digits) - scale
	s := digits[:cut] + "." + digits[cut:]
	if neg {
		s = "-" + s
	}
	return s
}

// DateTime is the time.Time (UTC midnight) of a day number.
func DateTime(days int32) time.Time {
	return time.Unix(int64(days)*86400, 0).UTC()
}

// DatetimeTime is the time.Time (UTC) of a DATETIME value.
func DatetimeTime(us int64) time.Time { return time.UnixMicro(us).UTC() }

// TimestampArray is rows [lo, hi) of a DATETIME column as timestamp[us].
func TimestampArray(mem memory.Allocator, c *columnar.Column, lo, hi int) arrow.Array {
	b := array.NewTimestampBuilder(mem, ArrowType(c.Type).(*arrow.TimestampType))
	defer b.Release()
	b.Reserve(hi - lo)
	for i := lo; i < hi; i++ {
		if c.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(arrow.Timestamp(c.I64[i]))
		}
	}
	return b.NewArray()
}

// Time64Array is rows [lo,hi) of a TIME column as Arrow time64[us] (a
// TIME past 24 hours or below zero keeps its microseconds: Arrow does not
// bound time64 values, though some readers expect a time of day).
func Time64Array(mem memory.Allocator, c *columnar.Column, lo, hi int) arrow.Array {
	b := array.NewTime64Builder(mem, arrow.FixedWidthTypes.Time64us.(*arrow.Time64Type))
	defer b.Release()
	b.Reserve(hi - lo)
	for i := lo; i < hi; i++ {
		if c.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(arrow.Time64(c.I64[i]))
		}
	}
	return b.NewArray()
}

// FormatDate prints a day number as YYYY-MM-DD.
func FormatDate(days int32) string { return DateTime(days).Format("2006-01-02") }

// FormatDouble prints f the way MySQL does: the shortest digits that read
// back to f, plain notation for ordinary magnitudes and an exponent without
// '+' beyond them (1e20, 1.5e-7).
func FormatDouble(f float64) string { return columnar.FormatDouble(f) }
