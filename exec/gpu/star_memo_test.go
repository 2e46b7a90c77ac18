//go:build cuda

package gpu

import (
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// A star's executor form is made once per plan and shared by its next
// runs; another plan gets its own, and past maxStarMemo plans the oldest
// is made again (no device needed).
func TestStarMemo(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	var stars []*planner.GPUStar
	for len(stars) < maxStarMemo+2 {
		for _, sq := range ssbtest.Queries(t, cat) {
			p, err := planner.Plan(sq.Query, planner.Options{GPU: planner.DefaultGPUProfile()})
			if err != nil {
				t.Fatal(err)
			}
			if p.GPU.Star != nil {
				stars = append(stars, p.GPU.Star)
			}
		}
	}
	first, _, err := starOf(stars[0])
	if err != nil {
		t.Fatal(err)
	}
	if again, _, _ := starOf(stars[0]); again != first {
		t.Fatal("the same plan's star was made again")
	}
	if other, _, _ := starOf(stars[1]); other == first {
		t.Fatal("another plan got the first plan's star")
	}
	for _, s := range stars[2 : maxStarMemo+2] {
		if _, _, err := starOf(s); err != nil {
			t.Fatal(err)
		}
	}
	if again, _, _ := starOf(stars[0]); again == first {
		t.Fatalf("the oldest of %d plans was kept past %d", maxStarMemo+2, maxStarMemo)
	}
}
