package planner_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A self-join of lineorder on lo_orderkey (about 4 rows per order) is an
// operator-at-a-time hash join whose build side is the whole fact table.
const passesQuery = "select a.lo_orderkey, b.lo_revenue from lineorder a join lineorder b on a.lo_orderkey = b.lo_orderkey"

func planPasses(t *testing.T, text string, budget int64, tweak func(*planner.GPUProfile)) (*planner.Physical, *planner.HashJoin) {
	t.Helper()
	cat := ssbtest.Catalog(t, goldenSF, columnar.HeapAllocator)
	ps, err := sql.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	prof, _ := planner.LookupGPUProfile("h100")
	prof.MemoryBudget = budget
	if tweak != nil {
		tweak(prof)
	}
	p, err := planner.Plan(st.(*sql.Query), planner.Options{GPU: prof, Join: "hash"})
	if err != nil {
		t.Fatal(err)
	}
	var hj *planner.HashJoin
	planner.Walk(p.Root, func(n planner.Node) {
		if j, ok := n.(*planner.HashJoin); ok && hj == nil {
			hj = j
		}
	})
	if hj == nil {
		t.Fatalf("no hash join:\n%s", p.Explain())
	}
	return p, hj
}

// The pass count follows from the estimates: for each mode the smallest
// power of two whose largest partition (an average share with 1.5×
// headroom plus one key's duplicates), at 32 bytes a build row, and its
// share of the pair buffer fit beside the scattered keys (12 bytes a row
// of both sides), or with the pass's own compacted keys; the faster mode.
func TestJoinPassesFromEstimates(t *testing.T) {
	for _, budget := range []int64{64 << 20, 24 << 20, 16 << 20, 8 << 20, 4 << 20, 1 << 20} {
		p, hj := planPasses(t, passesQuery, budget, nil)
		build, probe := hj.Build().Props().EstRows, hj.Probe().Props().EstRows
		left := float64(budget)
		for _, c := range p.GPU.Columns {
			left -= 8 * float64(len(c.Col.Valid))
		}
		// Each mode's smallest fitting P; the one with the lower time
		// (key bytes at 2900 GB/s, 30 µs a pass) wins.
		want, wantScatter := 0, false
		if 32*build > left {
			best := math.Inf(1)
			for _, scatter := range []bool{true, false} {
				for n := 2; n <= 4096; n *= 2 {
					largest := math.Min(build, build/float64(n)*1.5+hj.BuildKeyDup)
					pass := 32*largest + 8*hj.EstRows/float64(n)*1.5
					fits := 12*(build+probe)+pass <= left
					bytes := 8*(build+probe)*2 + 2*12*(build+probe)
					if !scatter {
						fits = pass+12*(largest+probe/float64(n)*1.5) <= left
						bytes = 8*(build+probe)*float64(n+1) + 2*12*(build+probe)
					}
					if !fits {
						continue
					}
					if s := bytes/2900e9 + float64(n)*30e-6; s < best {
						best, want, wantScatter = s, n, scatter
					}
					break
				}
			}
		}
		jp := p.GPU.JoinPasses[hj]
		got := 0
		if jp != nil {
			got = jp.Passes
		}
		if got != want || jp != nil && jp.Scatter != wantScatter || p.GPU.Refused != "" {
			t.Errorf("budget %d: %d passes, want %d (refused %q)\n%s", budget, got, want, p.GPU.Refused, p.Explain())
		}
		if want > 1 && !strings.Contains(p.Explain(), "hash join in ") {
			t.Errorf("budget %d: EXPLAIN does not show the passes:\n%s", budget, p.Explain())
		}
	}
	// The default budget needs one pass.
	if p, hj := planPasses(t, passesQuery, 0, nil); p.GPU.JoinPasses[hj] != nil {
		t.Errorf("default budget partitions:\n%s", p.Explain())
	}
}

// A join on a key with 3 values has ~1/3 of the build side under one key:
// no number of passes splits it, so the GPU plan is refused with the
// reason (the query runs on the CPU by plan).
func TestJoinPassesRefusedForOneHeavyKey(t *testing.T) {
	const q = "select a.lo_orderkey, b.lo_orderkey from lineorder a join lineorder b on a.lo_shipmode = b.lo_shipmode where a.lo_quantity = 1 and b.lo_quantity = 2"
	p, hj := planPasses(t, q, 32<<10, nil)
	if hj.BuildKeyDup < 1000 || 32*hj.BuildKeyDup < 32<<10 {
		t.Fatalf("BuildKeyDup %.0f", hj.BuildKeyDup)
	}
	r := p.GPU.Refused
	if !strings.Contains(r, "duplicate rows alone need") || !strings.Contains(r, "runs on the CPU") {
		t.Errorf("refusal %q\n%s", r, p.Explain())
	}
	// With room for one key's rows, less than the whole table, it runs
	// in passes.
	budget := int64(4 * 32 * hj.BuildKeyDup)
	if float64(budget) >= 32*hj.Build().Props().EstRows {
		t.Fatalf("budget %d holds the whole table", budget)
	}
	p, hj = planPasses(t, q, budget, nil)
	if p.GPU.Refused != "" || p.GPU.JoinPasses[hj] == nil {
		t.Errorf("budget %d: refused %q, passes %v", budget, p.GPU.Refused, p.GPU.JoinPasses[hj])
	}
}

// Output pairs past 2^31 cannot be numbered on the GPU: refused at plan
// time, not at run time.
func TestJoinPassesRefusedPastInt32Pairs(t *testing.T) {
	const q = "select a.lo_orderkey, b.lo_orderkey from lineorder a join lineorder b on a.lo_shipmode = b.lo_shipmode"
	p, _ := planPasses(t, q, 0, nil)
	if !strings.Contains(p.GPU.Refused, "2^31") {
		t.Errorf("refusal %q", p.GPU.Refused)
	}
}

// Tests force passes and the re-read mode through the profile.
func TestJoinPassesForced(t *testing.T) {
	p, hj := planPasses(t, passesQuery, 0, func(pr *planner.GPUProfile) { pr.ForceJoinPasses, pr.ForceJoinReread = 16, true })
	jp := p.GPU.JoinPasses[hj]
	if jp == nil || jp.Passes != 16 || jp.Scatter || jp.FixedBytes != 0 {
		t.Errorf("forced: %+v", jp)
	}
}

// TestJoinPassesExplainGolden: the multi-pass plan under a 8 MiB budget
// (testdata/explain/gpu_h100_8MB_join_passes.txt).
func TestJoinPassesExplainGolden(t *testing.T) {
	p, _ := planPasses(t, passesQuery, 8<<20, nil)
	got := passesQuery + "\n\n" + p.Explain()
	path := filepath.Join(goldenDir, "gpu_h100_8MB_join_passes.txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./planner -update)", err)
	}
	if got != string(want) {
		t.Errorf("plan changed:\n%s\nwant:\n%s", got, want)
	}
}

// An aggregate (here without GROUP BY) over an inner join folds each pass's rows
// as the pass ends, so a join whose estimated output passes the pair limit
// (lowered here from 2^31) runs in enough passes that each stays under
// half of it, and EXPLAIN says so; the same join with rows as output is
// refused, and an AVG above it cannot fold results.
func TestJoinPassesFoldedByAggregate(t *testing.T) {
	defer func(v float64) { planner.GPUJoinMaxPairs = v }(planner.GPUJoinMaxPairs)
	planner.GPUJoinMaxPairs = 1e6
	const agg = "select count(*), sum(b.lo_revenue), min(a.lo_orderkey), max(b.lo_tax) from lineorder a join lineorder b on a.lo_orderkey = b.lo_orderkey"
	p, hj := planPasses(t, agg, 0, nil)
	jp := p.GPU.JoinPasses[hj]
	if jp == nil || jp.Consumer == nil || p.GPU.Refused != "" {
		t.Fatalf("passes %+v, refused %q\n%s", jp, p.GPU.Refused, p.Explain())
	}
	want := 2
	for float64(want)*1e6/2 < hj.EstRows {
		want *= 2
	}
	if jp.Passes != want || !strings.Contains(p.Explain(), "folded into HashAggregate") {
		t.Errorf("%d passes, want %d\n%s", jp.Passes, want, p.Explain())
	}
	for _, q := range []string{passesQuery, strings.Replace(agg, "count(*)", "avg(a.lo_tax)", 1)} {
		p, _ := planPasses(t, q, 0, nil)
		if !strings.Contains(p.GPU.Refused, "2^31") {
			t.Errorf("%s: refusal %q", q, p.GPU.Refused)
		}
	}
}

// GROUP BY folds too while its estimated groups are few (the host combines
// them), not past HostTailLimit.
func TestJoinPassesFoldedGroupBy(t *testing.T) {
	for _, c := range []struct {
		q    string
		fold bool
	}{
		{"select a.lo_shipmode, count(*), sum(b.lo_revenue) from lineorder a join lineorder b on a.lo_orderkey = b.lo_orderkey group by a.lo_shipmode", true},
		{"select a.lo_custkey, a.lo_suppkey, count(*), sum(b.lo_revenue) from lineorder a join lineorder b on a.lo_orderkey = b.lo_orderkey group by a.lo_custkey, a.lo_suppkey", false},
	} {
		p, hj := planPasses(t, c.q, 8<<20, nil)
		jp := p.GPU.JoinPasses[hj]
		if jp == nil || (jp.Consumer != nil) != c.fold {
			t.Errorf("%s: passes %+v, want folded %v\n%s", c.q, jp, c.fold, p.Explain())
		}
	}
}
