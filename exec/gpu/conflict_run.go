package gpu

import (
	"fmt"
	"slices"
)

// ConflictRun is one run of the shared-memory conflict benchmark
// (kernels/conflict_bench.cu): a fact column of values in [0, Distinct)
// hitting a table of Distinct entries in shared memory, in one layout.
type ConflictRun struct {
	// Join: a foreign-key join gathering Payload[value] (reads); else a
	// grouped SUM of Measure by value (atomics).
	Join bool
	// Keys: per row its value (plain, lane-replicated) or its slot
	// (remapped, with SlotValue: per slot its value, -1 for none).
	Keys      []int32
	SlotValue []int32
	// Replicas: copies of the table, lane l of a warp using copy l mod
	// Replicas (1: plain or remapped).
	Replicas int
	Distinct int
	Measure  []int32
	Payload  []int32
	// Runs: timed runs after one warm-up; the median is reported.
	Runs int
}

// ConflictResult is a ConflictRun's median kernel time and result: per
// value the SUM (group) or the one payload sum (join).
type ConflictResult struct {
	KernelMs    float64
	Sums        []uint64
	BlocksPerSM int
	SharedBytes int
}

func (r ConflictRun) check() error {
	switch {
	case r.Distinct <= 0:
		return fmt.Errorf("conflict bench: %d distinct values", r.Distinct)
	case r.Join && len(r.Payload) != r.Distinct:
		return fmt.Errorf("conflict bench: %d payloads for %d values", len(r.Payload), r.Distinct)
	case !r.Join && len(r.Measure) != len(r.Keys):
		return fmt.Errorf("conflict bench: %d measures for %d rows", len(r.Measure), len(r.Keys))
	case r.SlotValue != nil && r.Replicas > 1:
		return fmt.Errorf("conflict bench: a remapped table has one copy")
	}
	// The kernel indexes shared memory by key unchecked.
	entries := r.Distinct
	if r.SlotValue != nil {
		entries = len(r.SlotValue)
	}
	for i, k := range r.Keys {
		if k < 0 || int(k) >= entries {
			return fmt.Errorf("conflict bench: row %d: key %d outside the table's %d entries", i, k, entries)
		}
	}
	for s, v := range r.SlotValue {
		if v < -1 || int(v) >= r.Distinct {
			return fmt.Errorf("conflict bench: slot %d: value %d outside [0, %d)", s, v, r.Distinct)
		}
	}
	return nil
}

// copyLists lists each value's slots of a remapped table (nil for the
// others): value v's are slots[start[v]:start[v+1]].
func copyLists(slotValue []int32, distinct int) (start, slots []int32) {
	if slotValue == nil {
		return nil, nil
	}
	start = make([]int32, distinct+1)
	for _, v := range slotValue {
		if v >= 0 {
			start[v+1]++
		}
	}
	for v := range distinct {
		start[v+1] += start[v]
	}
	slots = make([]int32, start[distinct])
	next := slices.Clone(start[:distinct])
	for s, v := range slotValue {
		if v >= 0 {
			slots[next[v]] = int32(s)
			next[v]++
		}
	}
	return start, slots
}
