package cpu

import (
	"context"
	"fmt"

	"gpusql/planner"
)

// When the plan puts an EpsilonJoin's pair finding on the GPU
// (planner.GPUEpsilonShape) the GPU executor runs the plan on this
// executor with an EpsilonDevice in the context: the operator indexes the
// right input with the same grid as ever, the device takes the grid once,
// and each left batch's points are joined on the device, which hands back
// the pairs, or only per-point counts when the plan says the operator
// above needs nothing more (CountOnly). Without a device in the context
// (the CPU executor running the same plan, to check the GPU or serve
// without one) the pairs are found here.

// EpsilonDevice finds ε-join pairs on a GPU (exec/gpu implements it).
type EpsilonDevice interface {
	// Load makes the grid resident on the device; opt are the plan's
	// options (batching).
	Load(g *EpsilonGrid, opt EpsilonOptions) (EpsilonOnDevice, error)
}

// EpsilonOnDevice is a grid resident on the device.
type EpsilonOnDevice interface {
	// Pairs hands every pair of q's points and the grid's to sink, as
	// EpsilonJoinPairs does; calls to sink are serialized.
	Pairs(q *EpsilonQueries, sink EpsilonSink) error
	// Counts returns, per outer row of q (q.Rows' values), the number of
	// grid points within ε.
	Counts(q *EpsilonQueries) ([]int32, error)
	Release()
}

type epsilonDeviceKey struct{}

// WithEpsilonDevice makes Run find the pairs of GPU-placed EpsilonJoins
// on dev.
func WithEpsilonDevice(ctx context.Context, dev EpsilonDevice) context.Context {
	return context.WithValue(ctx, epsilonDeviceKey{}, dev)
}

func epsilonDeviceFrom(ctx context.Context) EpsilonDevice {
	dev, _ := ctx.Value(epsilonDeviceKey{}).(EpsilonDevice)
	return dev
}

// loadEpsilonDevice puts idx's grid on the device when the plan says the
// GPU finds n's pairs and a device was given.
func (x *executor) loadEpsilonDevice(n *planner.EpsilonJoin, idx *epsilonIndex) error {
	dev := epsilonDeviceFrom(x.ctx)
	if n.PairsOn != planner.PairsGPU || dev == nil || idx.grid == nil {
		return nil
	}
	opt, _ := epsilonOptions(n)
	var err error
	if idx.dev, err = dev.Load(idx.grid, opt); err != nil {
		return fmt.Errorf("%s on the GPU: %w", planner.OpName(n), err)
	}
	return nil
}

// releaseEpsilonDevices frees the grids loaded on the device.
func (x *executor) releaseEpsilonDevices() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, idx := range x.epsilon {
		if idx.dev != nil {
			idx.dev.Release()
			idx.dev = nil
		}
	}
}

// pushDevice joins a left batch on the device: its non-NULL vectors become
// the queries; the pairs go through the pair join as on the CPU, or, with
// CountOnly, the batch goes on with each row weighted by its count (rows
// without a pair dropped), which count(*) above adds up.
func (o *epsilonOp) pushDevice(b *batch) error {
	v := o.vec.eval(b, b.sel)
	dims := o.idx.grid.Dims
	o.data, o.pos = o.data[:0], o.pos[:0]
	for _, p := range b.sel {
		if v.isNull(p) {
			continue
		}
		q := v.vecs[p]
		if len(q) != dims {
			return fmt.Errorf("%s(): vectors have different dimensions %d and %d", o.idx.fname, len(q), dims)
		}
		o.data = append(o.data, q...)
		o.pos = append(o.pos, p)
	}
	if len(o.pos) == 0 {
		return nil
	}
	q, err := o.idx.grid.Queries(EpsilonPoints{Data: o.data, Dims: dims}, o.opt)
	if err != nil {
		return fmt.Errorf("%s: %w", o.idx.fname, err)
	}
	if o.countOnly {
		return o.pushCounts(b, q)
	}
	o.pj.begin(b)
	err = o.idx.dev.Pairs(q, func(pairs []int32) error {
		for i := 0; i < len(pairs); i += 2 {
			if err := o.pj.add(b, o.pos[pairs[i]], o.idx.rowOf[pairs[i+1]]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return o.pj.end(b)
}

func (o *epsilonOp) pushCounts(b *batch, q *EpsilonQueries) error {
	counts, err := o.idx.dev.Counts(q)
	if err != nil {
		return err
	}
	if cap(o.weight) < b.n {
		o.weight = make([]int64, b.n)
	}
	out := &batch{n: b.n, cols: b.cols, morsel: b.morsel, off: b.off, weight: o.weight[:b.n]}
	for i, p := range o.pos {
		if c := counts[i]; c > 0 {
			out.sel = append(out.sel, p)
			out.weight[p] = int64(c)
		}
	}
	if len(out.sel) == 0 {
		return nil
	}
	return o.next.push(out)
}
