package sql

import "testing"

// DivisionScale follows strings/decimal.c's do_div_mod: each operand's
// fraction digits rounded up to 9-digit words, div_precision_increment (4)
// lessened by the digits that added, the sum rounded up to words.
func TestDivisionScale(t *testing.T) {
	for _, c := range []struct{ sl, sr, want int }{
		{0, 0, 9},   // 1/3: 0.333333333
		{2, 0, 9},   // 2.00/3: incr 4 - 7 < 0
		{0, 2, 9},   // 1/2.25
		{2, 2, 18},  // 2.00/1.50: two words
		{5, 0, 9},   // incr 4 - 4 = 0
		{6, 0, 18},  // incr 4 - 3 = 1: 9 + 1 rounds up to 18
		{9, 0, 18},  // (1/3)/3
		{18, 0, 27}, // ((1/3)/3)/3
		{27, 0, 30}, // at most the 30 MySQL's types keep
		{0, 11, 18}, // 7 / 3.00000000000
	} {
		if got := DivisionScale(c.sl, c.sr); got != c.want {
			t.Errorf("DivisionScale(%d, %d) = %d, want %d", c.sl, c.sr, got, c.want)
		}
	}
}
