//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"gpusql/kernels"
)

// TestUVAJoin runs bench uva's join in every mode, with and without the
// result cache, and checks its matches against a brute-force join on the
// host: sizes not multiples of the block, the chunk or the stream count, a
// last partial chunk, no matches, all matches, an empty probe table.
func TestUVAJoin(t *testing.T) {
	d := needGPU(t)
	for _, tc := range []struct {
		nr, ns, chunk int64
		streams       int
		rate          float64
	}{
		{100_003, 250_001, 30_000, 3, 0.37},
		{7, 1_000, 300, 2, 1},
		{5_000, 4_099, 1_024, 3, 0},
		{5_000, 0, 1_024, 3, 0.5},
	} {
		t.Run(fmt.Sprintf("R%d_S%d_rate%g", tc.nr, tc.ns, tc.rate), func(t *testing.T) {
			err := d.do(func() error {
				j, err := d.newUVAJoin(tc.nr, tc.ns, tc.streams, tc.chunk)
				if err != nil {
					return err
				}
				defer j.close()
				FillUVABuild(j.r)
				FillUVAProbe(j.s, tc.nr, tc.rate)
				want := bruteJoin(j.r, j.s)
				for _, mode := range UVAModes {
					for _, cache := range []bool{false, true} {
						if err := j.reset(true); err != nil {
							return err
						}
						if err := j.build(mode); err != nil {
							return err
						}
						if err := j.probe(mode, cache); err != nil {
							return err
						}
						got, err := j.results()
						if err != nil {
							return err
						}
						slices.SortFunc(got, cmpTuple)
						if !slices.Equal(got, want) {
							t.Errorf("%s, result cache %v: %d matches, want %d", mode, cache, len(got), len(want))
						}
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// bruteJoin joins on key with a host map: {build payload, probe payload}
// pairs, sorted.
func bruteJoin(r, s []UVATuple) []UVATuple {
	byKey := map[int32][]int32{}
	for _, t := range r {
		byKey[t[0]] = append(byKey[t[0]], t[1])
	}
	var out []UVATuple
	for _, t := range s {
		for _, p := range byKey[t[0]] {
			out = append(out, UVATuple{p, t[1]})
		}
	}
	slices.SortFunc(out, cmpTuple)
	return out
}

func cmpTuple(a, b UVATuple) int {
	if a[0] != b[0] {
		return int(a[0]) - int(b[0])
	}
	return int(a[1]) - int(b[1])
}

// TestUVAParamSizes checks that each uva kernel's Go parameter struct is
// exactly as long as the kernel's parameters in the PTX (a longer buffer
// fails the launch with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
func TestUVAParamSizes(t *testing.T) {
	ptx := string(kernels.PTX("uva_join"))
	for name, size := range map[string]uintptr{
		"uva_build": unsafe.Sizeof(uvaBuildArgs{}),
		"uva_probe": unsafe.Sizeof(uvaProbeArgs{}),
	} {
		i := strings.Index(ptx, ".entry "+name+"(")
		if i < 0 {
			t.Fatalf("kernel %s not in uva_join.ptx", name)
		}
		params := ptx[i : i+strings.Index(ptx[i:], ")")]
		if n := uintptr(strings.Count(params, ".param .u64")); 8*n != size || strings.Count(params, ".param") != int(n) {
			t.Errorf("%s: Go struct of %d bytes, PTX parameters %q", name, size, params)
		}
	}
}
