//go:build cuda

package gpu

import (
	"fmt"
	"strings"
	"testing"
)

// The star_scan kernels (kernels/star_scan.cuh) take the one-group stars
// without NULLs the plan gives them: each answer against the CPU's over
// tables around their 4,096-row tiles and 16-row threads, with 4-byte and
// narrow columns, and the kernel that ran checked by name.
func TestStarScanKernel(t *testing.T) {
	d := needGPU(t)
	timeFactKernel.Store(true)
	defer timeFactKernel.Store(false)
	saved := starTuning
	defer func() { starTuning = saved }()
	starTuning = tuning{block: 256, items: 8, fast: true, scan: true}
	for _, n := range []int{1, 15, 17, 4095, 4097, 3*4096 + 9, 65536 + 33} {
		f, dim := packedEdgeDB(n, 50, 0, false, uint64(n)+7)
		plans := edgePlans(f, dim)
		for _, m := range []packingMode{packingModes[0], packingModes[3]} {
			for _, name := range []string{"scalar-join-filter", "scalar-preds"} {
				t.Run(fmt.Sprintf("%d/%s/%s", n, name, m.name), func(t *testing.T) {
					p := withPacking(t, plans[name], m)
					if m.transfer {
						if err := DropColumnCache(); err != nil {
							t.Fatal(err)
						}
					}
					checkPlan(t, name, p)
					if !p.GPU.Star.Scan {
						t.Fatalf("not planned for star_scan\n%s", p.Explain())
					}
					if m.narrow && n >= 16 && narrowColumns(p.GPU) == 0 {
						t.Errorf("no narrow column\n%s", p.Explain())
					}
					// A cold run may read columns in place, bit-packed (only
					// star_fast reads that form); warm, the resident forms
					// go to star_scan.
					d.last = kernelTiming{}
					checkPlan(t, name+" warm", p)
					if got := d.last.name; !strings.HasPrefix(got, "star_scan_f") {
						t.Errorf("kernel %q, want star_scan_f*\n%s", got, p.Explain())
					}
				})
			}
		}
	}
}

// scanKernelName takes the feature sets star_scan is compiled for and
// leaves the others (and stars of several groups) to star_fast.
func TestScanKernelName(t *testing.T) {
	var sp starParams
	for _, c := range []struct {
		f             int
		ngroups       int64
		ngcols, ndims int32
		want          string
	}{
		{0, 1, 0, 0, "star_scan_f0"},
		{fastNeedNarrow, 1, 0, 0, "star_scan_f32"},
		{fastNeedBits, 1, 0, 0, ""},
		{fastNeedBits, 1, 0, 1, ""},
		{0, 1, 0, 1, ""},
		{0, 2, 0, 0, ""},
		{0, 1, 1, 0, ""},
		{fastNeedAggs, 1, 0, 0, ""},
		{fastNeedExt, 1, 0, 0, ""},
		{fastNeedHash | fastNeedBits, 1, 0, 0, ""},
		{fastNeedPacked, 1, 0, 0, ""},
	} {
		sp.NGCols, sp.NDims = c.ngcols, c.ndims
		got, ok := scanKernelName(&sp, c.ngroups, c.f)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("features %d, %d groups, %d group columns, %d dimensions: %q %v, want %q", c.f, c.ngroups, c.ngcols, c.ndims, got, ok, c.want)
		}
	}
}
