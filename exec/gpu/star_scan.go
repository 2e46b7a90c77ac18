//go:build cuda

package gpu

import "os"

// scanRows is the rows a thread of the star_scan kernels holds
// (kernels/star_scan.cuh, SCAN_IT).
const scanRows = 16

// scanEnabled is whether the star_scan kernels may take the stars the plan
// gives them: yes, unless GPUSQL_STAR_SCAN=off (to compare them with the
// star_fast kernels on a GPU machine through bench).
func scanEnabled() bool { return os.Getenv("GPUSQL_STAR_SCAN") != "off" }

// scanKernelName is the star_scan kernel for a star the plan gives it
// (planner.GPUStar.Scan), with fast-path parameters sp, ngroups groups and
// feature set f (fastFeatures), and whether its parameters allow one: one
// group, no group column, no dimension probe, no remapped payload, hash
// table or packed column, every aggregate a COUNT or a SUM that cannot
// overflow. Where they do not, the star_fast kernels run it.
func scanKernelName(sp *starParams, ngroups int64, f int) (string, bool) {
	switch {
	case ngroups != 1 || sp.NGCols != 0 || sp.NDims != 0 || f&^fastNeedNarrow != 0:
		return "", false
	case f == fastNeedNarrow:
		return "star_scan_f32", true
	}
	return "star_scan_f0", true
}
