//go:build cuda

package gpu

import (
	"sync"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec/cpu"
)

// The ε-join over several GPUs (issue 18), by the paper's entity
// partitioning: every device holds the whole grid and the query points;
// the query batches (strided, so each samples the whole data set and
// finds about the same number of pairs) are dealt round-robin to the
// devices, which run theirs at the same time over their own streams; the
// pairs reach the sink on the host one batch at a time (the sink is
// called by one device at a time). Counting splits the queries the same
// way, each device filling the counts of its strided share.

// eachDevice runs f(k, d) inside every device's do at once.
func eachDevice(devs []*device, f func(k int, d *device) error) error {
	errs := make([]error, len(devs))
	concurrently(len(devs), func(k int) { errs[k] = devs[k].do(func() error { return f(k, devs[k]) }) })
	return firstError(errs)
}

// epsUploadAll makes the grid and the queries resident on every device.
func epsUploadAll(devs []*device, g *cpu.EpsilonGrid, q *cpu.EpsilonQueries) ([]*epsRun, func(), error) {
	runs := make([]*epsRun, len(devs))
	release := func() {
		for k, r := range runs {
			if r != nil {
				devs[k].do(func() error { r.s.release(); return nil })
			}
		}
	}
	err := eachDevice(devs, func(k int, d *device) error {
		r, err := d.epsUpload(g, q)
		if err != nil {
			return err
		}
		runs[k] = r
		return d.sync()
	})
	if err != nil {
		release()
		return nil, nil, err
	}
	return runs, release, nil
}

// EpsilonJoinPairsOn is EpsilonJoinPairs over the devices ids (nil: the
// primary).
func EpsilonJoinPairsOn(ids []int, g *cpu.EpsilonGrid, q *cpu.EpsilonQueries, opt cpu.EpsilonOptions, sink cpu.EpsilonSink) (EpsilonStats, error) {
	var st EpsilonStats
	devs, err := devicesOf(ids)
	if err != nil {
		return st, err
	}
	t0 := time.Now()
	runs, release, err := epsUploadAll(devs, g, q)
	if err != nil {
		return st, err
	}
	defer release()
	t1 := time.Now()
	if err := devs[0].do(func() (err error) { st.Estimated, err = runs[0].estimate(); return err }); err != nil {
		return st, err
	}
	t2 := time.Now()
	bufPairs, queue := runs[0].planBatches(opt.Batching, st.Estimated, len(devs))
	var mu sync.Mutex
	locked := func(pairs []int32) error {
		mu.Lock()
		defer mu.Unlock()
		return sink(pairs)
	}
	sts := make([]EpsilonStats, len(devs))
	err = eachDevice(devs, func(k int, d *device) error {
		var mine []epsBatch
		for _, b := range queue {
			if b.device == k {
				mine = append(mine, b)
			}
		}
		return runs[k].runQueue(opt.Batching, bufPairs, mine, locked, &sts[k])
	})
	for _, s := range sts {
		st.Pairs += s.Pairs
		st.Batches += s.Batches
		st.Reruns += s.Reruns
		st.Streams, st.BufferPairs = s.Streams, s.BufferPairs
	}
	st.Devices = len(devs)
	st.UploadMs, st.EstimateMs, st.JoinMs = epsMs(t1.Sub(t0)), epsMs(t2.Sub(t1)), epsMs(time.Since(t2))
	return st, err
}

// EpsilonJoinCountOn is EpsilonJoinCount over the devices ids (nil: the
// primary): device k counts queries k, k+n, k+2n, ... of the grid's order.
func EpsilonJoinCountOn(ids []int, g *cpu.EpsilonGrid, q *cpu.EpsilonQueries) (counts []int32, total int64, err error) {
	devs, err := devicesOf(ids)
	if err != nil {
		return nil, 0, err
	}
	runs, release, err := epsUploadAll(devs, g, q)
	if err != nil {
		return nil, 0, err
	}
	defer release()
	nq := runs[0].nq
	parts := make([][]int32, len(devs))
	totals := make([]int64, len(devs))
	err = eachDevice(devs, func(k int, d *device) error {
		r := runs[k]
		dc, err := r.s.alloc(max(4*nq, 8))
		if err != nil {
			return err
		}
		if err := cu.MemsetD32(dc, 0, max(nq, 1)); err != nil {
			return err
		}
		if int64(k) >= nq {
			return nil
		}
		if totals[k], err = r.countBatch(int64(k), int64(len(devs)), dc); err != nil {
			return err
		}
		parts[k] = make([]int32, nq)
		return cu.MemcpyDtoH(unsafe.Pointer(&parts[k][0]), dc, 4*nq)
	})
	if err != nil {
		return nil, 0, err
	}
	// Counts are indexed by outer row, which the grid's order scatters:
	// each device's array is zero outside its queries' rows.
	counts = make([]int32, nq)
	for k, p := range parts {
		total += totals[k]
		for i, c := range p {
			counts[i] += c
		}
	}
	return counts, total, nil
}
