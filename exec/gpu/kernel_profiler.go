//go:build cuda

package gpu

import (
	"fmt"
	"sync"
	"sync/atomic"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// kernelProfiler brackets every launch of a profiled query with CUDA
// events (two event records per launch: cheap, but not free, so only
// RunProfiled — EXPLAIN ANALYZE and bench — turns it on). Each device
// profiling a query has its own, used only by its goroutine (events belong
// to a context).
type kernelProfiler struct {
	d       *device
	tid     int64      // the locked thread running the profiled query
	events  []cu.Event // reused between queries, two per launch
	used    int
	stats   []KernelStat
	columns map[*columnar.Column]int64
	// dimsCached and dimsMade count star dimension builds.
	dimsCached, dimsMade int
}

// profiling counts the devices profiling a query now, so that launches
// outside profiled queries pay one atomic load; profilers finds the
// profiler of the query the calling thread runs (inside do).
var (
	profiling atomic.Int32
	profilers sync.Map // thread id → *kernelProfiler
)

// kprof is the calling thread's profiler, nil when its query is
// not profiled.
func kprof() *kernelProfiler {
	if profiling.Load() == 0 {
		return nil
	}
	p, _ := profilers.Load(threadID())
	kp, _ := p.(*kernelProfiler)
	return kp
}

// startProfile profiles the device's next query (inside do).
func (d *device) startProfile() *kernelProfiler {
	p := &kernelProfiler{d: d, tid: threadID(), events: d.profEvents, columns: map[*columnar.Column]int64{}}
	profilers.Store(p.tid, p)
	profiling.Add(1)
	return p
}

// stopProfile ends it, keeping its events for the next one.
func (d *device) stopProfile(p *kernelProfiler) {
	d.profEvents = p.events
	profilers.Delete(p.tid)
	profiling.Add(-1)
}

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
	kp := kprof()
	if kp == nil || len(kp.stats) == 0 {
		return
	}
	k := &kp.stats[len(kp.stats)-1]
	k.BytesRead, k.BytesWritten, k.RowsIn, k.RowsOut = read, written, rowsIn, rowsOut
}

// lastKernel is the index of the profiled query's last kernel so far (-1
// when none or not profiling), for noteKernelAt.
func lastKernel() int {
	kp := kprof()
	if kp == nil {
		return -1
	}
	return len(kp.stats) - 1
}

// noteKernelAt is noteKernel for kernel i (lastKernel's index), when what
// it moved is known only after later launches.
func noteKernelAt(i int, read, written, rowsIn, rowsOut int64) {
	kp := kprof()
	if kp == nil || i < 0 || i >= len(kp.stats) {
		return
	}
	k := &kp.stats[i]
	k.BytesRead, k.BytesWritten, k.RowsIn, k.RowsOut = read, written, rowsIn, rowsOut
}

// touchColumn counts a column the query reads at its device width.
func touchColumn(dc *devColumn) {
	kp := kprof()
	if kp == nil || dc == nil || dc.col == nil {
		return
	}
	b := dc.view().valueBytes(int64(dc.n))
	if dc.valid != 0 {
		b += (int64(dc.n) + 7) / 8
	}
	kp.columns[dc.col] = b
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

// countDimBuild counts a dimension build taken from the cache or made.
func countDimBuild(cached bool) {
	switch kp := kprof(); {
	case kp == nil:
	case cached:
		kp.dimsCached++
	default:
		kp.dimsMade++
	}
}
