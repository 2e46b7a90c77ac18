//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"time"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// kernelProfiler brackets every launch of a profiled query with CUDA
// events (two event records per launch: cheap, but not free, so only
// RunProfiled — EXPLAIN ANALYZE and bench — turns it on). Only the device
// goroutine uses it.
type kernelProfiler struct {
	events  []cu.Event // reused between queries, two per launch
	used    int
	stats   []KernelStat
	columns map[*columnar.Column]int64
	// dimsCached and dimsMade count star dimension builds.
	dimsCached, dimsMade int
}

// kprof is the running query's profiler; nil when not profiling.
var kprof *kernelProfiler

// profilerEvents keeps the events of earlier profiled queries.
var profilerEvents []cu.Event

func (p *kernelProfiler) event() (cu.Event, error) {
	if p.used == len(p.events) {
		ev, err := cu.MakeEvent(cu.DefaultEvent)
		if err != nil {
			return cu.Event{}, fmt.Errorf("gpu: creating a profiling event: %v", err)
		}
		p.events = append(p.events, ev)
	}
	p.used++
	return p.events[p.used-1], nil
}

// around runs launch between two events recorded on st.
func (p *kernelProfiler) around(name string, st cu.Stream, launch func() error) error {
	start, err := p.event()
	if err != nil {
		return err
	}
	end, err := p.event()
	if err != nil {
		return err
	}
	if err := start.Record(st); err != nil {
		return fmt.Errorf("gpu: recording an event: %v", err)
	}
	if err := launch(); err != nil {
		return err
	}
	p.stats = append(p.stats, KernelStat{Name: name, BytesRead: -1, BytesWritten: -1, RowsIn: -1, RowsOut: -1})
	return end.Record(st)
}

// noteKernel tells the profiler what the kernel just launched moves (bytes
// at device width) and how many rows it took and gave.
func noteKernel(read, written, rowsIn, rowsOut int64) {
	if kprof == nil || len(kprof.stats) == 0 {
		return
	}
	k := &kprof.stats[len(kprof.stats)-1]
	k.BytesRead, k.BytesWritten, k.RowsIn, k.RowsOut = read, written, rowsIn, rowsOut
}

// touchColumn counts a column the query reads at its device width.
func touchColumn(dc *devColumn) {
	if kprof == nil || dc == nil || dc.col == nil {
		return
	}
	b := int64(dc.width) * int64(dc.n)
	if dc.valid != 0 {
		b += (int64(dc.n) + 7) / 8
	}
	kprof.columns[dc.col] = b
}

// finish reads the events (after the query's final synchronization).
func (p *kernelProfiler) finish(out *QueryProfile) error {
	for i := range p.stats {
		ms, err := p.events[2*i].Elapsed(p.events[2*i+1])
		if err != nil {
			return fmt.Errorf("gpu: reading kernel times: %v", err)
		}
		p.stats[i].Ms = ms
		if i > 0 {
			gap, err := p.events[2*i-1].Elapsed(p.events[2*i])
			if err == nil {
				p.stats[i].GapMs = max(gap, 0) // overlapping streams: no gap
			}
		}
		out.KernelMs += ms
	}
	out.Kernels = p.stats
	out.DimBuildsCached, out.DimBuildsMade = p.dimsCached, p.dimsMade
	for _, b := range p.columns {
		out.ColumnBytes += b
	}
	return nil
}

// RunProfiled runs p on the GPU as Run does, timing every kernel: what
// EXPLAIN ANALYZE on the GPU prints and bench ssb reports.
func RunProfiled(ctx context.Context, p *planner.Physical) (*exec.Result, *QueryProfile, error) {
	d, err := getDevice()
	if err != nil {
		return nil, nil, fmt.Errorf("gpu: no GPU available: %v", err)
	}
	var res *exec.Result
	prof := &QueryProfile{HBMGBs: d.profile.HBMGBs}
	err = d.do(func() error {
		kprof = &kernelProfiler{events: profilerEvents, columns: map[*columnar.Column]int64{}}
		defer func() { profilerEvents, kprof = kprof.events, nil }()
		if err := d.sync(); err != nil {
			return err
		}
		start := time.Now()
		d.clearOverflow()
		var err error
		if res, err = d.run(ctx, p); err != nil {
			return err
		}
		if err := d.sync(); err != nil {
			return err
		}
		prof.WallMs = float64(time.Since(start).Nanoseconds()) / 1e6
		if err := d.checkOverflow(); err != nil {
			return err
		}
		return kprof.finish(prof)
	})
	if err != nil {
		return nil, nil, err
	}
	prof.HostMs = max(prof.WallMs-prof.KernelMs, 0)
	return res, prof, nil
}

// countDimBuild counts a dimension build taken from the cache or made.
func countDimBuild(cached bool) {
	switch {
	case kprof == nil:
	case cached:
		kprof.dimsCached++
	default:
		kprof.dimsMade++
	}
}
