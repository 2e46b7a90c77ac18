//go:build cuda

package gpu

import (
	"fmt"
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
// same batches can be spread over several GPUs holding the data each (the
// paper's entity partitioning); this build runs them all on device 0.

const (
	epsStreams     = 3
	epsMaxBufPairs = 64 << 20 // 512 MB per buffer, device and pinned each
	// epsDevices is the number of GPUs batches are dealt to round-robin.
	epsDevices = 1
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
	hostPairs unsafe.Pointer
	hostCount unsafe.Pointer // 8 B, pinned
	batch     epsBatch
	state     int // epsIdle, epsRunning (kernel + count copy queued), epsCopying
	n         int64
}

const (
	epsIdle = iota
	epsRunning
	epsCopying
)

// planBatches sizes the buffers and splits the queries. Without batching
// there is one batch and one buffer large enough for the estimate.
func (r *epsRun) planBatches(batching bool, estimated int64) (bufPairs int64, queue []epsBatch) {
	want := estimated + estimated/10 + 1024
	// One query can match every inner point; a buffer holds at least that,
	// so splitting always ends.
	floor := int64(len(r.g.Rows)) + 1
	nb := int64(1)
	if batching {
		nb = max(epsStreams, (want+epsMaxBufPairs-1)/epsMaxBufPairs)
		nb = min(nb, max(r.nq, 1))
		bufPairs = max((want+nb-1)/nb, epsMinBufPairs, floor)
	} else {
		bufPairs = max(want, floor)
	}
	for b := range nb {
		queue = append(queue, epsBatch{off: b, stride: nb, device: int(b % epsDevices)})
	}
	return bufPairs, queue
}

func (r *epsRun) runBatches(batching bool, sink cpu.EpsilonSink, st *EpsilonStats) error {
	bufPairs, queue := r.planBatches(batching, st.Estimated)
	nslots := 1
	if batching {
		nslots = epsStreams
	}
	st.BufferPairs, st.Streams = bufPairs, nslots
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
	c := &epsConsumer{g: r.g, q: r.q, sink: sink}
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
			return c.flush()
		}
		s := fifo[0]
		if err := s.stream.Synchronize(); err != nil {
			return fmt.Errorf("epsilon join: batch kernel: %w", err)
		}
		switch s.state {
		case epsRunning:
			s.n = int64(*(*uint64)(s.hostCount))
			if s.n > bufPairs { // overflow: split, run again
				b := s.batch
				queue = append(queue, epsBatch{b.off, 2 * b.stride, b.device}, epsBatch{b.off + b.stride, 2 * b.stride, b.device})
				st.Reruns++
				s.state = epsIdle
				fifo = fifo[1:]
				continue
			}
			if s.n > 0 {
				if err := cu.MemcpyDtoHAsync(s.hostPairs, s.devPairs, 8*s.n, s.stream); err != nil {
					return err
				}
			}
			s.state = epsCopying
		case epsCopying:
			st.Pairs += s.n
			if err := c.consume(unsafe.Slice((*uint32)(s.hostPairs), 2*s.n)); err != nil {
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
	if s.hostPairs, _, err = hostAlloc(int(8 * bufPairs)); err != nil {
		return s, err
	}
	s.hostCount, _, err = hostAlloc(8)
	return s, err
}

func (r *epsRun) freeSlot(s *epsSlot) {
	s.stream.Synchronize()
	if s.hostPairs != nil {
		hostFree(s.hostPairs)
	}
	if s.hostCount != nil {
		hostFree(s.hostCount)
	}
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
	if err := launchOn(s.stream, f, r.blocks(p.QCount), epsThreads, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(s.hostCount, s.devCount, 8, s.stream); err != nil {
		return err
	}
	s.batch, s.state = b, epsRunning
	return nil
}

// epsConsumer maps (query, grid point) indexes to original rows and hands
// them to the sink in chunks.
type epsConsumer struct {
	g         *cpu.EpsilonGrid
	q         *cpu.EpsilonQueries
	sink      cpu.EpsilonSink
	outer, in []int32
}

func (c *epsConsumer) consume(pairs []uint32) error {
	if c.outer == nil {
		c.outer, c.in = make([]int32, 0, cpu.EpsilonPairBuffer), make([]int32, 0, cpu.EpsilonPairBuffer)
	}
	for i := 0; i < len(pairs); i += 2 {
		c.outer = append(c.outer, c.q.Rows[pairs[i]])
		c.in = append(c.in, c.g.Rows[pairs[i+1]])
		if len(c.outer) == cpu.EpsilonPairBuffer {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *epsConsumer) flush() error {
	if len(c.outer) == 0 {
		return nil
	}
	err := c.sink(c.outer, c.in)
	c.outer, c.in = c.outer[:0], c.in[:0]
	return err
}
