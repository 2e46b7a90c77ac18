//go:build cuda

package gpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// TestRadixSortDevice sorts one 8-byte key column on the device at sizes
// around the 4096-row tile and in the millions, over key sets whose
// ranges take one to eight passes (one value; few values; skew; uniform
// 32-bit; negatives; full 64-bit), ascending and descending, and checks
// the permutation against a stable sort on the host; the join's
// one-key sort (sortedOneKey) must also hand back the sorted encoded keys.
func TestRadixSortDevice(t *testing.T) {
	d := needGPU(t)
	rng := rand.New(rand.NewPCG(9, 9))
	gens := map[string]func() int64{
		"one value":  func() int64 { return 42 },
		"few values": func() int64 { return rng.Int64N(5) },
		"skew": func() int64 {
			if rng.IntN(10) > 0 {
				return 7
			}
			return rng.Int64N(1 << 20)
		},
		"uniform 32-bit": func() int64 { return int64(rng.Uint32()) },
		"negatives":      func() int64 { return rng.Int64N(1<<36) - 1<<35 },
		"64-bit":         func() int64 { return int64(rng.Uint64()) },
	}
	for _, n := range []int{1, 2, 4095, 4097, 100003, 3<<20 + 1} {
		for name, gen := range gens {
			if n > 200000 && name != "uniform 32-bit" && name != "skew" {
				continue
			}
			keys := make([]int64, n)
			for i := range keys {
				keys[i] = gen()
			}
			for _, desc := range []bool{false, true} {
				want := make([]int32, n)
				for i := range want {
					want[i] = int32(i)
				}
				slices.SortStableFunc(want, func(a, b int32) int {
					c := cmpInt64(keys[a], keys[b])
					if desc {
						c = -c
					}
					return c
				})
				var got []int32
				var sortedKeys []uint64
				err := d.do(func() error {
					q := d.newQueryRun()
					defer q.close()
					kv, err := q.uploadKeys(keys)
					if err != nil {
						return err
					}
					perm, err := q.sortPerm(int64(n), []sortKey{{v: kv, desc: desc}}, false)
					if err != nil {
						return err
					}
					got = make([]int32, n)
					if err := cu.MemcpyDtoH(unsafe.Pointer(&got[0]), perm, int64(4*n)); err != nil {
						return err
					}
					if desc {
						return nil
					}
					side, err := q.sortedOneKey(int64(n), sortKey{v: kv})
					if err != nil {
						return err
					}
					sortedKeys = make([]uint64, n)
					return cu.MemcpyDtoH(unsafe.Pointer(&sortedKeys[0]), cu.DevicePtr(side.keys[0]), int64(8*n))
				})
				if err != nil {
					t.Fatalf("%s n=%d desc=%v: %v", name, n, desc, err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s n=%d desc=%v: permutation differs from a stable host sort", name, n, desc)
				}
				for i := range sortedKeys {
					if sortedKeys[i] != uint64(keys[want[i]])^1<<63 {
						t.Errorf("%s n=%d: sorted key %d is %#x, want %#x", name, n, i, sortedKeys[i], uint64(keys[want[i]])^1<<63)
						break
					}
				}
			}
		}
	}
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BenchmarkRadixSort sorts n uniform 32-bit keys (an 8-byte column, as the
// join's keys are) on the device, the upload outside the timer: Gkeys/s,
// and the plan's modelled HBM bytes (radixPlan.bytesPerRow) over the time
// against the profile's HBM bandwidth.
func BenchmarkRadixSort(b *testing.B) {
	d := needGPU(b)
	for _, n := range []int{4 << 20, 16 << 20, 64 << 20} {
		b.Run(sizeLabel(n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 5))
			keys := make([]int64, n)
			for i := range keys {
				keys[i] = int64(rng.Uint32())
			}
			var elapsed float64
			for i := 0; i < b.N; i++ {
				err := d.do(func() error {
					q := d.newQueryRun()
					defer q.close()
					kv, err := q.uploadKeys(keys)
					if err != nil {
						return err
					}
					if err := cu.Synchronize(); err != nil {
						return err
					}
					start := time.Now()
					if _, err := q.sortPerm(int64(n), []sortKey{{v: kv}}, false); err != nil {
						return err
					}
					if err := cu.Synchronize(); err != nil {
						return err
					}
					elapsed += time.Since(start).Seconds()
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			per := elapsed / float64(b.N)
			bytes := planFromRange(0, 1<<32-1).bytesPerRow(false) * float64(n)
			b.ReportMetric(per*1e3, "ms/sort")
			b.ReportMetric(float64(n)/per/1e9, "Gkeys/s")
			b.ReportMetric(100*bytes/per/(d.setProfile().HBMGBs*1e9), "%HBM")
		})
	}
}

func sizeLabel(n int) string { return fmt.Sprintf("n=%dM", n>>20) }
