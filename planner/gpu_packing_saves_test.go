package planner

import "testing"

// A packed transfer pays for its staging and unpacking pass only when it
// saves an eighth of the bytes and 32 MiB.
func TestTransferSaves(t *testing.T) {
	for _, c := range []struct {
		plain, packed int64
		want          bool
	}{{12, 388, false}, {1 << 30, 1 << 27, true}, {1 << 30, 880 << 20, true}, {1 << 30, 940 << 20, false}, {100 << 20, 10 << 20, true}, {24 << 20, 3 << 20, false}} {
		if got := transferSaves(c.plain, c.packed); got != c.want {
			t.Errorf("transferSaves(%d, %d) = %v, want %v", c.plain, c.packed, got, c.want)
		}
	}
}
