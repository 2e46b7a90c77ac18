//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// BenchUVA runs `gpusql bench uva`: Kaldewey et al.'s join experiment
// (uva_join.go) for each match rate, mode and result-cache setting,
// after measuring the link's pinned-copy and zero-copy read rates, and
// reports each configuration to progress as it finishes. Every run's match
// count is checked against the count the generator knows.
func BenchUVA(ctx context.Context, opt UVABenchOptions, progress func(UVAResult)) (*UVAReport, error) {
	d, err := getDevice()
	if err != nil {
		return nil, err
	}
	var rep *UVAReport
	err = d.do(func() error {
		var err error
		rep, err = d.benchUVA(ctx, opt, progress)
		return err
	})
	return rep, err
}

func (d *device) benchUVA(ctx context.Context, opt UVABenchOptions, progress func(UVAResult)) (*UVAReport, error) {
	opt.Runs = max(opt.Runs, 1)
	j, err := d.newUVAJoin(opt.BuildRows, opt.ProbeRows, opt.Streams, opt.ChunkRows)
	if err != nil {
		return nil, err
	}
	defer j.close()
	rep := &UVAReport{Device: d.name, BuildRows: opt.BuildRows, ProbeRows: opt.ProbeRows,
		Streams: len(j.streams), ChunkRows: j.chunkRows}
	FillUVABuild(j.r)
	if rep.CopyGBs, rep.ZeroCopyGBs, err = j.linkRates(opt.Runs); err != nil {
		return nil, err
	}
	for _, rate := range opt.MatchRates {
		want := FillUVAProbe(j.s, opt.BuildRows, rate)
		for _, mode := range UVAModes {
			for _, cache := range []bool{false, true} {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				res, err := j.measure(mode, cache, opt.Runs, want)
				if err != nil {
					return nil, err
				}
				res.Match = rate
				rep.Results = append(rep.Results, res)
				if progress != nil {
					progress(res)
				}
			}
		}
	}
	return rep, nil
}

// measure times runs builds and probes in one configuration (medians).
func (j *uvaJoin) measure(mode string, cache bool, runs int, want int64) (UVAResult, error) {
	var buildMs, probeMs []float64
	for range runs {
		if err := j.reset(true); err != nil {
			return UVAResult{}, err
		}
		start := time.Now()
		if err := j.build(mode); err != nil {
			return UVAResult{}, err
		}
		buildMs = append(buildMs, msSince(start))
		start = time.Now()
		if err := j.probe(mode, cache); err != nil {
			return UVAResult{}, err
		}
		probeMs = append(probeMs, msSince(start))
		got, err := j.matches()
		if err != nil {
			return UVAResult{}, err
		}
		if got != want {
			return UVAResult{}, fmt.Errorf("bench uva: %s join (result cache %v) found %d matches, the generator made %d", mode, cache, got, want)
		}
	}
	r := UVAResult{Mode: mode, Cache: cache, Matches: want, BuildMs: median(buildMs), ProbeMs: median(probeMs)}
	nb, np := 8*float64(len(j.r)), 8*float64(len(j.s))
	r.BuildGBs = nb / r.BuildMs / 1e6
	r.ProbeGBs = np / r.ProbeMs / 1e6
	r.TotalGBs = (nb + np) / (r.BuildMs + r.ProbeMs) / 1e6
	return r, nil
}

// linkRates measures, over the probe table's pinned buffer, the pinned
// host-to-device copy rate and the rate of a kernel that only reads it in
// place (uva_read_rate), in GB/s (medians of runs).
func (j *uvaJoin) linkRates(runs int) (copyGBs, zeroGBs float64, err error) {
	n := int64(len(j.r)) // the build table: generated already
	bytes := 8 * n
	f, err := j.d.fn("uva_read_rate")
	if err != nil {
		return 0, 0, err
	}
	var copyMs, zeroMs []float64
	for range max(runs, 3) {
		start := time.Now()
		if err := cu.MemcpyHtoD(j.rCopy, unsafe.Pointer(&j.r[0]), bytes); err != nil {
			return 0, 0, err
		}
		copyMs = append(copyMs, msSince(start))
		a := struct {
			In  uint64
			N   int64
			Out uint64
		}{uint64(j.rDev), bytes / 16, uint64(j.count)}
		start = time.Now()
		if err := launch(f, min(grid1D(a.N, 1024), j.grid), 256, 0, unsafe.Pointer(&a), unsafe.Sizeof(a)); err != nil {
			return 0, 0, err
		}
		if err := j.d.sync(); err != nil {
			return 0, 0, err
		}
		zeroMs = append(zeroMs, msSince(start))
	}
	return float64(bytes) / median(copyMs) / 1e6, float64(bytes/16*16) / median(zeroMs) / 1e6, nil
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Nanoseconds()) / 1e6 }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
