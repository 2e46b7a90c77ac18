package planner

import (
	"math"
	"testing"
)

// A column read for rows alive with probability p costs the sectors that
// hold one of them: a 4-byte column's sector is one thread's 8 rows, a
// 1-byte column's 32 rows; the first read costs everything.
func TestSectorShare(t *testing.T) {
	for _, c := range []struct{ alive, perRow, want float64 }{
		{1, 4, 1}, {0.5, 4, 1 - math.Pow(0.5, 8)}, {0.01, 4, 1 - math.Pow(0.99, 8)},
		{0.01, 1, 1 - math.Pow(0.99, 32)}, {0.01, 8, 1 - math.Pow(0.99, 8)}, {0, 4, 0},
	} {
		if got := sectorShare(c.alive, c.perRow); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("sectorShare(%g, %g) = %g, want %g", c.alive, c.perRow, got, c.want)
		}
	}
}
