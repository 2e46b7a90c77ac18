//go:build cuda

package gpu

import (
	"context"
	"fmt"

	"gpusql/exec"
	"gpusql/planner"
)

// Run executes a physical plan on the GPU: the same plan exec/cpu runs,
// with the same result. What runs where:
//
//   - the plan's body — every scan, filter, join and aggregate over the
//     base tables — runs in kernels on the device. Today: HashAggregate over
//     a star of HashJoins (or over one filtered scan), see StarPipeline in
//     star_pipeline.go; and a filtered scan without aggregate, see
//     selectQuery in select.go;
//   - a host tail of ORDER BY / TopN / LIMIT / projections / HAVING above
//     the aggregate runs on the host over the aggregate's output, at most
//     hostTailLimit rows (host_tail.go): column reorders, sorts on columns
//     and limits directly, expressions through exec/cpu's operators over
//     the aggregate's rows (so their semantics are the CPU executor's).
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
		var err error
		res, err = d.run(ctx, p)
		return err
	})
	return res, err
}

func (d *device) run(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tail, body := splitTail(p.Root, true)
	var res *exec.Result
	if agg, ok := body.(*planner.HashAggregate); ok {
		q, outs, err := matchStar(agg)
		if err != nil {
			return nil, err
		}
		if res, err = d.runStar(ctx, q, outs); err != nil {
			return nil, err
		}
	} else {
		// No aggregate: filters stay on the GPU, only the ordering and
		// limiting operators above them may run on the host.
		tail, body = splitTail(p.Root, false)
		q, err := matchSelect(body)
		if err != nil {
			return nil, err
		}
		if res, err = d.runSelect(ctx, q); err != nil {
			return nil, err
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

// Supports reports, without touching the device, whether the GPU executor
// recognizes every operator of p (nil), or which one it does not (an error
// wrapping ErrUnsupported). Run can still refuse a plan Supports accepts
// when the data decide (a predicate over too wide a domain, duplicate
// dimension keys).
func Supports(p *planner.Physical) error {
	tail, body := splitTail(p.Root, true)
	if agg, ok := body.(*planner.HashAggregate); ok {
		_, _, err := matchStar(agg)
		return err
	}
	tail, body = splitTail(p.Root, false)
	if _, err := matchSelect(body); err != nil {
		return err
	}
	for _, n := range tail {
		if !cheapTail([]planner.Node{n}) && !simpleTail(n) {
			return unsupported(n, "expressions above a filtered scan")
		}
	}
	return nil
}
