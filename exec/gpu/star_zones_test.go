//go:build cuda

package gpu

import (
	"context"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Zone maps on the GPU: a fact table whose v rises with the row number,
// filtered on a range of v, is scanned only over the chunks the range
// may reach (the plan says which) and answers as the CPU executor does —
// a range inside a few chunks, one past every chunk (all skipped), one
// over every chunk (no zone map), with NULLs in v, a partial last chunk
// and every launch shape (tiles of 1,024 to 4,096 rows divide a chunk).
func TestStarZoneMaps(t *testing.T) {
	needGPU(t)
	if columnar.ChunkRows != 65536 {
		t.Fatalf("columnar.ChunkRows %d: kernels/common.cuh ZONE_CHUNK_ROWS says 65536", columnar.ChunkRows)
	}
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{5*columnar.ChunkRows + 123, 3 * columnar.ChunkRows} {
		f, d := edgeDB(n, 40, 0.05, 1, false, uint64(n))
		v := f.Columns[2]
		for i := range v.I64 {
			v.I64[i] = int64(i / 1000)
		}
		columnar.ComputeStats(f)
		columnar.ComputeStats(d)
		cases := []struct {
			name    string
			lo, hi  int64
			skipped bool
		}{{"middle", 70, 200, true}, {"none", 10_000, 20_000, true}, {"all", -1, 1 << 40, false}}
		for _, c := range cases {
			s := scanOf(f, "k", "g", "v", "w")
			fl := filterOf(s, cmpOp(sql.OpGE, ref(s, "v"), c.lo), cmpOp(sql.OpLT, ref(s, "v"), c.hi))
			j := joinOf(fl, scanOf(d, "dk", "da", "ds"), "k", "dk")
			// Sorted: the executors' group orders differ.
			p := &planner.Physical{Root: sortOf(aggOf(j, []string{"ds", "g"}, sumOf(ref(j, "v")), countStar()), "ds", "g")}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			p.GPU = planner.PlanGPU(p, prof)
			z := p.GPU.Star.Zones
			if used := z != nil && z.Off == "" && z.Live < z.Chunks; used != c.skipped {
				t.Fatalf("%d rows, %s: zone maps used %v, want %v:\n%s", n, c.name, used, c.skipped, p.Explain())
			}
			eachTuning(t, func(t *testing.T) {
				got, err := Run(context.Background(), p)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if diff := diffResults(got, want); diff != "" {
					t.Errorf("%d rows, %s: %s\n%s", n, c.name, diff, p.Explain())
				}
			})
		}
	}
}
