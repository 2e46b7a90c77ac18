package columnar

import "testing"

// TestYearRules: MySQL's YEAR conversions (manual, "The YEAR Type"), the
// string and numeric rules differing only on zero.
func TestYearRules(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int32
		ok   bool
	}{
		{"69", 2069, true}, {"70", 1970, true}, {"0", 2000, true}, {"00", 2000, true},
		{"1", 2001, true}, {"99", 1999, true}, {"0000", 0, true}, {" 1901 ", 1901, true},
		{"2155", 2155, true}, {"1900", 0, false}, {"2156", 0, false}, {"123", 0, false},
		{"-1", 0, false}, {"+5", 2005, true}, {"19x1", 0, false}, {"", 0, false}, {"20240", 0, false},
		// Field_year::store reads the text's number, rounding half up; a zero
		// spelt in four characters is 0000, as '0000' is.
		{"2002.5", 2003, true}, {"2002.4", 2002, true}, {"2.0025e3", 2003, true}, {"69.5", 1970, true},
		{"99.5", 0, false}, {"1900.5", 1901, true}, {"0.0", 2000, true}, {"-0.4", 0, true}, {"-0.44", 2000, true},
		{"1e3", 0, false}, {"2002.5x", 0, false}, {".", 0, false}, {"2155.5", 0, false},
	} {
		got, ok := ParseYear(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseYear(%q) = %d,%v want %d,%v", c.in, got, ok, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in   int64
		want int32
		ok   bool
	}{
		{0, 0, true}, {1, 2001, true}, {69, 2069, true}, {70, 1970, true}, {99, 1999, true},
		{100, 0, false}, {1900, 0, false}, {1901, 1901, true}, {2155, 2155, true}, {2156, 0, false}, {-1, 0, false},
	} {
		got, ok := YearFromNumber(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("YearFromNumber(%d) = %d,%v want %d,%v", c.in, got, ok, c.want, c.ok)
		}
	}
	if FormatYear(0) != "0000" || FormatYear(1999) != "1999" {
		t.Errorf("FormatYear: %s %s", FormatYear(0), FormatYear(1999))
	}
}
