package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"gpusql/exec/cpu"
	"gpusql/exec/gpu"
)

// simjoinResult is one timed join.
type simjoinResult struct {
	k       int
	buildMs float64 // grid on the host (shared by both executors)
	joinMs  float64 // GPU: upload, estimate, batches, pairs to the sink; CPU: the join
	countMs float64 // the join counting pairs per row instead (GROUP BY a.id count(*))
	pairs   int64
	counts  []int32 // pairs per row, from the count run
	stats   gpu.EpsilonStats
}

// simjoinRun times one join on executor exe: "cpu", "gpu" (the primary
// GPU) or "gpus" (the devices ids, batches dealt round-robin).
func simjoinRun(exe string, ids []int, p cpu.EpsilonPoints, opt cpu.EpsilonOptions) (simjoinResult, error) {
	var r simjoinResult
	t0 := time.Now()
	g, err := cpu.BuildEpsilonGrid(p, opt)
	if err != nil {
		return r, err
	}
	q := g.SelfQueries()
	r.k, r.buildMs = g.K, msSince(t0)
	// The pairs arrive in host memory batch by batch; the sink only
	// counts them, so the time is the join's, not a consumer's.
	var seen int64
	sink := func(pairs []int32) error { seen += int64(len(pairs) / 2); return nil }
	t1 := time.Now()
	if exe != "cpu" {
		r.stats, err = gpu.EpsilonJoinPairsOn(devicesFor(exe, ids), g, q, opt, sink)
		r.pairs = r.stats.Pairs
	} else {
		r.pairs, err = cpu.EpsilonJoinPairs(g, q, opt.Workers, sink)
	}
	r.joinMs = msSince(t1)
	if err != nil {
		return r, err
	}
	if seen != r.pairs {
		return r, fmt.Errorf("%d pairs reported, %d delivered", r.pairs, seen)
	}
	t2 := time.Now()
	var total int64
	if exe != "cpu" {
		r.counts, total, err = gpu.EpsilonJoinCountOn(devicesFor(exe, ids), g, q)
	} else {
		r.counts, total = cpu.EpsilonJoinCount(g, q, opt.Workers)
	}
	r.countMs = msSince(t2)
	if err == nil && total != r.pairs {
		err = fmt.Errorf("counting found %d pairs, the pairs join %d", total, r.pairs)
	}
	return r, err
}

// simjoinBest runs a join runs times and keeps the fastest times.
func simjoinBest(exe string, ids []int, p cpu.EpsilonPoints, opt cpu.EpsilonOptions, runs int) (simjoinResult, error) {
	best, err := simjoinRun(exe, ids, p, opt)
	for i := 1; i < runs && err == nil; i++ {
		var r simjoinResult
		if r, err = simjoinRun(exe, ids, p, opt); err == nil {
			best.buildMs, best.joinMs, best.countMs = min(best.buildMs, r.buildMs), min(best.joinMs, r.joinMs), min(best.countMs, r.countMs)
		}
	}
	return best, err
}

// simjoinBrute counts the neighbours of sampled rows by brute force; ms is
// the time extrapolated to every row.
func simjoinBrute(p cpu.EpsilonPoints, eps float32, sample int) (rows []int, counts []int32, ms float64) {
	n, N := p.Dims, p.N()
	sample = min(sample, N)
	rows = make([]int, sample)
	counts = make([]int32, sample)
	for i := range rows {
		rows[i] = i * N / sample
	}
	t := time.Now()
	parallelFor(sample, func(i int) {
		q := p.Data[rows[i]*n:][:n]
		c := int32(0)
		for j := range N {
			if cpu.EpsilonWithin(cpu.EpsilonL2, eps, false, q, p.Data[j*n:j*n+n]) {
				c++
			}
		}
		counts[i] = c
	})
	if sample == 0 {
		return rows, counts, 0
	}
	return rows, counts, msSince(t) * float64(N) / float64(sample)
}

func simjoinSetBench(w io.Writer, s simjoinSet, f simjoinFlags) error {
	t := time.Now()
	p := simjoinPoints(f.points, s, f.seed)
	eps := f.eps
	if len(eps) == 0 {
		eps = simjoinEpsilons(p, f.targets)
	}
	fmt.Fprintf(w, "\n%s: %d points × %d dims (generated and ε chosen in %.0f ms)\n", s.name, p.N(), s.dims, msSince(t))
	fmt.Fprintf(w, "%-10s %2s %12s %8s %8s %8s %9s %10s %8s %9s %9s %7s %11s %s\n", "ε", "k", "pairs", "pairs/pt", "grid ms",
		"upload", "GPU ms", "CPU ms", "CPU/GPU", "GPU cnt", "CPU cnt", "batches", "brute ms*", "check")
	for _, e := range eps {
		opt := cpu.DefaultEpsilonOptions(cpu.EpsilonL2, float32(e))
		opt.Workers = f.workers
		res := map[string]simjoinResult{}
		for _, exe := range f.executors {
			r, err := simjoinBest(exe, f.gpus, p, opt, f.runs)
			if err != nil {
				return fmt.Errorf("%s join at ε=%g: %w", exe, e, err)
			}
			res[exe] = r
		}
		rows, want, bruteMs := simjoinBrute(p, float32(e), f.bruteQ)
		check := "ok"
		var any simjoinResult
		for exe, r := range res {
			any = r
			for i, row := range rows {
				if r.counts[row] != want[i] {
					check = fmt.Sprintf("%s WRONG at row %d: %d, brute force %d", exe, row, r.counts[row], want[i])
				}
			}
		}
		for _, other := range []string{"cpu", "gpus"} {
			g, okg := res["gpu"]
			o, oko := res[other]
			if okg && oko && g.pairs != o.pairs {
				check = fmt.Sprintf("GPU %d pairs, %s %d", g.pairs, other, o.pairs)
			}
		}
		fmt.Fprintf(w, "%-10.4g %2d %12d %8.1f %8.0f %8s %9s %10s %8s %9s %9s %7s %11.0f %s\n", e, any.k, any.pairs,
			float64(any.pairs)/float64(max(1, p.N())), any.buildMs, uploadOf(res), msOf(res, "gpu", false), msOf(res, "cpu", false),
			ratio(res), msOf(res, "gpu", true), msOf(res, "cpu", true), batchesOf(res), bruteMs, check)
		printMultiGPU(w, res, f.gpus)
	}
	if f.ablate && len(eps) > 0 {
		return simjoinAblate(w, p, eps[len(eps)/2], f)
	}
	return nil
}

func msOf(res map[string]simjoinResult, exe string, count bool) string {
	r, ok := res[exe]
	if !ok {
		return "-"
	}
	if count {
		return fmt.Sprintf("%.1f", r.countMs)
	}
	return fmt.Sprintf("%.1f", r.joinMs)
}

func uploadOf(res map[string]simjoinResult) string {
	if g, ok := res["gpu"]; ok {
		return fmt.Sprintf("%.1f", g.stats.UploadMs)
	}
	return "-"
}

func ratio(res map[string]simjoinResult) string {
	g, okg := res["gpu"]
	c, okc := res["cpu"]
	if !okg || !okc || g.joinMs == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f×", c.joinMs/g.joinMs)
}

func batchesOf(res map[string]simjoinResult) string {
	g, ok := res["gpu"]
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%d/%d", g.stats.Batches, g.stats.Reruns)
}

// simjoinAblate times the join at ε with each optimization off in turn on
// the first executor (the GPU when present).
func simjoinAblate(w io.Writer, p cpu.EpsilonPoints, eps float64, f simjoinFlags) error {
	exe := f.executors[0]
	base := cpu.DefaultEpsilonOptions(cpu.EpsilonL2, float32(eps))
	base.Workers = f.workers
	variants := []struct {
		name string
		off  func(*cpu.EpsilonOptions)
	}{
		{"all on", func(*cpu.EpsilonOptions) {}},
		{"REORDER off", func(o *cpu.EpsilonOptions) { o.Reorder = false }},
		{"SORTIDU off", func(o *cpu.EpsilonOptions) { o.SortIDU = false }},
		{"SHORTC off", func(o *cpu.EpsilonOptions) { o.ShortC = false }},
	}
	if exe == "gpu" {
		variants = append(variants, struct {
			name string
			off  func(*cpu.EpsilonOptions)
		}{"batching off", func(o *cpu.EpsilonOptions) { o.Batching = false }})
	}
	var parts []string
	var on float64
	for i, v := range variants {
		opt := base
		v.off(&opt)
		r, err := simjoinBest(exe, f.gpus, p, opt, f.runs)
		if err != nil {
			return fmt.Errorf("%s with %s: %w", exe, v.name, err)
		}
		if i == 0 {
			on = r.joinMs
			parts = append(parts, fmt.Sprintf("all on %.1f ms (k=%d)", on, r.k))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.1f ms (k=%d; it buys %.2f×)", v.name, r.joinMs, r.k, r.joinMs/on))
	}
	fmt.Fprintf(w, "  ablation on the %s at ε=%.4g: %s\n", strings.ToUpper(exe), eps, strings.Join(parts, "; "))
	return nil
}

// devicesFor is the device list executor exe runs on.
func devicesFor(exe string, ids []int) []int {
	if exe == "gpus" {
		return ids
	}
	return nil
}

// printMultiGPU prints the join on several GPUs beside the one-GPU time.
func printMultiGPU(w io.Writer, res map[string]simjoinResult, ids []int) {
	m, ok := res["gpus"]
	if !ok {
		return
	}
	one := res["gpu"]
	speed := func(a, b float64) string {
		if b <= 0 || a <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f×", a/b)
	}
	fmt.Fprintf(w, "%10s on GPUs %v: join %.1f ms (%s one GPU's %.1f ms), count %.1f ms (%s), %d batches, %d reruns\n",
		"", ids, m.joinMs, speed(one.joinMs, m.joinMs), one.joinMs, m.countMs, speed(one.countMs, m.countMs), m.stats.Batches, m.stats.Reruns)
}
