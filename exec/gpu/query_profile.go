package gpu

import (
	"fmt"
	"strings"
)

// KernelStat is one kernel launch of a profiled query (RunProfiled): its
// device time between CUDA events recorded around the launch, and what
// the launch site knows it moves. Bytes count values as stored on the
// device (a BIGINT narrowed to 4 bytes counts 4); -1 means the launch
// site does not say.
type KernelStat struct {
	Name string
	Ms   float64
	// GapMs is the device's idle time between the end of the previous
	// kernel and the start of this one: host work (launch calls, small
	// copies, synchronizations, host-side steps) the device waited for.
	GapMs        float64
	BytesRead    int64
	BytesWritten int64
	RowsIn       int64
	RowsOut      int64
}

// QueryProfile is what RunProfiled measured of one query.
type QueryProfile struct {
	Kernels []KernelStat
	// WallMs is the query's wall time in the executor; KernelMs the sum of
	// its kernels' device times; HostMs = WallMs − KernelMs.
	WallMs, KernelMs, HostMs float64
	// ColumnBytes is the bytes of the columns the query read, as stored on
	// the device (each column once, validity bitmaps included).
	ColumnBytes int64
	// DimBuildsCached and DimBuildsMade count the star dimension builds
	// found in the device's build cache and made by this run.
	DimBuildsCached, DimBuildsMade int
	// HBMGBs is the device profile's measured HBM read rate, the limit
	// each kernel's GB/s is compared with.
	HBMGBs float64
}

// GBps is b bytes over ms milliseconds in GB/s (0 when ms is 0).
func GBps(b int64, ms float64) float64 {
	if ms <= 0 || b < 0 {
		return 0
	}
	return float64(b) / ms / 1e6
}

// Table renders the profile for EXPLAIN ANALYZE: one line per kernel.
func (p *QueryProfile) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "GPU kernels (device time by CUDA events; bytes at device width, a star kernel's the plan's estimate of the sectors it fetches; limit: HBM reads %.0f GB/s):\n", p.HBMGBs)
	fmt.Fprintf(&b, "  %-26s %9s %9s %10s %10s %8s %6s %11s %11s\n", "kernel", "ms", "gap ms", "read MB", "write MB", "GB/s", "%HBM", "rows in", "rows out")
	num := func(v int64, scale float64, format string) string {
		if v < 0 {
			return "-"
		}
		return fmt.Sprintf(format, float64(v)/scale)
	}
	for _, k := range p.Kernels {
		gbs, pct := "-", "-"
		if k.BytesRead >= 0 && k.Ms > 0 {
			moved := k.BytesRead + max(k.BytesWritten, 0)
			rate := GBps(moved, k.Ms)
			gbs = fmt.Sprintf("%.0f", rate)
			if p.HBMGBs > 0 {
				pct = fmt.Sprintf("%.0f", 100*rate/p.HBMGBs)
			}
		}
		fmt.Fprintf(&b, "  %-26s %9.4f %9.4f %10s %10s %8s %6s %11s %11s\n", k.Name, k.Ms, k.GapMs,
			num(k.BytesRead, 1e6, "%.2f"), num(k.BytesWritten, 1e6, "%.2f"), gbs, pct,
			num(k.RowsIn, 1, "%.0f"), num(k.RowsOut, 1, "%.0f"))
	}
	fmt.Fprintf(&b, "  %d kernels: %.4f ms on the device, %.4f ms host time (wall %.4f ms); columns read %.2f MB at device width",
		len(p.Kernels), p.KernelMs, p.HostMs, p.WallMs, float64(p.ColumnBytes)/1e6)
	if p.DimBuildsCached+p.DimBuildsMade > 0 {
		fmt.Fprintf(&b, "; dimension builds: %d cached, %d made", p.DimBuildsCached, p.DimBuildsMade)
	}
	return b.String()
}
