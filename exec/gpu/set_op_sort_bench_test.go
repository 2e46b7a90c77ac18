//go:build cuda

package gpu

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// BenchmarkSetOps times DISTINCT, UNION, INTERSECT and EXCEPT ALL by
// sorting and by hashing on two tables of GPUSQL_BENCH_SETOP_ROWS rows
// each (default 16 M): a BIGINT k drawn from [0, rows) (so about 63 % of
// the values distinct, and the sides overlap) and an INT g of 100 values.
// Keys "k" are the many-groups case, "g" the few-groups case, "k,g" two
// columns. It reports kernel-ms (CUDA events, the device's part: what the
// choice between the algorithms is about; ns/op adds copying the result
// back), GB/s (the input columns at their stored width over kernel-ms)
// and that as % of the profile's HBM read rate.
func BenchmarkSetOps(b *testing.B) {
	d := needGPU(b)
	n := 16 << 20
	if s := os.Getenv("GPUSQL_BENCH_SETOP_ROWS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("GPUSQL_BENCH_SETOP_ROWS=%q: want a positive number of rows", s)
		}
		n = v
	}
	mk := func(name string, seed uint64) *columnar.Table {
		t := newTable(columnar.HeapAllocator, name, n, []colSpec{{"k", columnar.TInt64}, {"g", columnar.TInt32}})
		rng := rand.New(rand.NewPCG(seed, 3))
		for i := 0; i < n; i++ {
			t.Columns[0].I64[i] = int64(rng.IntN(n))
			t.Columns[1].I32[i] = int32(rng.IntN(100))
		}
		return t
	}
	lt, rt := mk("l", 1), mk("r", 2)
	for _, cols := range [][]string{{"k"}, {"g"}, {"k", "g"}} {
		width := 0
		for _, c := range cols {
			width += map[string]int{"k": 8, "g": 4}[c]
		}
		for _, op := range setOpsUnderTest {
			if op.all && op.kind != sql.SetExcept || op.kind == sql.SetExcept && !op.all {
				continue // DISTINCT, UNION, INTERSECT, EXCEPT ALL
			}
			root := setOpOf(op.kind, op.all, scanOf(lt, cols...), scanOf(rt, cols...))
			rows := 2 * n
			if op.kind == 0 {
				rows = n
			}
			for _, alg := range []planner.SetAlgorithm{planner.SetSort, planner.SetHash} {
				name := fmt.Sprintf("%s/%v/%s", op.name, cols, alg)
				b.Run(name, func(b *testing.B) {
					p := &planner.Physical{Root: root, Names: make([]string, len(cols))}
					prof, _ := DeviceProfile()
					prof.ForceSetOp = alg
					p.GPU = planner.PlanGPU(p, prof)
					if _, err := Run(b.Context(), p); err != nil { // warm: columns cached
						b.Fatal(err)
					}
					var kms float64
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						_, qp, err := RunProfiled(b.Context(), p)
						if err != nil {
							b.Fatal(err)
						}
						kms += qp.KernelMs
					}
					kms /= float64(b.N)
					gbs := float64(rows*width) / (kms / 1e3) / 1e9
					b.ReportMetric(kms, "kernel-ms")
					b.ReportMetric(gbs, "GB/s")
					b.ReportMetric(100*gbs/prof.HBMGBs, "%HBM")
				})
			}
		}
	}
	_ = d
}
