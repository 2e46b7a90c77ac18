package cpu_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
)

// fakeEpsilonDevice stands in for the GPU with the CPU's own grid
// functions, so the plumbing of a GPU-placed EpsilonJoin (the batch's
// queries, pair rows mapped back, per-row counts weighting count(*),
// the grid released) is checked without a GPU. It records which entry
// the operator used, so the plan's CountOnly is seen to be obeyed.
type fakeEpsilonDevice struct{ loads, pairs, counts, released atomic.Int64 }

func (f *fakeEpsilonDevice) Load(g *cpu.EpsilonGrid, opt cpu.EpsilonOptions) (cpu.EpsilonOnDevice, error) {
	f.loads.Add(1)
	return &fakeOnDevice{f, g}, nil
}

type fakeOnDevice struct {
	f *fakeEpsilonDevice
	g *cpu.EpsilonGrid
}

func (r *fakeOnDevice) Pairs(q *cpu.EpsilonQueries, sink cpu.EpsilonSink) error {
	r.f.pairs.Add(1)
	_, err := cpu.EpsilonJoinPairs(r.g, q, 1, sink)
	return err
}

func (r *fakeOnDevice) Counts(q *cpu.EpsilonQueries) ([]int32, error) {
	r.f.counts.Add(1)
	c, _ := cpu.EpsilonJoinCount(r.g, q, 1)
	return c, nil
}

func (r *fakeOnDevice) Release() { r.f.released.Add(1) }

// epsilonSQLTable makes rows of "id|grp|[v]" lines: points on a lattice of
// step 1/4 with side values a dimension (many distances exactly ε,
// duplicates), every 13th vector NULL; skew puts 9 in 10 points in one
// corner cell.
func epsilonSQLTable(rng *rand.Rand, rows, dims, side int, skew bool) []string {
	lines := make([]string, rows)
	for i := range lines {
		v := `\N`
		if i%13 != 5 {
			xs := make([]string, dims)
			for d := range xs {
				x := float32(rng.Intn(side)) / 4
				if skew && i%10 != 0 {
					x = float32(rng.Intn(2)) / 64
				}
				xs[d] = fmt.Sprint(x)
			}
			v = "[" + strings.Join(xs, ",") + "]"
		}
		lines[i] = fmt.Sprintf("%d|%d|%s", i, i%5, v)
	}
	return lines
}

// epsilonSQLQueries are the ε-join shapes over table t (and the one-row
// and empty tables one and none of the same dimension) at distance eps.
func epsilonSQLQueries(t, one, none string, eps float64) []string {
	e := fmt.Sprint(eps)
	return []string{
		"select a.id, b.id from " + t + " a join " + t + " b on vec_l2_distance(a.v, b.v) <= " + e,
		"select a.id, b.id, b.grp from " + t + " a join " + t + " b on vec_l1_distance(a.v, b.v) < " + e + " and a.grp < b.grp",
		"select count(*) from " + t + " a join " + t + " b on vec_l2_distance(a.v, b.v) < " + e,
		"select count(*) from " + t + " a, " + t + " b where " + e + " >= vec_l1_distance(b.v, a.v)",
		"select a.id, count(*) from " + t + " a join " + t + " b on vec_l2_distance(a.v, b.v) <= " + e + " group by a.id",
		"select a.grp, count(*) from " + t + " a join " + t + " b on vec_l1_distance(a.v, b.v) <= " + e + " group by a.grp",
		"select b.grp, count(*) from " + t + " a join " + t + " b on vec_l2_distance(a.v, b.v) <= " + e + " and a.id <> b.id group by b.grp",
		"select count(*) from " + t + " a join " + t + " b on vec_l2_distance(a.v, b.v) <= 0",
		"select a.id, b.id from " + one + " a join " + t + " b on vec_l2_distance(a.v, b.v) <= " + e,
		"select count(*) from " + t + " a join " + none + " b on vec_l2_distance(a.v, b.v) <= " + e,
		"select b.id, count(*) from " + none + " a join " + t + " b on vec_l1_distance(a.v, b.v) <= " + e + " group by b.id",
	}
}

// TestEpsilonJoinOnDevicePlumbing: a plan made for a GPU, run with a
// device that answers with the CPU's grid, gives the CPU plan's rows, and
// counts (not pairs) are asked for exactly where the plan says CountOnly.
func TestEpsilonJoinOnDevicePlumbing(t *testing.T) {
	h100, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	var pairCalls, countCalls int64
	d := newTestDB(t, false)
	sets := []struct {
		dims, rows, side int
		eps              float64
		skew             bool
	}{{1, 5001, 1000, 0.5, false}, {2, 4099, 100, 0.5, false}, {2, 501, 40, 0.1, true},
		{3, 2999, 30, 0.5, false}, {16, 1537, 12, 2.5, false}, {64, 777, 4, 3, false}}
	for i, s := range sets {
		name := fmt.Sprintf("p%d_%d", s.dims, i)
		for _, tb := range []struct {
			name string
			rows int
			skew bool
		}{{name, s.rows, s.skew}, {name + "_one", 1, false}, {name + "_none", 0, false}} {
			d.create(fmt.Sprintf("create table %s (id int, grp int, v vector(%d))", tb.name, s.dims))
			d.load(tb.name, epsilonSQLTable(rng, tb.rows, s.dims, s.side, tb.skew))
		}
		eps := s.eps
		for qi, q := range epsilonSQLQueries(name, name+"_one", name+"_none", eps) {
			want := sortedRows(d.run(q, planner.Options{}))
			if qi == 0 {
				t.Logf("%s: %d pairs", name, len(want))
			}
			p := d.plan(q, planner.Options{GPU: h100})
			dev := &fakeEpsilonDevice{}
			res, err := cpu.Run(cpu.WithEpsilonDevice(context.Background(), dev), p)
			if err != nil {
				t.Fatalf("%s: %v\n%s", q, err, p.Explain())
			}
			if got := sortedRows(formatResult(res)); !slices.Equal(got, want) {
				t.Errorf("%s: %d rows, want %d\n%s", q, len(got), len(want), p.Explain())
			}
			countOnly := strings.Contains(p.Explain(), "counts per left row")
			if countOnly && dev.pairs.Load() > 0 || !countOnly && dev.counts.Load() > 0 {
				t.Errorf("%s: CountOnly %v but %d pair and %d count calls", q, countOnly, dev.pairs.Load(), dev.counts.Load())
			}
			pairCalls, countCalls = pairCalls+dev.pairs.Load(), countCalls+dev.counts.Load()
			if dev.loads.Load() != dev.released.Load() {
				t.Errorf("%s: %d grids loaded, %d released", q, dev.loads.Load(), dev.released.Load())
			}
		}
	}
	if pairCalls == 0 || countCalls == 0 {
		t.Errorf("the device was asked for pairs %d times and counts %d times", pairCalls, countCalls)
	}
}
