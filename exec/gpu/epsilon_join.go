//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec/cpu"
)

// The ε-similarity join on the GPU (kernels/epsilon_join.cu). The grid is
// built on the host (exec/cpu/epsilon_grid.go, shared with the CPU path
// so both see the same cells) and made resident with the query points; a
// self-join uploads the points once. Counting runs one kernel writing a
// count per query. Pairs run in batches (epsilon_batches.go).

// epsParams is the twin of EpsParams in kernels/epsilon_join.cu.
type epsParams struct {
	Grid, CellIDs, CellStart, Queries, Coords, Inv uint64
	QRows, GRows, Counts, Pairs, PairCount         uint64
	NumCells, QOffset, QStride, QCount, Capacity   int64
	Reach                                          float64
	Stride                                         [cpu.EpsilonMaxK]uint64
	Cells                                          [cpu.EpsilonMaxK]int32
	Dims, K, SortDim, Metric, Strict, ShortC       int32
	Exact, Tpq                                     int32
	Limit, Lo, Hi                                  float32
	Pad                                            int32
}

const epsThreads = 256

// epsRun holds one join's resident data.
type epsRun struct {
	d  *device
	s  scratch
	p  epsParams // batch fields filled per launch
	q  *cpu.EpsilonQueries
	g  *cpu.EpsilonGrid
	nq int64
	// inFlight is how many batches run at once (runBatches).
	inFlight int
}

func (d *device) epsUpload(g *cpu.EpsilonGrid, q *cpu.EpsilonQueries) (*epsRun, error) {
	grid, err := d.epsUploadGrid(g)
	if err != nil {
		return nil, err
	}
	r, err := grid.withQueries(q)
	if err != nil {
		grid.s.release()
		return nil, err
	}
	r.s.ptrs = append(r.s.ptrs, grid.s.ptrs...) // one release frees both
	return r, nil
}

// epsUploadGrid makes the grid resident (the fields of p that do not
// depend on the queries).
func (d *device) epsUploadGrid(g *cpu.EpsilonGrid) (*epsRun, error) {
	r := &epsRun{d: d, s: scratch{d: d}, g: g}
	p := &r.p
	var err error
	for _, u := range []struct {
		dst *uint64
		b   []byte
	}{
		{&p.Grid, bytesOf(g.Data)}, {&p.CellIDs, bytesOf(g.CellIDs)}, {&p.CellStart, bytesOf(g.CellStart)},
		{&p.Inv, bytesOf(g.Test.Inv)}, {&p.GRows, bytesOf(g.Rows)},
	} {
		if *u.dst, err = r.s.upload(u.b); err != nil {
			r.s.release()
			return nil, fmt.Errorf("epsilon join: uploading the grid: %w", err)
		}
	}
	p.NumCells = int64(len(g.CellIDs))
	p.Reach = g.Reach
	for i := range g.K {
		p.Stride[i], p.Cells[i] = g.Stride[i], g.Cells[i]
	}
	p.Dims, p.K, p.SortDim, p.Metric = int32(g.Dims), int32(g.K), int32(g.SortDim), int32(g.Test.Metric)
	p.Strict, p.ShortC, p.Exact = b32(g.Test.Strict), b32(g.Test.ShortC), b32(g.Test.Exact)
	p.Limit, p.Lo, p.Hi = g.Test.Limit, g.Test.Lo, g.Test.Hi
	return r, nil
}

// withQueries is a run of the resident grid against q, in its own scratch
// (release it alone; the grid's stays): the queries' coordinates, their
// points unless they are the grid's own (a self-join), a pair counter.
func (grid *epsRun) withQueries(q *cpu.EpsilonQueries) (*epsRun, error) {
	r := &epsRun{d: grid.d, s: scratch{d: grid.d}, p: grid.p, g: grid.g, q: q, nq: int64(q.N())}
	p, g := &r.p, grid.g
	var err error
	if p.Coords, err = r.s.upload(bytesOf(q.Coords)); err != nil {
		r.s.release()
		return nil, fmt.Errorf("epsilon join: uploading the queries: %w", err)
	}
	p.Queries, p.QRows = p.Grid, p.GRows
	if len(q.Data) > 0 && (len(g.Data) == 0 || &q.Data[0] != &g.Data[0]) {
		if p.Queries, err = r.s.upload(bytesOf(q.Data)); err == nil {
			p.QRows, err = r.s.upload(bytesOf(q.Rows))
		}
		if err != nil {
			r.s.release()
			return nil, fmt.Errorf("epsilon join: uploading the queries: %w", err)
		}
	}
	pc, err := r.s.alloc(8)
	if err != nil {
		r.s.release()
		return nil, err
	}
	p.PairCount = uint64(pc)
	return r, nil
}

// upload copies b into a new allocation of the scratch (8 bytes at least,
// so that an empty array is still a valid pointer).
func (s *scratch) upload(b []byte) (uint64, error) {
	p, err := s.alloc(int64(max(len(b), 8)))
	if err == nil && len(b) > 0 {
		err = cu.MemcpyHtoD(p, unsafe.Pointer(unsafe.SliceData(b)), int64(len(b)))
	}
	return uint64(p), err
}

func b32(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// shape returns threads per query and blocks for a kernel over n queries
// (the queries of every batch that runs at the same time, on any stream):
// enough threads to fill the GPU (2,048 per SM), up to 32 on one query
// when the queries are few; 16 blocks per SM at most, grid-stride beyond.
// A query's lanes take every tpq-th of its 3^k neighbour cells, so tpq
// stays within 3^k: beyond it lanes would idle and one lane would still
// scan each crowded cell alone (what made batches 2× slower in 16-D, where
// k is 1 or 2 and three batches each took 32 lanes a query).
func (r *epsRun) shape(n, batchQueries int64) (tpq int32, blocks int) {
	full := int64(r.d.sms) * 2048
	cells := int64(1)
	for range r.p.K {
		cells *= 3
	}
	tpq = 1
	for tpq < 32 && 2*int64(tpq) <= cells && n*int64(tpq) < full {
		tpq *= 2
	}
	return tpq, int(min((batchQueries*int64(tpq)+epsThreads-1)/epsThreads, int64(r.d.sms*16)))
}

// countBatch runs epsilon_count over queries off, off+stride, ... on the
// NULL stream and returns their total; counts (device, per query) may be 0.
func (r *epsRun) countBatch(off, stride int64, counts cu.DevicePtr) (int64, error) {
	f, err := r.d.fn("epsilon_count")
	if err != nil {
		return 0, err
	}
	p := r.p
	p.QOffset, p.QStride, p.QCount = off, stride, (r.nq-off+stride-1)/stride
	p.Counts = uint64(counts)
	if err := cu.MemsetD32(cu.DevicePtr(p.PairCount), 0, 2); err != nil {
		return 0, err
	}
	var blocks int
	p.Tpq, blocks = r.shape(p.QCount, p.QCount)
	if err := launch(f, blocks, epsThreads, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return 0, err
	}
	var total uint64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&total), cu.DevicePtr(p.PairCount), 8); err != nil {
		return 0, fmt.Errorf("epsilon join: count kernel: %w", err)
	}
	return int64(total), nil
}

// EpsilonJoinCount counts, per outer row, the inner points within ε on
// the GPU (counts indexed by outer row, as cpu.EpsilonJoinCount).
func EpsilonJoinCount(g *cpu.EpsilonGrid, q *cpu.EpsilonQueries) (counts []int32, total int64, err error) {
	return EpsilonJoinCountOn(nil, g, q)
}

// estimate predicts the number of pairs from a strided sample of the
// queries (1 %, at least 1,000), counted on the GPU.
func (r *epsRun) estimate() (int64, error) {
	stride := max(1, min(100, r.nq/1000))
	n, err := r.countBatch(0, stride, 0)
	sampled := (r.nq + stride - 1) / stride
	if err != nil || sampled == 0 {
		return 0, err
	}
	return n * r.nq / sampled, nil
}

// EpsilonJoinPairs finds every pair within ε on the GPU and hands them to
// sink (as original rows, in batches).
func EpsilonJoinPairs(g *cpu.EpsilonGrid, q *cpu.EpsilonQueries, opt cpu.EpsilonOptions, sink cpu.EpsilonSink) (EpsilonStats, error) {
	return EpsilonJoinPairsOn(nil, g, q, opt, sink)
}

func epsMs(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
