package columnar

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// TestParseTime: MySQL's TIME text forms (manual, "Date and Time
// Literals"), fsp rounding and the ±838:59:59 range.
func TestParseTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		fsp  int
		want string // FormatTime at fsp; "" = does not parse
	}{
		{"10:20:30", 0, "10:20:30"}, {"1 10:00:00", 0, "34:00:00"}, {"102030", 0, "10:20:30"},
		{"2030", 0, "00:20:30"}, {"30", 0, "00:00:30"}, {"-01:00", 0, "-01:00:00"}, {"0 5", 0, "05:00:00"},
		{"10:20", 0, "10:20:00"}, {"838:59:59", 0, "838:59:59"}, {"-838:59:59", 0, "-838:59:59"},
		{"10:20:30.1234", 3, "10:20:30.123"}, {"10:20:30.9995", 3, "10:20:31.000"}, {"-00:00:00.5", 0, "-00:00:01"},
		{"2024-01-02 03:04:05.5", 1, "03:04:05.5"}, {"34 23:59:59", 0, ""},
		{"839:00:00", 0, ""}, {"838:59:59.5", 1, ""}, {"10:60:00", 0, ""}, {"10:20:61", 0, ""},
		{"x", 0, ""}, {"", 0, ""}, {"10:20.5", 0, ""}, {"35 00:00:00", 0, ""}, {"1:2:3:4", 0, ""},
	} {
		us, ok := ParseTime(c.in, c.fsp)
		got := ""
		if ok {
			got = FormatTime(us, c.fsp)
		}
		if got != c.want {
			t.Errorf("ParseTime(%q, %d) = %q, want %q", c.in, c.fsp, got, c.want)
		}
	}
	if n := TimeToNumber(-(3600 + 61) * MicrosPerSecond); n != -10101 {
		t.Errorf("TimeToNumber(-01:01:01) = %d", n)
	}
	if us, ok := TimeFromNumber(-10101, 0); !ok || FormatTime(us, 0) != "-01:01:01" {
		t.Errorf("TimeFromNumber(-10101) = %d,%v", us, ok)
	}
}

// TestParquetTimes loads time32 / time64 columns of every unit into TIME
// columns (and infers TIME(fsp) from them): values convert to
// microseconds and round to the column's fsp.
func TestParquetTimes(t *testing.T) {
	fields := []arrow.Field{
		{Name: "ms", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true},
		{Name: "us", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
		{Name: "ns", Type: arrow.FixedWidthTypes.Time64ns, Nullable: true},
	}
	day := int64(10*3600+20*60+30) * MicrosPerSecond
	rec := record(fields, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Time32Builder).AppendValues([]arrow.Time32{arrow.Time32(day/1000 + 123), 0}, []bool{true, false})
		b.Field(1).(*array.Time64Builder).AppendValues([]arrow.Time64{arrow.Time64(day + 123456), 0}, []bool{true, false})
		b.Field(2).(*array.Time64Builder).AppendValues([]arrow.Time64{arrow.Time64((day+123456)*1000 + 789), 0}, []bool{true, false})
	})
	defer rec.Release()
	p := writeParquet(t, "times.parquet", 10, rec)
	inferred, err := ParquetFields(p)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, f := range inferred {
		types = append(types, f.Type.String())
	}
	if got := join(types); got != "TIME(3),TIME(6),TIME(6)" {
		t.Errorf("inferred types %s", got)
	}
	target := []Field{{Name: "ms", Type: TTime(3), Nullable: true}, {Name: "us", Type: TTime(2), Nullable: true},
		{Name: "ns", Type: TTime(6), Nullable: true}}
	nt, err := LoadParquet(NewEmptyTable("x", target), p, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r := 0; r < nt.Rows; r++ {
		var cells []string
		for _, c := range nt.Columns {
			if c.IsNull(r) {
				cells = append(cells, "NULL")
			} else {
				cells = append(cells, FormatTime(c.I64[r], c.Type.Scale))
			}
		}
		got = append(got, join(cells))
	}
	eqLines(t, got, []string{"10:20:30.123,10:20:30.12,10:20:30.123457", "NULL,NULL,NULL"})
}
