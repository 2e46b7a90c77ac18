package gpu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRadixPlan: the passes a plan names, and that sorting by them (a
// host model of the device's stable passes, with the 32-bit narrowing)
// orders any key set drawn inside the plan's bounds.
func TestRadixPlan(t *testing.T) {
	for _, c := range []struct {
		lo, hi uint64
		shifts []int32
		narrow bool
	}{
		{5, 5, nil, false},
		{1 << 63, 1<<63 + 255, []int32{0}, true},
		{1 << 63, 1<<63 + 256, []int32{0, 8}, true},
		{255, 256, []int32{0}, true},
		{0, 1<<32 - 1, []int32{0, 8, 16, 24}, true},
		{0, 1 << 32, []int32{0, 8, 16, 24, 32}, false},
		{0, ^uint64(0), []int32{0, 8, 16, 24, 32, 40, 48, 56}, false},
	} {
		p := planFromRange(c.lo, c.hi)
		if !slices.Equal(p.shifts, c.shifts) || p.narrow != c.narrow || (len(c.shifts) > 0 && p.sub != c.lo) {
			t.Errorf("planFromRange(%#x, %#x) = %+v, want shifts %v narrow %v", c.lo, c.hi, p, c.shifts, c.narrow)
		}
	}
	if p := planFromMasks(0x8000_0000_0000_0000, 0x8000_0000_00ff_00ff); !slices.Equal(p.shifts, []int32{0, 16}) || !p.narrow || p.sub != 0 {
		t.Errorf("planFromMasks: %+v", p)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, span := range []uint64{1, 200, 1 << 20, 1<<32 - 1, 1 << 40, ^uint64(0)} {
		lo := rng.Uint64() >> 1
		if span == ^uint64(0) {
			lo = 0
		}
		keys := make([]uint64, 3000)
		and, or := ^uint64(0), uint64(0)
		for i := range keys {
			keys[i] = lo + rng.Uint64N(span)
			if i%7 == 0 {
				keys[i] = lo + span
			}
			and, or = and&keys[i], or|keys[i]
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		for name, p := range map[string]radixPlan{"range": planFromRange(slices.Min(keys), slices.Max(keys)), "masks": planFromMasks(and, or)} {
			if got := modelRadixSort(keys, p); !slices.Equal(got, want) {
				t.Errorf("span %#x, plan from %s %+v: not sorted", span, name, p)
			}
		}
	}
}

// modelRadixSort sorts keys as kernels/radix_sort.cu's passes do under
// plan p: stable counting passes on the digits of key - sub, the keys
// truncated to 32 bits after the first pass when narrow; the result is
// the keys in the final order.
func modelRadixSort(keys []uint64, p radixPlan) []uint64 {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	rel := make([]uint64, len(keys))
	for i, k := range keys {
		rel[i] = k - p.sub
		if p.narrow {
			rel[i] = uint64(uint32(rel[i]))
		}
	}
	for _, s := range p.shifts {
		slices.SortStableFunc(idx, func(a, b int) int { return int((rel[a]>>s)&0xff) - int((rel[b]>>s)&0xff) })
	}
	// The keys as a later pass writes them back (rel + base) must be the
	// encoded keys themselves.
	out := make([]uint64, len(keys))
	for i, j := range idx {
		out[i] = rel[j] + p.base
	}
	return out
}

// TestRadixPlanBytes: uniform 32-bit keys cost 106 B a row (the figure
// kernels/radix_sort.cu's bound states); one pass over 8-byte keys 38.5,
// 46.5 with the sorted keys written back.
func TestRadixPlanBytes(t *testing.T) {
	if got := planFromRange(0, 1<<32-1).bytesPerRow(false); got != 106 {
		t.Errorf("32-bit keys: %v B a row, want 106", got)
	}
	if got := planFromRange(0, 200).bytesPerRow(false); got != 38.5 {
		t.Errorf("one pass: %v B a row, want 38.5", got)
	}
	if got := planFromRange(0, 200).bytesPerRow(true); got != 46.5 {
		t.Errorf("one pass, keys back: %v B a row, want 46.5", got)
	}
}
