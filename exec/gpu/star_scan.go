//go:build cuda

package gpu

import "os"

// scanRows is the rows a thread of the star_scan kernels holds
// (kernels/star_scan.cuh, SCAN_IT).
const scanRows = 16

// scanPrefetchBytes is the shared memory a star_scan_pre block takes
// beyond its accumulators: each thread's rows of the next tile's first
// filter column at 4 bytes a row (SCAN_PRE_UNITS units of 16 bytes).
const scanPrefetchBytes = scanRows * 4

// scanEnabled is whether the star_scan kernels may take the stars the plan
// gives them: yes, unless GPUSQL_STAR_SCAN=off (to compare them with the
// star_fast kernels on a GPU machine through bench).
func scanEnabled() bool { return os.Getenv("GPUSQL_STAR_SCAN") != "off" }

// prefetchEnabled is whether the kernels env names (GPUSQL_SCAN_PREFETCH:
// star_scan; GPUSQL_FAST_PREFETCH: star_fast) read the first column of a
// tile's chain a tile ahead: yes, unless it is "off" (to compare them on
// a GPU machine through bench).
func prefetchEnabled(env string) bool { return os.Getenv(env) != "off" }

// scanKernelName is the star_scan kernel for a star the plan gives it
// (planner.GPUStar.Scan), with fast-path parameters sp, ngroups groups and
// feature set f (fastFeatures), and whether its parameters allow one: one
// group, no group column, no dimension probe, no remapped payload or
// packed column, every aggregate a COUNT or a SUM that cannot overflow.
// Where they do not, the star_fast kernels run it. pre picks the kernel
// that reads the first filter's column a tile ahead.
func scanKernelName(sp *starParams, ngroups int64, f int, pre bool) (string, bool) {
	if ngroups != 1 || sp.NGCols != 0 || sp.NDims != 0 || f&^fastNeedNarrow != 0 {
		return "", false
	}
	name := "star_scan_f0"
	if f == fastNeedNarrow {
		name = "star_scan_f32"
	}
	if pre {
		name = "star_scan_pre_" + name[len("star_scan_"):]
	}
	return name, true
}
