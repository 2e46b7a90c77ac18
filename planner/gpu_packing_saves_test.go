package planner

import "testing"

// A packed transfer pays for its staging and unpacking pass only when it
// saves an eighth of the bytes and 64 KiB.
func TestTransferSaves(t *testing.T) {
	for _, c := range []struct {
		plain, packed int64
		want          bool
	}{{12, 388, false}, {1 << 20, 1 << 17, true}, {1 << 20, 880 << 10, true}, {1 << 20, 940 << 10, false}, {100 << 10, 10 << 10, true}, {40 << 10, 5 << 10, false}} {
		if got := transferSaves(c.plain, c.packed); got != c.want {
			t.Errorf("transferSaves(%d, %d) = %v, want %v", c.plain, c.packed, got, c.want)
		}
	}
}
