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
//   - expressions anywhere run in the expression VM (expr_compile.go,
//     kernels/expr_vm.cu); string functions are evaluated once per
//     dictionary entry and looked up by code; scalar subqueries run first,
//     on the GPU;
//   - ORDER BY and TopN without an aggregate below run on the device
//     (radix sort, sort.go), whatever the row count; above an aggregate, a
//     host tail of ORDER BY / TopN / LIMIT / projections / HAVING runs on
//     the host over at most hostTailLimit rows (host_tail.go).
//
// A plan with any other shape fails with an error naming the operator; the
// GPU executor never falls back to the CPU silently.
func Run(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	d, err := getDevice()
	if err != nil {
		return nil, fmt.Errorf("gpu: no GPU available: %v", err)
	}
	var res *exec.Result
	err = d.do(func() error {
		d.clearOverflow()
		var err error
		if res, err = d.run(ctx, p); err != nil {
			return err
		}
		return d.checkOverflow()
	})
	if err != nil && traceUnsupported {
		fmt.Fprintf(os.Stderr, "gpu-trace: %v\n", err)
	}
	return res, err
}

// traceUnsupported (GPUSQL_GPU_TRACE set) prints every plan the GPU
// refuses, with the reason, to stderr: how coverage is measured.
var traceUnsupported = os.Getenv("GPUSQL_GPU_TRACE") != ""

func (d *device) run(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.CPUOnly != "" {
		return nil, fmt.Errorf("gpu: plan %w: the planner put it on the CPU: %s", ErrUnsupported, p.CPUOnly)
	}
	tail, body := splitTail(p.Root, true)
	var res *exec.Result
	if agg, ok := body.(*planner.HashAggregate); ok {
		q, outs, err := matchStar(agg)
		if err != nil {
			// Not a star: hash group-by on the materializing executor.
			if err2 := checkRel(agg); err2 != nil {
				return nil, err2
			}
			if res, err = d.runRel(ctx, agg); err != nil {
				return nil, err
			}
		} else if res, err = d.runStar(ctx, q, outs); err != nil {
			// The data can refuse the star (duplicate dimension keys, too
			// many dense groups): the general operators take it then.
			if !errors.Is(err, ErrUnsupported) || checkRel(agg) != nil {
				return nil, err
			}
			if res, err = d.runRel(ctx, agg); err != nil {
				return nil, err
			}
		}
	} else {
		// No aggregate: filters stay on the GPU, only the ordering and
		// limiting operators above them may run on the host.
		tail, body = sortCut(splitTail(p.Root, false))
		if q, err := matchSelect(body); err == nil {
			if res, err = d.runSelect(ctx, q); err != nil {
				return nil, err
			}
		} else {
			// Joins and anything else without an aggregate: the
			// materializing executor (relation.go).
			if err := checkRel(body); err != nil {
				return nil, err
			}
			if res, err = d.runRel(ctx, body); err != nil {
				return nil, err
			}
		}
	}
	res, err := runTail(ctx, tail, body.Schema(), res, p.Names)
	if err != nil {
		return nil, err
	}
	if len(p.Names) == len(res.Columns) {
		res.Names = append([]string(nil), p.Names...)
	}
	return res, nil
}

// splitTail separates the operators the host may run over a small result
// (ORDER BY, TopN, LIMIT, projections, HAVING filters; root first) from the
// plan body below them. They run on the host only above an aggregate.
func splitTail(n planner.Node, aboveAggregate bool) (tail []planner.Node, body planner.Node) {
	for {
		switch x := n.(type) {
		case *planner.Projection:
			if !aboveAggregate && !x.IsPassThrough() {
				return tail, n
			}
			tail, n = append(tail, x), x.Input
		case *planner.Sort:
			tail, n = append(tail, x), x.Input
		case *planner.TopN:
			tail, n = append(tail, x), x.Input
		case *planner.Limit:
			tail, n = append(tail, x), x.Input
		case *planner.Filter:
			if !aboveAggregate {
				return tail, n
			}
			tail, n = append(tail, x), x.Input
		default:
			return tail, n
		}
	}
}

// sortCut moves the root-most Sort or TopN of a tail (and everything below
// it) into the body, so that it runs on the device over any number of rows;
// only the limits and column reorders above it stay on the host.
func sortCut(tail []planner.Node, body planner.Node) ([]planner.Node, planner.Node) {
	for i, n := range tail {
		switch n.(type) {
		case *planner.Sort, *planner.TopN:
			return tail[:i], n
		}
	}
	return tail, body
}

// Supports reports, without touching the device, whether the GPU executor
// recognizes every operator of p (nil), or which one it does not (an error
// wrapping ErrUnsupported). Run can still refuse a plan Supports accepts
// when the data decide (a predicate over too wide a domain, duplicate
// dimension keys).
func Supports(p *planner.Physical) error {
	if p.CPUOnly != "" {
		return fmt.Errorf("gpu: plan %w: the planner put it on the CPU: %s", ErrUnsupported, p.CPUOnly)
	}
	tail, body := splitTail(p.Root, true)
	if agg, ok := body.(*planner.HashAggregate); ok {
		if _, _, err := matchStar(agg); err != nil {
			return checkRel(agg)
		}
		return nil
	}
	tail, body = sortCut(splitTail(p.Root, false))
	if _, err := matchSelect(body); err != nil {
		if err := checkRel(body); err != nil {
			return err
		}
	}
	for _, n := range tail {
		if !cheapTail([]planner.Node{n}) && !simpleTail(n) {
			return unsupported(n, "expressions above a filtered scan")
		}
	}
	return nil
}
