package columnar

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// zipfValues draws n values in [0, c) under Zipf skew theta (0: uniform).
func zipfValues(n, c int, theta float64, seed int64) []int32 {
	r := rand.New(rand.NewSource(seed))
	out := make([]int32, n)
	if theta == 0 {
		for i := range out {
			out[i] = int32(r.Intn(c))
		}
		return out
	}
	if theta > 1 {
		z := rand.NewZipf(r, theta, 1, uint64(c-1))
		for i := range out {
			out[i] = int32(z.Uint64())
		}
		return out
	}
	// rand.Zipf needs s > 1: inverse CDF over the weights 1/k^theta.
	cdf := make([]float64, c)
	sum := 0.0
	for k := range cdf {
		sum += 1 / pow(float64(k+1), theta)
		cdf[k] = sum
	}
	for i := range out {
		x := r.Float64() * sum
		lo, hi := 0, c-1
		for lo < hi {
			mid := (lo + hi) / 2
			if cdf[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		out[i] = int32(lo)
	}
	return out
}

func pow(x, y float64) float64 { return math.Pow(x, y) }

// Every row's slot copies its value, each value's copies sit in distinct
// banks within the budget, and the remapped layout serializes no more than
// the plain one, far less under skew.
func TestRemap(t *testing.T) {
	for _, atomic := range []bool{false, true} {
		for _, theta := range []float64{0, 0.5, 1, 1.5, 2} {
			vals := zipfValues(64*1024, 1024, theta, 1)
			o := DefaultRemapOptions()
			o.Atomic = atomic
			o.Budget = 32
			r, err := BuildRemap(vals, 1024, o)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if r.SlotValue[r.Slots[i]] != v {
					t.Fatalf("row %d: slot %d holds %d, want %d", i, r.Slots[i], r.SlotValue[r.Slots[i]], v)
				}
			}
			banks := map[int32]map[int]bool{}
			for s, v := range r.SlotValue {
				if v < 0 {
					continue
				}
				if banks[v] == nil {
					banks[v] = map[int]bool{}
				}
				if banks[v][s%o.Banks] {
					t.Fatalf("value %d has two copies in bank %d", v, s%o.Banks)
				}
				banks[v][s%o.Banks] = true
				if len(banks[v]) > o.Budget {
					t.Fatalf("value %d has %d copies, budget %d", v, len(banks[v]), o.Budget)
				}
			}
			plain := float64(r.PlainRounds) / float64(r.Chunks)
			remapped := float64(r.Rounds) / float64(r.Chunks)
			t.Logf("atomic=%v theta=%.1f: rounds per warp plain %.2f, remapped %.2f, %.2f copies per value",
				atomic, theta, plain, remapped, r.CopiesPerValue())
			if remapped > plain {
				t.Errorf("atomic=%v theta=%.1f: remapped %.2f rounds > plain %.2f", atomic, theta, remapped, plain)
			}
			if theta >= 1 && remapped > 1.5 {
				t.Errorf("atomic=%v theta=%.1f: %.2f rounds per warp after remapping", atomic, theta, remapped)
			}
		}
	}
}

func TestRemapBadInput(t *testing.T) {
	if _, err := BuildRemap([]int32{0, 5}, 4, DefaultRemapOptions()); err == nil {
		t.Error("a value outside the domain was accepted")
	}
	if _, err := BuildRemap(nil, 4, RemapOptions{}); err == nil {
		t.Error("zero banks were accepted")
	}
}

// With a window, a copy a chunk updates is not updated again by the next
// Window chunks (while warps are in flight together) when the budget
// allows it.
func TestRemapWindow(t *testing.T) {
	vals := zipfValues(32*1024, 1024, 0.5, 2)
	o := DefaultRemapOptions()
	o.Atomic, o.Window, o.Budget = true, 1, 32
	r, err := BuildRemap(vals, 1024, o)
	if err != nil {
		t.Fatal(err)
	}
	reused := 0
	for c := 1; c*o.Chunk < len(vals); c++ {
		prev := map[int32]bool{}
		for _, s := range r.Slots[(c-1)*o.Chunk : c*o.Chunk] {
			prev[s] = true
		}
		for _, s := range r.Slots[c*o.Chunk : min((c+1)*o.Chunk, len(vals))] {
			if prev[s] {
				reused++
			}
		}
	}
	if frac := float64(reused) / float64(len(vals)); frac > 0.01 {
		t.Errorf("%.2f%% of rows reuse a copy of the previous chunk", 100*frac)
	}
	if rounds := float64(r.Rounds) / float64(r.Chunks); rounds > 1.05 {
		t.Errorf("%.2f rounds per warp", rounds)
	}
}

// BenchmarkBuildRemap measures the load-time cost of remapping (rows/s).
func BenchmarkBuildRemap(b *testing.B) {
	for _, theta := range []float64{0, 1, 2} {
		vals := zipfValues(1<<20, 1024, theta, 3)
		b.Run(fmt.Sprintf("theta=%.0f", theta), func(b *testing.B) {
			o := DefaultRemapOptions()
			o.Atomic, o.Budget = true, 32
			for i := 0; i < b.N; i++ {
				if _, err := BuildRemap(vals, 1024, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(vals))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// LayoutRounds by brute force on tiny columns: one warp of one value is 32
// rounds of atomics in the plain layout, 32/R with R replicas, 1 for reads.
func TestLayoutRounds(t *testing.T) {
	same := make([]int32, 32)
	for _, c := range []struct {
		replicas int
		atomic   bool
		want     float64
	}{{1, true, 32}, {4, true, 8}, {32, true, 1}, {1, false, 1}, {4, false, 1}} {
		if got := LayoutRounds(same, c.replicas, 33, 32, 32, c.atomic); got != c.want {
			t.Errorf("replicas %d atomic %v: %v rounds, want %v", c.replicas, c.atomic, got, c.want)
		}
	}
	// Values 0, 32, 64, ...: one bank, distinct words: 32 rounds either way
	// in the plain layout; stride 33 replicas move copy r to bank r.
	oneBank := make([]int32, 40)
	for i := range oneBank {
		oneBank[i] = int32(32 * i)
	}
	if got := LayoutRounds(oneBank, 1, 0, 32, 32, false); got != (32+8)/2.0 {
		t.Errorf("one bank, plain: %v rounds, want 20 (32 and 8 over two chunks)", got)
	}
	if got := LayoutRounds(oneBank, 32, 1281, 32, 32, false); got != 1 {
		t.Errorf("one bank, 32 replicas of stride 1281: %v rounds, want 1", got)
	}
	if got := LayoutRounds(nil, 1, 0, 32, 32, true); got != 0 {
		t.Errorf("no rows: %v rounds", got)
	}
}
