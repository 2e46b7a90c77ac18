package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"

	"gpusql/engine"
	"gpusql/exec/gpu"
)

// profiledRuns is how many profiled runs of a query give its kernel time
// (their median): one run's kernel time varies by 5-10 µs, as much as a
// small query's host time, which is the warm median less it.
const profiledRuns = 5

// profileGPU runs prep profiledRuns more times on the GPU with every
// kernel timed and fills t's kernel time, host time and bytes at device
// width from the run of median kernel time. The timed warm runs stay
// unprofiled (the events cost a little); host time is the warm median
// minus that kernel time.
func profileGPU(ctx context.Context, db *engine.DB, prep *engine.Prepared, t *queryTiming) error {
	profs := make([]*gpu.QueryProfile, profiledRuns)
	for i := range profs {
		_, p, err := db.RunGPUProfiled(ctx, prep)
		if err != nil {
			return fmt.Errorf("gpu executor, profiled run: %w", err)
		}
		profs[i] = p
	}
	slices.SortFunc(profs, func(a, b *gpu.QueryProfile) int { return cmp.Compare(a.KernelMs, b.KernelMs) })
	prof := profs[len(profs)/2]
	t.Kernels = len(prof.Kernels)
	t.KernelMs = prof.KernelMs
	t.HostMs = max(t.WarmMs-prof.KernelMs, 0)
	t.DeviceBytes = prof.ColumnBytes
	t.HBMGBs = prof.HBMGBs
	t.KernelTable = prof.Table()
	var read int64
	for _, k := range prof.Kernels {
		if k.BytesRead < 0 {
			t.Unnoted++
			continue
		}
		read += k.BytesRead
		t.MovedBytes += k.BytesRead + max(k.BytesWritten, 0)
	}
	if read > 0 && t.Unnoted == 0 && read < t.FetchBytes {
		// The kernels skipped chunks the plan could not rule out (zone
		// maps through dimension key intervals): count what they read.
		t.FetchBytes = read
	}
	if prof.KernelMs > 0 {
		t.KernelGBps = float64(t.readBytes()) / prof.KernelMs / 1e6
	}
	if t.WarmMs > 0 {
		// The GPU's rate counts bytes as stored on the device.
		t.GBps = float64(prof.ColumnBytes) / t.WarmMs / 1e6
	}
	if t.ColdMs > 0 {
		t.ColdGBps = float64(prof.ColumnBytes) / t.ColdMs / 1e6
	}
	if prof.HBMGBs > 0 {
		t.HBMPct = 100 * t.KernelGBps / prof.HBMGBs
	}
	return nil
}

// printGPUTotals sums the GPU's kernel and host time over the queries and
// states the limit %HBM is measured against.
func printGPUTotals(w io.Writer, r *benchReport) {
	for _, e := range r.Executors {
		if isGPU(e) {
			printGPUTotal(w, r, e)
		}
	}
}

func printGPUTotal(w io.Writer, r *benchReport, e string) {
	var kern, host, hbm float64
	for _, q := range r.Queries {
		if t := q.Executors[e]; t != nil {
			kern, host, hbm = kern+t.KernelMs, host+t.HostMs, t.HBMGBs
		}
	}
	fmt.Fprintf(w, "%s: kernels %.3f ms + host %.3f ms over all queries (kern ms: CUDA events around each kernel, median of %d profiled runs; host ms: warm ms - kern ms; dev MB: columns read as stored on the device; read MB: the plan's estimate of what the kernels fetch of them (a star reads fact columns only for rows alive, in 32-byte sectors); %%HBM: read MB / kern ms against the measured %.0f GB/s; cold ms: a run with no column on the device, the host copies a cold load sends kept; first ms: the process's first such run, which makes those copies where no earlier query did)\n",
		e, kern, host, profiledRuns, hbm)
}

// startCPUProfile profiles the process into path until the returned
// function runs.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// readBytes is what the kernels fetched: the plan's estimate when it made
// one, else the columns' device bytes.
func (t *queryTiming) readBytes() int64 {
	if t.FetchBytes > 0 {
		return t.FetchBytes
	}
	return t.DeviceBytes
}
