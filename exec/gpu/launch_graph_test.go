//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"testing"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// planSSB plans q for prof and answers it on the CPU executor.
func planSSB(t *testing.T, prof *planner.GPUProfile, q ssbtest.Query) (*planner.Physical, *exec.Result) {
	t.Helper()
	p, err := planner.Plan(q.Query, planner.Options{GPU: prof})
	if err != nil {
		t.Fatal(err)
	}
	want, err := cpu.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return p, want
}

// runMatches runs p on the GPU and reports a difference from want.
func runMatches(t *testing.T, p *planner.Physical, want *exec.Result, what string) {
	t.Helper()
	got, err := Run(context.Background(), p)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if d := diffResults(got, want); d != "" {
		t.Errorf("%s: %s", what, d)
	}
}

// A star query run again replays its kernel chain as a CUDA graph and
// answers as the CPU executor does, every run; with replay switched off
// nothing is replayed. The SSB queries cover the chains there are: scalar
// (group_init, fact kernel), a dense group table read whole, and a table
// compacted on the device (count, scan, scatter).
func TestStarGraphReplay(t *testing.T) {
	needGPU(t)
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	for _, graphs := range []bool{true, false} {
		cudaGraphs.Store(graphs)
		for _, q := range ssbtest.Queries(t, cat) {
			p, want := planSSB(t, prof, q)
			before := graphReplays.Load()
			for run := range 3 {
				runMatches(t, p, want, fmt.Sprintf("%s run %d (graphs %v)", q.Name, run, graphs))
			}
			replays := graphReplays.Load() - before
			if graphs && replays < 2 {
				t.Errorf("%s: %d of the 3 runs replayed a graph, want the last 2", q.Name, replays)
			}
			if !graphs && replays != 0 {
				t.Errorf("%s: %d runs replayed a graph with replay off", q.Name, replays)
			}
		}
	}
	cudaGraphs.Store(true)
}

// A chain whose parameters differ (another query's filter constant) is
// another graph: each answers its own query.
func TestStarGraphParamsKeyed(t *testing.T) {
	needGPU(t)
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	cat := ssbtest.Catalog(t, 0.02, columnar.HeapAllocator)
	queries := ssbtest.Queries(t, cat)
	for round := range 3 {
		for _, q := range queries[:3] { // Q1.1-Q1.3: one chain shape, other constants
			p, want := planSSB(t, prof, q)
			runMatches(t, p, want, fmt.Sprintf("%s round %d", q.Name, round))
		}
	}
}

// Past maxGraphs chains the cache starts over, destroying its graphs, and
// every query still answers as the CPU executor does.
func TestStarGraphCacheBound(t *testing.T) {
	d := needGPU(t)
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { maxGraphs = n }(maxGraphs)
	maxGraphs = 2
	cat := ssbtest.Catalog(t, 0.02, columnar.HeapAllocator)
	queries := ssbtest.Queries(t, cat)
	for round := range 3 {
		for _, q := range queries[3:9] { // Q2.1-Q3.3: six chains
			p, want := planSSB(t, prof, q)
			for range 2 {
				runMatches(t, p, want, fmt.Sprintf("%s round %d", q.Name, round))
				var n int
				if err := d.do(func() error { n = len(d.graphs.graphs); return nil }); err != nil {
					t.Fatal(err)
				}
				if n > maxGraphs {
					t.Fatalf("%s: %d chains cached, bound %d", q.Name, n, maxGraphs)
				}
			}
		}
	}
}

// A chain whose graph cannot be instantiated runs as launches, every time,
// and answers as the CPU executor does.
func TestStarGraphBuildFails(t *testing.T) {
	needGPU(t)
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	failGraphBuilds.Store(true)
	defer failGraphBuilds.Store(false)
	for _, d := range openedDevices() { // graphs made by earlier tests go
		if err := d.do(func() error { d.graphs.reset(); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	cat := ssbtest.Catalog(t, 0.02, columnar.HeapAllocator)
	before := graphReplays.Load()
	for _, q := range ssbtest.Queries(t, cat)[:4] {
		p, want := planSSB(t, prof, q)
		for run := range 3 {
			runMatches(t, p, want, fmt.Sprintf("%s run %d", q.Name, run))
		}
	}
	if n := graphReplays.Load() - before; n != 0 {
		t.Errorf("%d graph replays with every build failing", n)
	}
}
