package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// copyProbeBytes is the buffer bench skeletons copies device to device to
// measure the read+write limit: large enough that the copy streams from
// HBM, not the 50 MB L2.
const copyProbeBytes = 1 << 30

// printMoved is bench skeletons' honest byte count for each GPU executor:
// next to the columns the query reads (the figure the main table's %HBM
// uses) it gives what the kernels read and wrote at device width —
// outputs, row-id lists, scan offsets, every pass of a sort — and the
// rate of those bytes against two limits: the HBM read rate (a scan's
// limit) and copyGBs, a measured device-to-device copy counting its read
// and its write (the limit of a kernel that writes as much as it reads;
// 0 when not measured). A kernel whose launch site does not count its
// bytes is left out of "moved" and counted under "unnoted", so a figure
// there is a lower bound.
func printMoved(w io.Writer, r *benchReport, copyGBs float64) {
	for _, e := range r.Executors {
		if !isGPU(e) {
			continue
		}
		var hbm float64
		for _, q := range r.Queries {
			if t := q.Executors[e]; t != nil && t.HBMGBs > 0 {
				hbm = t.HBMGBs
			}
		}
		fmt.Fprintf(w, "\n%s: bytes the kernels move (read + written at device width) against HBM reads %.0f GB/s", e, hbm)
		if copyGBs > 0 {
			fmt.Fprintf(w, " and a device-to-device copy %.0f GB/s (read + write, %d MB buffer)", copyGBs, copyProbeBytes>>20)
		}
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "query\tkernels\tunnoted\tkern ms\tcolumns MB\t% HBM (columns read)\tmoved MB\tmoved GB/s\t% HBM (bytes moved)\t% copy (bytes moved)\t")
		for _, q := range r.Queries {
			t := q.Executors[e]
			if t == nil {
				continue
			}
			rate := 0.0
			if t.KernelMs > 0 {
				rate = float64(t.MovedBytes) / t.KernelMs / 1e6
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.1f\t%.1f\t%.1f\t%.0f\t%s\t%s\t\n", q.Name, t.Kernels, t.Unnoted, t.KernelMs,
				float64(t.readBytes())/1e6, t.HBMPct, float64(t.MovedBytes)/1e6, rate, pctOf(rate, hbm), pctOf(rate, copyGBs))
		}
		tw.Flush()
	}
}

// pctOf is rate as a percentage of limit, "-" without a limit.
func pctOf(rate, limit float64) string {
	if limit <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*rate/limit)
}

// printKernelTables prints each GPU query's profiled run kernel by kernel,
// to see which stage of a skeleton takes the time.
func printKernelTables(w io.Writer, r *benchReport) {
	for _, e := range r.Executors {
		if !isGPU(e) {
			continue
		}
		for _, q := range r.Queries {
			if t := q.Executors[e]; t != nil && t.KernelTable != "" {
				fmt.Fprintf(w, "\n%s on %s:\n%s\n", q.Name, e, t.KernelTable)
			}
		}
	}
}
