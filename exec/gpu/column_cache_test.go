//go:build cuda

package gpu

import (
	"math"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// A column entering the cache keeps its values, NULLs and range: int64
// vectors are narrowed to int32 on the device (from pinned memory in place,
// from the heap through a staging copy) only when every non-NULL value fits,
// negative ones included, and values at NULL rows never widen the range.
func TestColumnCacheLoad(t *testing.T) {
	d := needGPU(t)
	n := 100_003
	cases := []struct {
		name      string
		t         columnar.Type
		val       func(i int) int64
		null      func(i int) bool
		wantWidth int
	}{
		{"i64 negative narrows", columnar.TInt64, func(i int) int64 { return int64(i) - 50_000 }, nil, 4},
		{"i64 int32 bounds", columnar.TInt64, func(i int) int64 {
			if i%2 == 0 {
				return math.MinInt32
			}
			return math.MaxInt32
		}, nil, 4},
		{"i64 wide stays", columnar.TInt64, func(i int) int64 { return int64(i) << 33 }, nil, 8},
		{"i64 wide negative", columnar.TInt64, func(i int) int64 { return -int64(i) - math.MaxInt32 }, nil, 8},
		// Garbage at NULL rows must neither widen the column nor the range.
		{"i64 nulls hold wide garbage", columnar.TInt64, func(i int) int64 {
			if i%3 == 0 {
				return math.MinInt64 + int64(i)
			}
			return -int64(i % 1000)
		}, func(i int) bool { return i%3 == 0 }, 4},
		{"i32 negative with nulls", columnar.TInt32, func(i int) int64 { return int64(i%777) - 400 }, func(i int) bool { return i%5 == 1 }, 4},
		{"i64 all null", columnar.TInt64, func(i int) int64 { return 1 << 40 }, func(int) bool { return true }, 4},
	}
	for _, alloc := range []struct {
		name string
		a    columnar.Allocator
	}{{"heap", columnar.HeapAllocator}, {"pinned", PinnedAllocator()}} {
		for _, c := range cases {
			t.Run(alloc.name+"/"+c.name, func(t *testing.T) {
				col := columnar.NewColumnIn(alloc.a, c.t, n, c.null != nil)
				lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
				for i := 0; i < n; i++ {
					v := c.val(i)
					if col.I64 != nil {
						col.I64[i] = v
					} else {
						col.I32[i] = int32(v)
					}
					if c.null != nil && c.null(i) {
						continue
					}
					if c.null != nil {
						col.SetValid(i)
					}
					lo, hi = min(lo, v), max(hi, v)
				}
				var dc *devColumn
				var got []int64
				var gotValid []uint64
				err := d.do(func() error {
					var err error
					if dc, err = d.cache.get(col); err != nil {
						return err
					}
					defer d.cache.unpin(dc)
					defer d.cache.drop(dc)
					got = make([]int64, n)
					if dc.width == 4 {
						g := make([]int32, n)
						if err := cu.MemcpyDtoH(unsafe.Pointer(&g[0]), dc.data, 4*int64(n)); err != nil {
							return err
						}
						for i, v := range g {
							got[i] = int64(v)
						}
					} else if err := cu.MemcpyDtoH(unsafe.Pointer(&got[0]), dc.data, 8*int64(n)); err != nil {
						return err
					}
					if col.Valid != nil {
						gotValid = make([]uint64, len(col.Valid))
						return cu.MemcpyDtoH(unsafe.Pointer(&gotValid[0]), dc.valid, 8*int64(len(gotValid)))
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if dc.width != c.wantWidth {
					t.Errorf("width %d, want %d", dc.width, c.wantWidth)
				}
				if dc.min != lo || dc.max != hi {
					t.Errorf("range [%d, %d], want [%d, %d]", dc.min, dc.max, lo, hi)
				}
				for i := 0; i < n; i++ {
					if col.IsNull(i) {
						continue
					}
					if want := c.val(i); c.t.ID == columnar.Int32 && int64(int32(want)) != got[i] || c.t.ID != columnar.Int32 && want != got[i] {
						t.Fatalf("row %d: %d, want %d", i, got[i], want)
					}
				}
				for w := range gotValid {
					if gotValid[w] != col.Valid[w] {
						t.Fatalf("validity word %d: %x, want %x", w, gotValid[w], col.Valid[w])
					}
				}
			})
		}
	}
}
