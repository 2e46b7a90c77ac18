//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"os"

	"gpusql/exec"
	"gpusql/planner"
)

// Run executes a physical plan on the GPU: the same plan exec/cpu runs,
// with the same result. What runs where:
//
//   - a HashAggregate over a star of HashJoins (or over one filtered scan)
//     runs as one fused kernel (StarPipeline, star_pipeline.go); a filtered,
//     projected scan as stream compaction plus gathers (select.go);
//   - every other plan body — joins of every kind with their output
//     materialized, hash group-by, DISTINCT, set operations, VALUES, LIMIT
//     — runs operator by operator on device relations (relation.go);
//   - a plan whose EpsilonJoins the planner put on the GPU runs on the CPU
//     executor with the pair finding on the device (epsilon_sql.go);
//   - expressions anywhere run in the expression VM (expr_compile.go,
//     kernels/expr_vm.cu); string functions are evaluated once per
//     dictionary entry and looked up by code; scalar subqueries run first,
//     on the GPU;
//   - ORDER BY and TopN without an aggregate below run on the device
//     (radix sort, sort.go), whatever the row count; above an aggregate, a
//     host tail of ORDER BY / TopN / LIMIT / projections / HAVING runs on
//     the host over at most planner.HostTailLimit rows (host_tail.go).
//
// Which of these a plan takes is the GPU plan's choice (p.GPU, made by
// planner.PlanGPU; made here with the device's profile when the plan came
// without one), as EXPLAIN shows it. A plan with any other shape fails
// with an error naming the operator; the GPU executor never falls back to
// the CPU silently.
func Run(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	res, _, err := execute(ctx, p, false)
	if err != nil && traceUnsupported {
		fmt.Fprintf(os.Stderr, "gpu-trace: %v\n", err)
	}
	return res, err
}

// RunProfiled runs p on the GPU as Run does, timing every kernel: what
// EXPLAIN ANALYZE on the GPU prints and bench ssb reports.
func RunProfiled(ctx context.Context, p *planner.Physical) (*exec.Result, *QueryProfile, error) {
	return execute(ctx, p, true)
}

// traceUnsupported (GPUSQL_GPU_TRACE set) prints every plan the GPU
// refuses, with the reason, to stderr: how coverage is measured.
var traceUnsupported = os.Getenv("GPUSQL_GPU_TRACE") != ""

func (d *device) run(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	hostSteps.start()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := p.GPU
	if g == nil {
		g = planner.PlanGPU(p, d.profile)
	}
	if g.Refused != "" {
		return nil, fmt.Errorf("gpu: plan %w: %s", ErrUnsupported, g.Refused)
	}
	end, err := d.begin(g)
	if err != nil {
		return nil, err
	}
	defer end()
	res, done, err := d.runBody(ctx, g)
	if err != nil {
		return nil, err
	}
	if res, err = runTail(ctx, g, res, p.Names, done); err != nil {
		return nil, err
	}
	hostSteps.mark("tail")
	if len(p.Names) == len(res.Columns) {
		res.Names = append([]string(nil), p.Names...)
	}
	return res, nil
}

// runBody runs the GPU plan's body in the shape the plan says. A star the
// data refuse (duplicate dimension keys, too many surviving groups) or the
// expression VM cannot compile runs operator at a time, the plan's
// fallback; so does a filtered scan whose expressions the VM refuses.
// done is the tail's sort when the body's result comes sorted by it.
func (d *device) runBody(ctx context.Context, g *planner.GPUPlan) (res *exec.Result, done planner.Node, err error) {
	switch g.Shape {
	case planner.GPUStarShape:
		q, outs, err := starFromPlan(g.Star)
		hostSteps.mark("placement+plan")
		if err == nil {
			ps := presortOf(g)
			var sorted bool
			if res, sorted, err = d.runStar(ctx, q, outs, g.Profile, ps); err == nil {
				if sorted {
					done = ps.Node
				}
				return res, done, nil
			}
		}
		if !errors.Is(err, ErrUnsupported) || checkRel(g.Body) != nil {
			return nil, nil, err
		}
	case planner.GPUSelectShape:
		if q, err := matchSelect(g.Body); err == nil {
			res, err := d.runSelect(ctx, q)
			return res, nil, err
		}
	}
	if err := checkRel(g.Body); err != nil {
		return nil, nil, err
	}
	res, err = d.runRel(ctx, g.Body, g)
	return res, nil, err
}

// Supports reports, without touching the device, whether the GPU executor
// recognizes every operator of p (nil), or which one it does not (an error
// wrapping ErrUnsupported). Run can still refuse a plan Supports accepts
// when the data decide (a predicate over too wide a domain, duplicate
// dimension keys).
func Supports(p *planner.Physical) error {
	g := p.GPU
	if g == nil {
		g = planner.PlanGPU(p, planner.DefaultGPUProfile())
	}
	if g.Refused != "" {
		return fmt.Errorf("gpu: plan %w: %s", ErrUnsupported, g.Refused)
	}
	switch g.Shape {
	case planner.GPUEpsilonShape:
		return nil
	case planner.GPUStarShape:
		if _, _, err := starFromPlan(g.Star); err == nil {
			return nil
		}
	case planner.GPUSelectShape:
		if _, err := matchSelect(g.Body); err == nil {
			return nil
		}
	}
	return checkRel(g.Body)
}
