package sql

import (
	"testing"

	"gpusql/storage/columnar"
)

func TestParseAndFormatDate(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		back string
	}{
		{"1970-01-01", true, "1970-01-01"},
		{"1995-03-15", true, "1995-03-15"},
		{"19950315", true, "1995-03-15"},
		{"1995/3/5", true, "1995-03-05"},
		{"2024-02-29 10:00:00", true, "2024-02-29"},
		{"1969-12-31", true, "1969-12-31"},
		{"2023-02-29", false, ""},
		{"1995-13-01", false, ""},
		{"abc", false, ""},
		{"", false, ""},
	}
	for _, c := range cases {
		d, ok := ParseDate(c.in)
		if ok != c.ok || (ok && FormatDate(d) != c.back) {
			t.Errorf("ParseDate(%q) = %d,%v (%s)", c.in, d, ok, FormatDate(d))
		}
	}
	if d, _ := ParseDate("1970-01-02"); d != 1 {
		t.Errorf("1970-01-02 = %d, want 1", d)
	}
}

func TestAddDate(t *testing.T) {
	cases := []struct {
		from string
		n    int64
		unit string
		want string
	}{
		{"2024-01-31", 1, "month", "2024-02-29"},
		{"2023-01-31", 1, "month", "2023-02-28"},
		{"2024-02-29", 1, "year", "2025-02-28"},
		{"2024-03-31", -1, "month", "2024-02-29"},
		{"1995-12-31", 1, "day", "1996-01-01"},
		{"1995-01-15", -13, "month", "1993-12-15"},
		{"9999-12-30", 1, "day", "9999-12-31"},
		{"9999-12-31", 1, "day", "NULL"}, // past MySQL's DATE range
		{"9999-12-31", 1, "month", "NULL"},
		{"2024-01-01", 8000, "year", "NULL"},
		{"0000-01-01", -1, "day", "NULL"},
		{"2024-01-01", -2024, "year", "0000-01-01"},
		{"2024-01-01", 1 << 62, "day", "NULL"},
	}
	for _, c := range cases {
		d, ok := ParseDate(c.from)
		if !ok {
			t.Fatalf("ParseDate(%q) failed", c.from)
		}
		got := "NULL"
		if v, ok := AddDate(d, c.n, c.unit); ok {
			got = FormatDate(v)
		}
		if got != c.want {
			t.Errorf("%s + %d %s = %s, want %s", c.from, c.n, c.unit, got, c.want)
		}
	}
}

func TestLikeMatch(t *testing.T) {
	cases := []struct {
		s, p string
		want bool
	}{
		{"MFGR#12", "MFGR#1%", true},
		{"MFGR#12", "MFGR#1_", true},
		{"MFGR#1", "MFGR#1_", false},
		{"abc", "%", true},
		{"", "%", true},
		{"", "_", false},
		{"a%c", "a\\%c", true},
		{"abc", "a\\%c", false},
		{"xaxbx", "%a%b%", true},
		{"aaa", "%a%a%a%a%", false},
		{"héllo", "h_llo", true},
	}
	for _, c := range cases {
		if got := LikeMatch(c.s, c.p); got != c.want {
			t.Errorf("LikeMatch(%q, %q) = %v", c.s, c.p, got)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	cases := []struct {
		s     string
		scale int
		want  int64
		ok    bool
	}{
		{"1.25", 2, 125, true},
		{"-1.25", 1, -13, true},
		{"1.24", 1, 12, true},
		{"7", 3, 7000, true},
		{".5", 0, 1, true},
		{"12a", 0, 0, false},
		{"1234567890123456789", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, c := range cases {
		got, ok := ParseDecimal(c.s, c.scale)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("ParseDecimal(%q,%d) = %d,%v", c.s, c.scale, got, ok)
		}
	}
	if FormatDecimal(-5, 2) != "-0.05" || FormatDecimal(12345, 2) != "123.45" {
		t.Errorf("FormatDecimal: %s %s", FormatDecimal(-5, 2), FormatDecimal(12345, 2))
	}
}

func TestConvertConst(t *testing.T) {
	i := func(v int64) *Const { return &Const{T: columnar.TInt32, I: v} }
	s := func(v string) *Const { return &Const{T: columnar.TString, S: v} }
	dec := columnar.TDecimal(10, 2)
	cases := []struct {
		c    *Const
		t    columnar.Type
		want string
		ok   bool
	}{
		{i(5), dec, "5.00", true},
		{&Const{T: dec, I: 12345}, columnar.TInt64, "123", true},
		{&Const{T: dec, I: 12355}, columnar.TDecimal(10, 1), "123.6", true},
		{s(" 42 "), columnar.TInt32, "42", true},
		{s("3.7abc"), columnar.TInt64, "4", true},
		{s("x"), columnar.TInt32, "", false},
		{s("1.5"), columnar.TFloat64, "1.5", true},
		{s("1995-03-15"), columnar.TDate, "DATE '1995-03-15'", true},
		{i(19950315), columnar.TDate, "DATE '1995-03-15'", true},
		{&Const{T: columnar.TInt64, I: 1 << 40}, columnar.TInt32, "", false},
		{&Const{T: columnar.TFloat64, F: 2.5}, columnar.TInt32, "2", true}, // a DOUBLE's tie to even (rint)
		{&Const{T: columnar.TFloat64, F: 3.5}, columnar.TInt32, "4", true},
		{&Const{T: columnar.TFloat64, F: -0.5}, columnar.TInt64, "0", true},
		{i(7), columnar.TString, "'7'", true},
		{&Const{T: columnar.TDate, I: 0}, columnar.TString, "'1970-01-01'", true},
		{&Const{T: columnar.TDate, I: 0}, columnar.TInt64, "19700101", true},
		{&Const{T: columnar.TInt64, I: 123456789012}, columnar.TDecimal(10, 2), "", false},
	}
	for _, c := range cases {
		got, ok := convertConst(c.c, c.t)
		if ok != c.ok || (ok && constString(got) != c.want) {
			s := ""
			if got != nil {
				s = constString(got)
			}
			t.Errorf("convertConst(%s, %s) = %s,%v want %s,%v", constString(c.c), c.t, s, ok, c.want, c.ok)
		}
	}
}
