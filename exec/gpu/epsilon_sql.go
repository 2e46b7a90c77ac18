//go:build cuda

package gpu

import (
	"context"
	"fmt"
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

// runEpsilonPlan runs a GPUEpsilonShape plan.
func runEpsilonPlan(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	d, err := getDevice()
	if err != nil {
		return nil, fmt.Errorf("gpu: no GPU available: %v", err)
	}
	res, err := cpu.Run(cpu.WithEpsilonDevice(ctx, epsDevice{d}), p)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	return res, nil
}

// epsDevice implements cpu.EpsilonDevice.
type epsDevice struct{ d *device }

func (e epsDevice) Load(g *cpu.EpsilonGrid, opt cpu.EpsilonOptions) (cpu.EpsilonOnDevice, error) {
	var grid *epsRun
	err := e.d.do(func() error {
		var err error
		grid, err = e.d.epsUploadGrid(g)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &epsResident{grid: grid, batching: opt.Batching}, nil
}

// epsResident is a grid resident on the device.
type epsResident struct {
	grid     *epsRun
	batching bool
}

func (e *epsResident) Pairs(q *cpu.EpsilonQueries, sink cpu.EpsilonSink) error {
	d := e.grid.d
	return d.do(func() error {
		r, err := e.grid.withQueries(q)
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
	d := e.grid.d
	counts := make([]int32, q.N())
	err := d.do(func() error {
		r, err := e.grid.withQueries(q)
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
	e.grid.d.do(func() error {
		e.grid.s.release()
		return nil
	})
}
