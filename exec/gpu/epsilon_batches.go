//go:build cuda

package gpu

import (
	"fmt"
	"sync"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec/cpu"
)

// Result batching of the ε-join (the paper's §4.3). The number of pairs is
// not known before the join and may exceed device memory, so the queries
// are split into N_b strided batches (query b, b+N_b, b+2·N_b, ...: each
// batch samples the whole data set and finds about the same number of
// pairs), N_b from the sampled estimate and the buffer size. Each batch
// runs on one of epsStreams streams with its own device result buffer and
// pinned host buffer: while batch i's kernel runs, batch i-1's pairs are
// copied out and batch i-2's are handed to the sink. A batch whose pairs
// overflow its buffer (the estimate was low) is run again split in two.
// Each batch carries a device index, assigned round-robin, so that the
// batches spread over several GPUs holding the data each (the paper's
// entity partitioning, epsilon_devices.go): N_b is then a multiple of the
// device count.

const (
	epsStreams     = 3
	epsMaxBufPairs = 64 << 20 // 512 MB per buffer, device and pinned each
)

// epsMinBufPairs is the smallest result buffer (a variable: a test lowers
// it to force overflows).
var epsMinBufPairs int64 = 1 << 20

type epsBatch struct {
	off, stride int64 // queries off, off+stride, ... below the query count
	device      int   // GPU the batch is assigned to
}

// epsSlot is one stream's buffers and the batch it runs.
type epsSlot struct {
	stream    cu.Stream
	devPairs  cu.DevicePtr
	devCount  cu.DevicePtr
	hostPairs pinnedBuf
	hostCount pinnedBuf // 8 B used
	batch     epsBatch
	state     int // epsIdle, epsRunning (kernel + count copy queued), epsCopying
	n         int64
}

const (
	epsIdle = iota
	epsRunning
	epsCopying
)

// planBatches sizes the buffers and splits the queries, dealing the
// batches round-robin to devices. Without batching there is one batch per
// device and buffers large enough for the estimate.
func (r *epsRun) planBatches(batching bool, estimated int64, devices int) (bufPairs int64, queue []epsBatch) {
	want := estimated + estimated/10 + 1024
	// One query can match every inner point; a buffer holds at least that,
	// so splitting always ends.
	floor := int64(len(r.g.Rows)) + 1
	nb := int64(1)
	if batching {
		nb = max(epsStreams, (want+epsMaxBufPairs-1)/epsMaxBufPairs)
		nb = (nb + int64(devices) - 1) / int64(devices) * int64(devices)
		nb = min(nb, max(r.nq, 1))
		bufPairs = max((want+nb-1)/nb, epsMinBufPairs, floor)
	} else {
		nb = min(int64(devices), max(r.nq, 1))
		bufPairs = max((want+nb-1)/nb, floor)
	}
	for b := range nb {
		queue = append(queue, epsBatch{off: b, stride: nb, device: int(b % int64(devices))})
	}
	return bufPairs, queue
}

func (r *epsRun) runBatches(batching bool, sink cpu.EpsilonSink, st *EpsilonStats) error {
	bufPairs, queue := r.planBatches(batching, st.Estimated, 1)
	return r.runQueue(batching, bufPairs, queue, sink, st)
}

// runQueue runs the batches of queue (one device's) over the streams.
func (r *epsRun) runQueue(batching bool, bufPairs int64, queue []epsBatch, sink cpu.EpsilonSink, st *EpsilonStats) error {
	nslots := 1
	if batching {
		nslots = epsStreams
	}
	st.BufferPairs, st.Streams = bufPairs, nslots
	// Batches on different streams run at once: each is shaped for the
	// queries of all of them together.
	r.inFlight = min(nslots, len(queue))
	slots := make([]*epsSlot, nslots)
	defer func() {
		for _, s := range slots {
			if s != nil {
				r.freeSlot(s)
			}
		}
	}()
	for i := range slots {
		s, err := r.newSlot(bufPairs)
		if err != nil {
			return err
		}
		slots[i] = s
	}
	var fifo []*epsSlot
	next := 0
	for {
		for _, s := range slots {
			if s.state == epsIdle && next < len(queue) {
				if err := r.launchBatch(s, queue[next], bufPairs); err != nil {
					return err
				}
				fifo = append(fifo, s)
				next++
				st.Batches++
			}
		}
		if len(fifo) == 0 {
			return nil
		}
		s := fifo[0]
		if err := s.stream.Synchronize(); err != nil {
			return fmt.Errorf("epsilon join: batch kernel: %w", err)
		}
		switch s.state {
		case epsRunning:
			s.n = int64(*(*uint64)(s.hostCount.host))
			if s.n > bufPairs { // overflow: split, run again
				b := s.batch
				queue = append(queue, epsBatch{b.off, 2 * b.stride, b.device}, epsBatch{b.off + b.stride, 2 * b.stride, b.device})
				st.Reruns++
				s.state = epsIdle
				fifo = fifo[1:]
				continue
			}
			if s.n > 0 {
				if err := cu.MemcpyDtoHAsync(s.hostPairs.host, s.devPairs, 8*s.n, s.stream); err != nil {
					return err
				}
			}
			// To the back of the queue: the next batch's kernel is
			// waited for while this copy runs, and the copies of all
			// finished batches overlap the sink's work on the first.
			s.state = epsCopying
			fifo = append(fifo[1:], s)
		case epsCopying:
			st.Pairs += s.n
			if err := consumePairs(unsafe.Slice((*int32)(s.hostPairs.host), 2*s.n), sink); err != nil {
				return err
			}
			s.state = epsIdle
			fifo = fifo[1:]
		}
	}
}

func (r *epsRun) newSlot(bufPairs int64) (*epsSlot, error) {
	s := &epsSlot{}
	var err error
	if s.stream, err = cu.MakeStream(cu.NonBlocking); err != nil {
		return nil, fmt.Errorf("epsilon join: creating a stream: %w", err)
	}
	if s.devPairs, err = r.s.alloc(8 * bufPairs); err != nil {
		return s, err
	}
	if s.devCount, err = r.s.alloc(8); err != nil {
		return s, err
	}
	if s.hostPairs, err = epsPinnedGet(8 * bufPairs); err != nil {
		return s, err
	}
	s.hostCount, err = epsPinnedGet(8)
	return s, err
}

// epsPinned keeps pinned result buffers between joins: pinning hundreds
// of megabytes costs more than a small join. The devices of a join over
// several GPUs share it.
var (
	epsPinned   []pinnedBuf
	epsPinnedMu sync.Mutex
)

// At most epsPinnedKeep buffers and epsPinnedKeepBytes are kept.
const (
	epsPinnedKeep      = 8
	epsPinnedKeepBytes = 3 * 8 * epsMaxBufPairs // three full result buffers
)

func epsPinnedGet(n int64) (pinnedBuf, error) {
	epsPinnedMu.Lock()
	defer epsPinnedMu.Unlock()
	best := -1
	for i, b := range epsPinned {
		if b.size >= n && (best < 0 || b.size < epsPinned[best].size) {
			best = i
		}
	}
	if best >= 0 {
		b := epsPinned[best]
		epsPinned = append(epsPinned[:best], epsPinned[best+1:]...)
		return b, nil
	}
	c := sizeClass(n)
	h, d, err := hostAlloc(int(c))
	return pinnedBuf{h, d, c}, err
}

func epsPinnedPut(b pinnedBuf) {
	if b.host == nil {
		return
	}
	epsPinnedMu.Lock()
	defer epsPinnedMu.Unlock()
	epsPinned = append(epsPinned, b)
	for {
		var total int64
		small := 0
		for i, k := range epsPinned {
			total += k.size
			if k.size < epsPinned[small].size {
				small = i
			}
		}
		if len(epsPinned) <= epsPinnedKeep && total <= epsPinnedKeepBytes {
			return
		}
		hostFree(epsPinned[small].host) // the smallest costs least to pin again
		epsPinned = append(epsPinned[:small], epsPinned[small+1:]...)
	}
}

func (r *epsRun) freeSlot(s *epsSlot) {
	s.stream.Synchronize()
	epsPinnedPut(s.hostPairs)
	epsPinnedPut(s.hostCount)
	s.stream.Destroy()
}

// launchBatch queues on the slot's stream: clear the counter, the pairs
// kernel, and the counter's copy to pinned memory.
func (r *epsRun) launchBatch(s *epsSlot, b epsBatch, bufPairs int64) error {
	f, err := r.d.fn("epsilon_pairs")
	if err != nil {
		return err
	}
	p := r.p
	p.QOffset, p.QStride = b.off, b.stride
	p.QCount = max(0, (r.nq-b.off+b.stride-1)/b.stride)
	p.Pairs, p.PairCount, p.Capacity = uint64(s.devPairs), uint64(s.devCount), bufPairs
	if err := cu.MemsetD32Async(s.devCount, 0, 2, s.stream); err != nil {
		return err
	}
	var blocks int
	p.Tpq, blocks = r.shape(p.QCount*int64(r.inFlight), p.QCount)
	if err := launchOn(s.stream, f, blocks, epsThreads, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(s.hostCount.host, s.devCount, 8, s.stream); err != nil {
		return err
	}
	s.batch, s.state = b, epsRunning
	return nil
}

// consumePairs hands a batch's pairs (in pinned memory, already original
// rows) to the sink in chunks of at most cpu.EpsilonPairBuffer pairs.
func consumePairs(pairs []int32, sink cpu.EpsilonSink) error {
	for len(pairs) > 0 {
		n := min(len(pairs), 2*cpu.EpsilonPairBuffer)
		if err := sink(pairs[:n]); err != nil {
			return err
		}
		pairs = pairs[n:]
	}
	return nil
}
