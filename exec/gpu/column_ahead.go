//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// Copies ahead (planner/gpu_cold_reads.go, GPUPacking.CopyAhead). A cold
// star query used to build its dimensions first — small copies, kernels
// and a host ranking, each waiting for the one before — and only then copy
// the fact columns its kernel reads whole, so the link sat idle during the
// builds and the builds' latency added to the copies'. Now the run loads
// the dimensions' columns first (small copies that wait for nothing: their
// value ranges come from the plan), then sends the marked fact columns
// packed and unpacks them on the device's copy stream (non-blocking: it
// waits for nothing on the default stream), and builds the dimensions
// while those copies cross the link. While any copy ahead is in flight
// the device's synchronizations wait for the default stream only (sync),
// and a reader of the column waits for its copy when it takes it
// (settle).

// sendingCopy is what a column's copy in flight reads and writes through:
// the packed host copy, the staging buffer, and (on the copy stream) the
// event recorded after its unpack.
type sendingCopy struct {
	pc    *packedCopy
	stage cu.DevicePtr
	done  cu.Event
	ahead bool
	// With GPUSQL_CACHE_TRACE: timing events before the copy, after it and
	// after the unpack.
	timing []cu.Event
}

// release gives back the staging buffer, the packed copy and the event;
// the device must be past the unpack.
func (l *sendingCopy) release(cc *columnCache) {
	cc.d.pool.put(l.stage)
	cc.packed.release(l.pc)
	if l.ahead {
		cu.DestroyEvent(&l.done)
		cc.d.aheadInFlight--
	}
	for i := range l.timing {
		cu.DestroyEvent(&l.timing[i])
	}
}

// traceMark records a timing event of a copy on st (GPUSQL_CACHE_TRACE).
func (l *sendingCopy) traceMark(st cu.Stream) {
	if !cacheTrace {
		return
	}
	if ev, err := cu.MakeEvent(cu.DefaultEvent); err == nil && ev.Record(st) == nil {
		l.timing = append(l.timing, ev)
	}
}

// traceTimes prints a settled copy's device times (GPUSQL_CACHE_TRACE).
func (l *sendingCopy) traceTimes(bytes int64) {
	if len(l.timing) != 3 {
		return
	}
	copied, err1 := l.timing[0].Elapsed(l.timing[1])
	unpacked, err2 := l.timing[1].Elapsed(l.timing[2])
	if err1 == nil && err2 == nil {
		fmt.Fprintf(os.Stderr, "gpu cache: copy ahead on the device: %.3f ms copying %d bytes (%.1f GB/s), %.3f ms unpacking\n",
			copied, bytes, float64(bytes)/copied/1e6, unpacked)
	}
}

// copyStream is the device's stream for copies ahead, made on first use.
func (d *device) copyStream() (cu.Stream, error) {
	if d.copies == (cu.Stream{}) {
		st, err := cu.MakeStream(cu.NonBlocking)
		if err != nil {
			return cu.Stream{}, fmt.Errorf("gpu: creating the copy stream: %v", err)
		}
		d.copies = st
	}
	return d.copies, nil
}

// copyAhead starts the copies of the fact columns the plan copies ahead
// that are not on the device, each into a cache entry pinned for the run,
// after loading the columns of the dimensions to build (loadDimColumns).
// A column without room is left to the run's own load (which may read it
// another way).
func (r *queryRun) copyAhead(q *starQuery) error {
	cols := r.aheadColumns(q)
	if len(cols) == 0 {
		return nil
	}
	if err := r.loadDimColumns(q); err != nil {
		return err
	}
	hostSteps.mark("dim-columns")
	st, err := r.d.copyStream()
	if err != nil {
		return err
	}
	cc := r.d.cache
	for _, col := range cols {
		e, err := cc.sendUnpacked(col, r.d.place.of(col), st)
		if errors.Is(err, errNoRoom) {
			continue
		}
		if err != nil {
			return err
		}
		if e.sending.done, err = cu.MakeEvent(cu.DisableTiming); err == nil {
			err = e.sending.done.Record(st)
		}
		if err != nil {
			st.Synchronize()
			e.sending.release(cc)
			cc.free(e)
			return fmt.Errorf("gpu: recording a copy's end: %v", err)
		}
		e.sending.ahead = true
		r.d.aheadInFlight++
		cc.used += e.bytes
		cc.insert(e)
		r.pinned = append(r.pinned, e)
		r.ahead = append(r.ahead, e)
		copiesAhead.Add(1)
	}
	return nil
}

// copiesAhead counts the copies started ahead (tests).
var copiesAhead atomic.Int64

// aheadColumns are the fact columns q's plan copies ahead that are not on
// the device (none for a device's part of a split star).
func (r *queryRun) aheadColumns(q *starQuery) []*columnar.Column {
	if r.part != nil || r.d.place == nil {
		return nil
	}
	cc := r.d.cache
	var cols []*columnar.Column
	for _, col := range r.d.place.ahead {
		if gc := r.d.place.of(col); !gc.HasRange || col.Len == 0 || !slices.Contains(q.fact.Table.Columns, col) {
			continue
		}
		if e, ok := cc.m[cacheKey{col: col}]; ok {
			if e.pins > 0 || e.host == hostPtr(col) && e.n == col.Len && !e.zeroCopy {
				continue
			}
			cc.drop(e)
		}
		cols = append(cols, col)
	}
	return cols
}

// loadDimColumns loads the columns of the dimensions the run builds (those
// not in the build cache) before the copies ahead start: their copies are
// small and share the link's copy engine with the fact columns', which
// serves them in the order they are queued, so the builds need not wait
// for the fact columns. Loads with the plan's value range do not wait for
// the device (load).
func (r *queryRun) loadDimColumns(q *starQuery) error {
	for i, dm := range q.dims {
		if key, _ := r.dimBuildKey(q, i); key != "" && r.d.dims.lookup(key) != nil {
			continue
		}
		for _, c := range dm.scan.Columns {
			if _, err := r.col(dm.scan.Table, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// settleAhead waits for e's copy ahead and gives back what it read.
func (cc *columnCache) settleAhead(e *devColumn) error {
	l := e.sending
	start := time.Now()
	err := l.done.Synchronize()
	if cacheTrace {
		fmt.Fprintf(os.Stderr, "gpu cache: waited %.3f ms for a copy ahead\n", time.Since(start).Seconds()*1e3)
		l.traceTimes(l.pc.size)
	}
	e.sending = nil
	l.release(cc)
	if err != nil {
		return fmt.Errorf("gpu: copying a column ahead: %v", err)
	}
	return nil
}

// settleAheadAll waits for the copies ahead a run started that it never
// read (it failed first), so that none is in flight between queries.
func (r *queryRun) settleAheadAll() {
	for _, e := range r.ahead {
		if e.sending != nil {
			if err := r.d.cache.settleAhead(e); err != nil {
				// The device failed: the entry's values are unknown.
				e.pins = 0
				r.d.cache.drop(e)
			}
		}
	}
	r.ahead = nil
}

// launchUnpackOn starts unpack_packed on stream st, outside the query's
// kernel profile and launch count: the copy's event says when it is done.
func (cc *columnCache) launchUnpackOn(st cu.Stream, c colView, n int64, out cu.DevicePtr) error {
	f, err := cc.d.fn("unpack_packed")
	if err != nil {
		return err
	}
	a := unpackArgs{c, n, uint64(out)}
	grid := min(grid1D(n, threads), cc.d.sms*8)
	return launchUncounted(st, f, grid, threads, 0, unsafe.Pointer(&a), unsafe.Sizeof(a))
}
