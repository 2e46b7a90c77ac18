package exec

import (
	"bytes"
	"math"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"

	"gpusql/storage/columnar"
)

func TestFormatDecimal(t *testing.T) {
	for _, tc := range []struct {
		v     int64
		scale int
		want  string
	}{
		{1250, 2, "12.50"},
		{-1250, 2, "-12.50"},
		{5, 2, "0.05"},
		{-5, 3, "-0.005"},
		{0, 2, "0.00"},
		{42, 0, "42"},
		{math.MinInt64, 4, "-922337203685477.5808"},
		{math.MaxInt64, 18, "9.223372036854775807"},
	} {
		if got := FormatDecimal(tc.v, tc.scale); got != tc.want {
			t.Errorf("FormatDecimal(%d,%d) = %q, want %q", tc.v, tc.scale, got, tc.want)
		}
	}
}

func TestFormatDouble(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0.1, "0.1"},
		{1.5, "1.5"},
		{-2, "-2"},
		{123456789012, "123456789012"},
		{1e20, "1e20"},
		{1.5e-7, "1.5e-7"},
		{0, "0"},
		{1.0 / 3, "0.3333333333333333"},
	} {
		if got := FormatDouble(tc.f); got != tc.want {
			t.Errorf("FormatDouble(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestFormatDate(t *testing.T) {
	for _, tc := range []struct {
		d    int32
		want string
	}{{0, "1970-01-01"}, {9131, "1995-01-01"}, {-1, "1969-12-31"}} {
		if got := FormatDate(tc.d); got != tc.want {
			t.Errorf("FormatDate(%d) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// sampleResult has one column of each type, the second row all NULL.
func sampleResult() *Result {
	types := []columnar.Type{columnar.TInt32, columnar.TInt64, columnar.TFloat64,
		columnar.TDecimal(10, 2), columnar.TDate, columnar.TBool, columnar.TString}
	r := &Result{Rows: 2}
	for i, ty := range types {
		c := columnar.NewColumn(ty, 2, true)
		c.SetValid(0)
		switch ty.Physical() {
		case columnar.PhysInt32:
			c.I32[0] = 1
		case columnar.PhysInt64:
			c.I64[0] = 1250
		case columnar.PhysFloat64:
			c.F64[0] = 0.5
		}
		if ty.ID == columnar.String {
			c.Dict = columnar.BuildDictionary([]string{"abc", "zzz"})
		}
		r.Columns = append(r.Columns, c)
		r.Names = append(r.Names, string(rune('a'+i)))
	}
	return r
}

func TestRecord(t *testing.T) {
	r := sampleResult()
	rec := r.Record()
	defer rec.Release()
	if rec.NumRows() != 2 || rec.NumCols() != 7 {
		t.Fatalf("record is %dx%d", rec.NumRows(), rec.NumCols())
	}
	for i := 0; i < 7; i++ {
		if !rec.Column(i).IsNull(1) || rec.Column(i).IsNull(0) {
			t.Errorf("column %d: NULLs not preserved", i)
		}
	}
	if v := rec.Column(0).(*array.Int32).Value(0); v != 1 {
		t.Errorf("int32 = %d", v)
	}
	if v := rec.Column(1).(*array.Int64).Value(0); v != 1250 {
		t.Errorf("int64 = %d", v)
	}
	dt := rec.Column(3).DataType().(*arrow.Decimal128Type)
	if dt.Scale != 2 || dt.Precision != 10 {
		t.Errorf("decimal type %v", dt)
	}
	if v := rec.Column(3).(*array.Decimal128).Value(0); v.LowBits() != 1250 {
		t.Errorf("decimal = %v", v)
	}
	if v := rec.Column(4).(*array.Date32).Value(0); v != 1 {
		t.Errorf("date = %d", v)
	}
	if v := rec.Column(5).(*array.Boolean).Value(0); !v {
		t.Errorf("bool = %v", v)
	}
	if v := rec.Column(6).(*array.String).Value(0); v != "zzz" {
		t.Errorf("string = %q", v)
	}
	want := []string{"1", "1250", "0.5", "12.50", "1970-01-02", "1", "zzz"}
	for i, s := range r.Row(0) {
		if s != want[i] {
			t.Errorf("Row(0)[%d] = %q, want %q", i, s, want[i])
		}
	}
	for i, s := range r.Row(1) {
		if s != "NULL" {
			t.Errorf("Row(1)[%d] = %q, want NULL", i, s)
		}
	}
}

// TestJSONArrowField: a JSON column is a UTF-8 string field carrying the
// canonical arrow.json extension name, its values the JSON text.
func TestJSONArrowField(t *testing.T) {
	col := columnar.NewColumn(columnar.TJSON, 1, false)
	col.Dict = columnar.BuildDictionary([]string{`{"a": 1}`})
	r := &Result{Names: []string{"j"}, Columns: []*columnar.Column{col}, Rows: 1}
	rec := r.Record()
	defer rec.Release()
	f := rec.Schema().Field(0)
	if name, _ := f.Metadata.GetValue("ARROW:extension:name"); name != "arrow.json" || f.Type.ID() != arrow.STRING {
		t.Errorf("field %v", f)
	}
	if v := rec.Column(0).(*array.String).Value(0); v != `{"a": 1}` {
		t.Errorf("value %q", v)
	}
	// It travels through Arrow IPC (what Flight sends) as it is.
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	rd, err := ipc.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Release()
	if !rd.Next() {
		t.Fatal("no record read back")
	}
	back := rd.Record()
	if v := back.Column(0).(*array.String).Value(0); v != `{"a": 1}` || !back.Schema().Equal(rec.Schema()) {
		t.Errorf("read back %q, schema %v", v, back.Schema())
	}
}
