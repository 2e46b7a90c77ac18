package columnar

import (
	"strconv"
	"testing"
)

func TestEightDigits(t *testing.T) {
	for _, s := range []string{"0", "7", "42", "999", "1234", "56789", "100000", "1234567", "99999999", "00000001", "12a4", "1:", "/1", "-1", "1 2"} {
		b := []byte(s + "|xxxxxxxx")
		v, ok := eightDigits(b[:8], len(s))
		want, err := strconv.ParseUint(s, 10, 64)
		if ok != (err == nil) || (ok && v != want) {
			t.Errorf("eightDigits(%q) = %d, %v; want %d, %v", s, v, ok, want, err == nil)
		}
	}
}
