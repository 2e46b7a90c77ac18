//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
)

// The SQL ε-join on the GPU (planner.GPUEpsilonShape): the plan says the
// device finds the pairs of its EpsilonJoins and the CPU executor runs the
// rest, so the plan runs on the CPU executor with this package's
// EpsilonDevice in its context. The executor indexes the right input with
// its grid (the same cells as the CPU path) and loads it here once; each
// left batch's points then come as queries: counted in one kernel when the
// plan says only counts are needed, else joined in the streamed result
// batches of epsilon_batches.go.

// runEpsilonPlan runs a GPUEpsilonShape plan. Over several devices each
// holds the right side's grid, and the left batches go to them in turn.
func runEpsilonPlan(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	devs, err := devicesOf(p.GPU.Devices)
	if err != nil {
		return nil, fmt.Errorf("gpu: no GPU available: %v", err)
	}
	res, err := cpu.Run(cpu.WithEpsilonDevice(ctx, epsDevice{devs}), p)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	return res, nil
}

// epsDevice implements cpu.EpsilonDevice.
type epsDevice struct{ devs []*device }

func (e epsDevice) Load(g *cpu.EpsilonGrid, opt cpu.EpsilonOptions) (cpu.EpsilonOnDevice, error) {
	res := &epsResident{grids: make([]*epsRun, len(e.devs)), batching: opt.Batching}
	err := eachDevice(e.devs, func(k int, d *device) error {
		var err error
		res.grids[k], err = d.epsUploadGrid(g)
		return err
	})
	if err != nil {
		res.Release()
		return nil, err
	}
	return res, nil
}

// epsResident is a grid resident on every device; each left batch goes to
// the next device in turn.
type epsResident struct {
	grids    []*epsRun
	next     atomic.Int64
	batching bool
}

// grid is the resident grid the next left batch uses.
func (e *epsResident) grid() *epsRun {
	return e.grids[int(e.next.Add(1)-1)%len(e.grids)]
}

func (e *epsResident) Pairs(q *cpu.EpsilonQueries, sink cpu.EpsilonSink) error {
	grid := e.grid()
	return grid.d.do(func() error {
		r, err := grid.withQueries(q)
		if err != nil {
			return err
		}
		defer r.s.release()
		var st EpsilonStats
		if st.Estimated, err = r.estimate(); err != nil {
			return err
		}
		return r.runBatches(e.batching, sink, &st)
	})
}

func (e *epsResident) Counts(q *cpu.EpsilonQueries) ([]int32, error) {
	grid := e.grid()
	counts := make([]int32, q.N())
	err := grid.d.do(func() error {
		r, err := grid.withQueries(q)
		if err != nil {
			return err
		}
		defer r.s.release()
		dc, err := r.s.alloc(max(4*r.nq, 8))
		if err != nil {
			return err
		}
		if err := cu.MemsetD32(dc, 0, max(r.nq, 1)); err != nil {
			return err
		}
		if _, err := r.countBatch(0, 1, dc); err != nil || r.nq == 0 {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&counts[0]), dc, 4*r.nq)
	})
	return counts, err
}

func (e *epsResident) Release() {
	for _, g := range e.grids {
		if g != nil {
			g.d.do(func() error {
				g.s.release()
				return nil
			})
		}
	}
}
