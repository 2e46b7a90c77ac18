//go:build cuda

package gpu

import (
	"fmt"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// Every layout of the conflict kernels (plain, lane-replicated, remapped)
// returns the brute-force grouped sums and join checksum: empty input,
// sizes not multiples of 32 or of a tile, one value, skew.
func TestConflictKernels(t *testing.T) {
	d := needGPU(t)
	var size int64
	err := d.do(func() error {
		f, err := d.fn("conflict_params_size")
		if err != nil {
			return err
		}
		out, err := d.pool.get(8)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		arg := uint64(out)
		if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&size), out, 8)
	})
	if err != nil || size != int64(unsafe.Sizeof(conflictParams{})) {
		t.Fatalf("ConflictParams: kernel %d bytes, Go %d (%v)", size, unsafe.Sizeof(conflictParams{}), err)
	}
	for _, n := range []int{0, 1, 33, 2047, 100_003} {
		for _, distinct := range []int{1, 7, 1024} {
			for _, theta := range []float64{0, 1, 2} {
				name := fmt.Sprintf("n%d/c%d/theta%g", n, distinct, theta)
				t.Run(name, func(t *testing.T) { checkConflictLayouts(t, n, distinct, theta) })
			}
		}
	}
}

func checkConflictLayouts(t *testing.T, n, distinct int, theta float64) {
	vals := ssbgen.ZipfColumn(n, distinct, theta, 3)
	measure := make([]int32, n)
	payload := make([]int32, distinct)
	wantSums := make([]uint64, distinct)
	var wantJoin uint64
	for v := range payload {
		payload[v] = int32(v*7919%10007 + 1)
	}
	for i, v := range vals {
		measure[i] = int32(i%13 + 1)
		wantSums[v] += uint64(measure[i])
		wantJoin += uint64(payload[v])
	}
	for _, join := range []bool{false, true} {
		o := columnar.DefaultRemapOptions()
		o.Atomic, o.Window = !join, 2
		rm, err := columnar.BuildRemap(vals, distinct, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []struct {
			name      string
			keys      []int32
			slotValue []int32
			replicas  int
		}{{"plain", vals, nil, 1}, {"replicated", vals, nil, 5}, {"remapped", rm.Slots, rm.SlotValue, 1}} {
			res, err := RunConflictKernel(ConflictRun{Join: join, Keys: l.keys, SlotValue: l.slotValue, Replicas: l.replicas,
				Distinct: distinct, Measure: measure, Payload: payload, Runs: 1})
			if err != nil {
				t.Fatalf("%s join=%v: %v", l.name, join, err)
			}
			if join && res.Sums[0] != wantJoin {
				t.Errorf("%s join: payload sum %d, want %d", l.name, res.Sums[0], wantJoin)
			}
			if !join {
				for v := range wantSums {
					if res.Sums[v] != wantSums[v] {
						t.Fatalf("%s group: value %d sums to %d, want %d", l.name, v, res.Sums[v], wantSums[v])
					}
				}
			}
		}
	}
}
