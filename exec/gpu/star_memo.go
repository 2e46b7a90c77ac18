//go:build cuda

package gpu

import (
	"sync"
	"weak"

	"gpusql/planner"
)

// The engine's plan cache hands every run of a repeated statement the same
// GPU plan, whose star starFromPlan turns into the executor's form (maps of
// predicates, the expression VM's compile checks): a few microseconds of
// a warm query's host time, the same every run. So the form is kept per
// plan, keyed by the star (a weak pointer: a dropped plan's entry matches
// nothing and ages out), read-only and shared by concurrent runs; at most
// maxStarMemo entries, the oldest dropped first. A star the executor
// refuses is not kept: its error comes again.

const maxStarMemo = 64

type starMemoEntry struct {
	key  weak.Pointer[planner.GPUStar]
	q    *starQuery
	outs []starOutput
}

var starMemo struct {
	mu      sync.Mutex
	entries []starMemoEntry
}

// starOf is starFromPlan(s), kept for s's next runs.
func starOf(s *planner.GPUStar) (*starQuery, []starOutput, error) {
	key := weak.Make(s)
	starMemo.mu.Lock()
	for _, e := range starMemo.entries {
		if e.key == key {
			starMemo.mu.Unlock()
			return e.q, e.outs, nil
		}
	}
	starMemo.mu.Unlock()
	q, outs, err := starFromPlan(s)
	if err != nil {
		return nil, nil, err
	}
	starMemo.mu.Lock()
	defer starMemo.mu.Unlock()
	if len(starMemo.entries) >= maxStarMemo {
		starMemo.entries = starMemo.entries[1:]
	}
	starMemo.entries = append(starMemo.entries, starMemoEntry{key, q, outs})
	return q, outs, nil
}
