//go:build cuda

package gpu

import (
	"context"

	"gpusql/planner"
	"gpusql/sql"
)

// An aggregate over a partitioned inner join folds the join pass by pass
// (planner.GPUJoinPasses.Consumer): each pass's pairs become that pass's
// joined rows, the operators between the join and the aggregate and the
// aggregate itself run over them as over any input, and the pass's groups
// are combined on the host with the passes' before (pass_fold.go: COUNTs
// and SUMs add, MINs and MAXes compare). Everything a pass
// allocates goes back to the pool when it ends, so the join's output is
// never whole on the device: it may pass the 2^31 rows a relation can hold.

// foldedJoin is the partitioned join agg folds pass by pass, if any.
func (r *queryRun) foldedJoin(agg *planner.HashAggregate) (*planner.HashJoin, *planner.GPUJoinPasses) {
	for n, jp := range r.joinPasses {
		if j, ok := n.(*planner.HashJoin); ok && jp.Consumer == agg {
			return j, jp
		}
	}
	return nil, nil
}

func (r *queryRun) aggregateOverPasses(ctx context.Context, agg *planner.HashAggregate, j *planner.HashJoin, plan *planner.GPUJoinPasses) (*relation, error) {
	L, err := r.rel(ctx, j.Left)
	if err != nil {
		return nil, err
	}
	R, err := r.rel(ctx, j.Right)
	if err != nil {
		return nil, err
	}
	jp, swap, err := r.joinKeys(L, R, j)
	if err != nil {
		return nil, err
	}
	fold := newPassFold(agg)
	if r.fixed == nil {
		r.fixed = map[planner.Node]*relation{}
	}
	defer delete(r.fixed, j)
	err = r.forEachPass(&jp, plan, joinCapacity(j.EstRows, jp.NProbe), func(pr pairs) error {
		joinPassStats.folded++
		if swap {
			pr.left, pr.right = pr.right, pr.left
		}
		// This pass's rows and what is computed over them live in a
		// scratch of their own, released when the pass ends.
		saved := r.s
		r.s = scratch{d: r.d}
		defer func() {
			r.s.release()
			r.s = saved
		}()
		joined, err := r.finishJoin(L, R, pr, sql.JoinInner, j.Residual, j)
		if err != nil {
			return err
		}
		r.fixed[j] = joined
		part, err := r.hashAggregate(ctx, agg)
		if err != nil {
			return err
		}
		res, err := r.download(part, agg.Out)
		if err != nil {
			return err
		}
		return fold.add(res)
	})
	if err != nil {
		return nil, err
	}
	cols, n := fold.columns()
	out := &relation{n: int64(n)}
	for _, c := range cols {
		dc, err := r.uploadCol(c)
		if err != nil {
			return nil, err
		}
		out.cols = append(out.cols, dc)
	}
	return out, nil
}
