package columnar

import (
	"math/rand"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

func TestParseDatetime(t *testing.T) {
	cases := []struct {
		in   string
		fsp  int
		want string // FormatDatetime(_, 6), or "" for invalid
	}{
		{"2024-01-05 10:20:30", 0, "2024-01-05 10:20:30.000000"},
		{"2024-01-05", 0, "2024-01-05 00:00:00.000000"},
		{" 2024-1-5 7:8:9 ", 0, "2024-01-05 07:08:09.000000"},
		{"2024/01/05T10:20", 0, "2024-01-05 10:20:00.000000"},
		{"24-01-05 10:20:30", 0, "2024-01-05 10:20:30.000000"},
		{"99-01-05", 0, "1999-01-05 00:00:00.000000"},
		{"20240105102030", 0, "2024-01-05 10:20:30.000000"},
		{"20240105", 0, "2024-01-05 00:00:00.000000"},
		{"20240105102030.123456", 6, "2024-01-05 10:20:30.123456"},
		{"2024-01-05 10:20:30.123456", 6, "2024-01-05 10:20:30.123456"},
		{"2024-01-05 10:20:30.1234565", 6, "2024-01-05 10:20:30.123457"}, // rounds half up
		{"2024-01-05 10:20:30.5", 0, "2024-01-05 10:20:31.000000"},
		{"2024-01-05 10:20:30.4999", 0, "2024-01-05 10:20:30.000000"},
		{"2024-12-31 23:59:59.9996", 3, "2025-01-01 00:00:00.000000"}, // the carry reaches the next year
		{"2024-02-29 00:00:00", 0, "2024-02-29 00:00:00.000000"},
		{"2023-02-29 00:00:00", 0, ""},
		{"2024-13-01 00:00:00", 0, ""},
		{"2024-01-05 24:00:00", 0, ""},
		{"2024-01-05 10:60:00", 0, ""},
		{"0000-00-00 00:00:00", 0, ""},
		{"2024-01-05 10:20:30.x", 0, ""},
		{"2024-01-05 10", 0, ""},
		{"yesterday", 0, ""},
		{"", 0, ""},
		{"2024-01-05abc", 0, ""},
		{"2024-01-05 10:20:30+05:30", 0, "2024-01-05 04:50:30.000000"},
		{"2024-01-05 01:00:00.25-08:00", 2, "2024-01-05 09:00:00.250000"},
		{"2024-01-05 23:00:00-13:59", 0, "2024-01-06 12:59:00.000000"},
		{"2024-01-05 10:00:00+14:01", 0, ""},
		{"2024-01-05 10:00:00+5:30", 0, ""},
	}
	for _, c := range cases {
		us, ok := ParseDatetime(c.in, c.fsp)
		got := ""
		if ok {
			got = FormatDatetime(us, 6)
		}
		if got != c.want {
			t.Errorf("ParseDatetime(%q, %d) = %q, want %q", c.in, c.fsp, got, c.want)
		}
	}
}

// TestDatetimeAgainstTimePackage checks the calendar conversions against
// Go's time package over random instants of years 1000..9999.
func TestDatetimeAgainstTimePackage(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		us := MinDatetime + r.Int63n(MaxDatetime-MinDatetime+1)
		want := time.UnixMicro(us).UTC()
		y, mo, d, h, mi, s, micro := DatetimeParts(us)
		if y != want.Year() || mo != int(want.Month()) || d != want.Day() || h != want.Hour() ||
			mi != want.Minute() || s != want.Second() || micro != want.Nanosecond()/1000 {
			t.Fatalf("DatetimeParts(%d) = %d-%d-%d %d:%d:%d.%d, want %v", us, y, mo, d, h, mi, s, micro, want)
		}
		text := FormatDatetime(us, 6)
		if w := want.Format("2006-01-02 15:04:05.000000"); text != w {
			t.Fatalf("FormatDatetime(%d) = %s, want %s", us, text, w)
		}
		back, ok := ParseDatetime(text, 6)
		if !ok || back != us {
			t.Fatalf("ParseDatetime(%s) = %d, %v; want %d", text, back, ok, us)
		}
		if DatetimeFromParts(y, mo, d, h, mi, s, micro) != us {
			t.Fatalf("DatetimeFromParts of %s", text)
		}
		// Rounding to fsp digits: the nearest multiple, halves up.
		fsp := r.Intn(7)
		unit := Pow10[6-fsp]
		want0 := want.Round(time.Duration(unit) * time.Microsecond).UnixMicro()
		if got := RoundDatetime(us, fsp); got != want0 {
			t.Fatalf("RoundDatetime(%s, %d) = %s, want %s", text, fsp, FormatDatetime(got, 6), FormatDatetime(want0, 6))
		}
	}
}

func TestDatetimeNumbers(t *testing.T) {
	us, _ := ParseDatetime("2024-01-05 10:20:30", 0)
	if n := DatetimeToNumber(us); n != 20240105102030 {
		t.Errorf("DatetimeToNumber = %d", n)
	}
	for in, want := range map[int64]string{20240105102030: "2024-01-05 10:20:30", 20240105: "2024-01-05 00:00:00",
		240105: "2024-01-05 00:00:00", 991231235959: "1999-12-31 23:59:59", 20241305000000: "", 0: "", -1: ""} {
		us, ok := DatetimeFromNumber(in)
		got := ""
		if ok {
			got = FormatDatetime(us, 0)
		}
		if got != want {
			t.Errorf("DatetimeFromNumber(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestDatetimeRanges(t *testing.T) {
	dt, ts := TDatetime(0), Type{ID: Datetime, Timestamp: true}
	for _, c := range []struct {
		text   string
		dt, ts bool
	}{
		{"1000-01-01 00:00:00", true, false},
		{"0999-12-31 23:59:59", false, false},
		{"9999-12-31 23:59:59.999999", true, false},
		{"1970-01-01 00:00:00", true, false},
		{"1970-01-01 00:00:01", true, true},
		{"2038-01-19 03:14:07.999999", true, true},
		{"2038-01-19 03:14:08", true, false},
	} {
		us, ok := ParseDatetime(c.text, 6)
		if !ok {
			t.Fatalf("parse %s", c.text)
		}
		if dt.InDatetimeRange(us) != c.dt || ts.InDatetimeRange(us) != c.ts {
			t.Errorf("%s: DATETIME %v TIMESTAMP %v, want %v %v", c.text, dt.InDatetimeRange(us), ts.InDatetimeRange(us), c.dt, c.ts)
		}
	}
	if s := (Type{ID: Datetime, Scale: 3, Timestamp: true}).String(); s != "TIMESTAMP(3)" {
		t.Errorf("String() = %s", s)
	}
}

// TestParquetTimestamps loads timestamp columns of every unit (and a
// date) into DATETIME(fsp) columns: values convert to microseconds and
// round to the column's fsp; a value outside the range fails naming it.
func TestParquetTimestamps(t *testing.T) {
	units := []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond}
	fields := []arrow.Field{}
	for _, u := range units {
		fields = append(fields, arrow.Field{Name: "t" + u.String(), Type: &arrow.TimestampType{Unit: u, TimeZone: "UTC"}, Nullable: true})
	}
	fields = append(fields, arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date32})
	base := time.Date(2024, 1, 5, 10, 20, 30, 123456789, time.UTC)
	rec := record(fields, func(b *array.RecordBuilder) {
		for i, u := range units {
			v := arrow.Timestamp(base.UnixNano() / int64(u.Multiplier()))
			b.Field(i).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{v, -1, 0}, []bool{true, true, false})
		}
		b.Field(4).(*array.Date32Builder).AppendValues([]arrow.Date32{19727, -1, 0}, nil)
	})
	defer rec.Release()
	p := writeParquet(t, "ts.parquet", 10, rec)
	inferred, err := ParquetFields(p)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, f := range inferred {
		types = append(types, f.Type.String())
	}
	// Parquet has no seconds unit: the writer stores them as milliseconds.
	if got := join(types); got != "DATETIME(3),DATETIME(3),DATETIME(6),DATETIME(6),DATE" {
		t.Errorf("inferred types %s", got)
	}
	target := []Field{{Name: "ts", Type: TDatetime(0), Nullable: true}, {Name: "tms", Type: TDatetime(3), Nullable: true},
		{Name: "tus", Type: TDatetime(6), Nullable: true}, {Name: "tns", Type: TDatetime(6), Nullable: true},
		{Name: "d", Type: TDatetime(0)}}
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
				cells = append(cells, FormatDatetime(c.I64[r], c.Type.Scale))
			}
		}
		got = append(got, join(cells))
	}
	eqLines(t, got, []string{
		"2024-01-05 10:20:30,2024-01-05 10:20:30.123,2024-01-05 10:20:30.123456,2024-01-05 10:20:30.123457,2024-01-05 00:00:00",
		"1969-12-31 23:59:59,1969-12-31 23:59:59.999,1969-12-31 23:59:59.999999,1970-01-01 00:00:00.000000,1969-12-31 00:00:00",
		"NULL,NULL,NULL,NULL,1970-01-01 00:00:00",
	})
	ts := []Field{{Name: "ts", Type: Type{ID: Datetime, Timestamp: true}, Nullable: true}}
	if _, err := LoadParquet(NewEmptyTable("y", ts), p, ParquetOptions{}); err == nil || !contains(err.Error(), "1969-12-31 23:59:59.000000 is out of range for TIMESTAMP") {
		t.Errorf("TIMESTAMP before 1970: %v", err)
	}
}

func join(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
