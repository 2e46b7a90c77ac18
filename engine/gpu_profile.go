package engine

import (
	"context"

	"gpusql/exec"
	"gpusql/exec/gpu"
	"gpusql/planner"
)

// runGPUProfiled runs p on the GPU timing each kernel (CUDA events around
// every launch; RunProfiled). EXPLAIN ANALYZE on the GPU and bench use it.
func (db *DB) runGPUProfiled(ctx context.Context, p *planner.Physical) (*exec.Result, *gpu.QueryProfile, error) {
	if err := gpuStatus(); err != nil {
		return nil, nil, err
	}
	if err := verifyScans(p); err != nil {
		return nil, nil, err
	}
	ctx, done := db.queryMemory(ctx)
	defer done()
	return gpu.RunProfiled(ctx, p)
}

// RunGPUProfiled runs a prepared query on the GPU with its kernels timed:
// kernel time, host time (wall − kernel) and the bytes it read as stored
// on the device (bench ssb).
func (db *DB) RunGPUProfiled(ctx context.Context, p *Prepared) (*exec.Result, *gpu.QueryProfile, error) {
	res, prof, err := db.runGPUProfiled(ctx, p.Physical)
	if err != nil {
		return nil, nil, err
	}
	return named(res, p.Physical), prof, nil
}

// explainAnalyzeGPU is EXPLAIN ANALYZE where queries run on the GPU: the
// plan, then one line per kernel (time, bytes at device width, GB/s and
// its share of the HBM limit, rows, device idle time before it). ok is
// false when the GPU does not run the plan's shape and the database may
// use the CPU instead (executor auto).
func (db *DB) explainAnalyzeGPU(ctx context.Context, p *planner.Physical) (text string, ok bool, err error) {
	_, prof, err := db.runGPUProfiled(ctx, p)
	if gpuUnsupported(err) && db.opts.Executor == "auto" {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return p.Explain() + "\n" + prof.Table(), true, nil
}
