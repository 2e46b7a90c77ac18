//go:build cuda

package gpu

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"gpusql/exec/cpu"
)

// The ε-join over several devices (epsilon_devices.go) returns every pair
// once and the per-row counts of brute force: each case over 2 devices and
// every device of the set, batching on and off, with overflowing buffers.
func TestEpsilonJoinDevices(t *testing.T) {
	needDevices(t, 2)
	for _, c := range epsCases() {
		for _, n := range deviceCounts() {
			ids := make([]int, n)
			for i := range ids {
				ids[i] = i
			}
			for _, batching := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%dgpus/batching=%v", c.name, n, batching), func(t *testing.T) {
					opt := cpu.DefaultEpsilonOptions(cpu.EpsilonL2, c.eps)
					opt.Batching = batching
					g, q, outer := epsPrepare(t, c, opt)
					want := epsBrute(outer, c.inner, opt)
					var got []epsPair
					st, err := EpsilonJoinPairsOn(ids, g, q, opt, epsCollect(&got))
					if err != nil {
						t.Fatal(err)
					}
					epsSort(got)
					if st.Pairs != int64(len(want)) || !slices.Equal(got, want) || st.Devices != n {
						t.Fatalf("%d devices: %d pairs (%d returned), brute force %d", st.Devices, st.Pairs, len(got), len(want))
					}
					gc, gt, err := EpsilonJoinCountOn(ids, g, q)
					if err != nil {
						t.Fatal(err)
					}
					cc, ct := cpu.EpsilonJoinCount(g, q, 2)
					if gt != ct || !slices.Equal(gc, cc) {
						t.Fatalf("counts: GPUs total %d, CPU %d (per-row equal: %v)", gt, ct, slices.Equal(gc, cc))
					}
				})
			}
		}
	}
}

// Overflowing buffers on every device are rerun split there.
func TestEpsilonJoinDevicesOverflow(t *testing.T) {
	needDevices(t, 2)
	rng := rand.New(rand.NewSource(9))
	c := epsCase{name: "dense", inner: epsPoints(rng, 4000, 3, func() float32 { return rng.Float32() }), eps: 0.15}
	opt := cpu.DefaultEpsilonOptions(cpu.EpsilonL2, c.eps)
	g, q, outer := epsPrepare(t, c, opt)
	want := epsBrute(outer, c.inner, opt)
	defer func(v int64) { epsMinBufPairs = v }(epsMinBufPairs)
	epsMinBufPairs = 1
	var got []epsPair
	st, err := EpsilonJoinPairsOn([]int{0, 1}, g, q, opt, epsCollect(&got))
	if err != nil {
		t.Fatal(err)
	}
	epsSort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("%d pairs, brute force %d", len(got), len(want))
	}
	t.Logf("%d pairs, %d batches, %d reruns over 2 devices", len(want), st.Batches, st.Reruns)
}

// The SQL ε-join plan deals its left batches to every device of the plan.
func TestEpsilonSQLDevices(t *testing.T) {
	needDevices(t, 2)
	testEpsilonSQLOn(t, []int{0, 1})
}
