//go:build cuda

package gpu

import (
	"context"
	"fmt"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// An aggregate without GROUP BY over a partitioned inner join folds the
// join pass by pass (planner.GPUJoinPasses.Consumer): each pass's pairs
// become that pass's joined rows, the operators between the join and the
// aggregate and the aggregate itself run over them as over any input, and
// the one-row result is combined on the host with the passes before
// (COUNTs and SUMs add, MINs and MAXes compare). Everything a pass
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
	acc := make([]foldedAgg, len(agg.Aggs))
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
		return foldPass(acc, agg, res)
	})
	if err != nil {
		return nil, err
	}
	out := &relation{n: 1}
	for i, a := range acc {
		c, err := r.uploadCol(a.column(agg.Out[len(agg.GroupBy)+i].Type, agg.Aggs[i].Func))
		if err != nil {
			return nil, err
		}
		out.cols = append(out.cols, c)
	}
	return out, nil
}

// foldedAgg is one aggregate's result over the passes so far.
type foldedAgg struct {
	set  bool // a pass gave a non-NULL value
	i    int64
	f    float64
	dict *columnar.Dictionary
}

// foldPass combines one pass's one-row result res into acc.
func foldPass(acc []foldedAgg, agg *planner.HashAggregate, res *exec.Result) error {
	if res.Rows != 1 {
		return fmt.Errorf("gpu: an aggregate without GROUP BY gave %d rows for one pass", res.Rows)
	}
	for i, ae := range agg.Aggs {
		c := res.Columns[len(agg.GroupBy)+i]
		a := &acc[i]
		if c.IsNull(0) {
			continue
		}
		isF := c.F64 != nil
		var iv int64
		var fv float64
		switch {
		case isF:
			fv = c.F64[0]
		case c.I64 != nil:
			iv = c.I64[0]
		default:
			iv = int64(c.I32[0])
		}
		if c.Dict != nil {
			a.dict = c.Dict
		}
		if !a.set {
			a.set, a.i, a.f = true, iv, fv
			continue
		}
		switch ae.Func {
		case sql.AggCountStar, sql.AggCount, sql.AggSum:
			if isF {
				a.f += fv
				continue
			}
			s := a.i + iv
			if (a.i >= 0) == (iv >= 0) && (s >= 0) != (a.i >= 0) {
				return errOverflow
			}
			a.i = s
		case sql.AggMin:
			a.i, a.f = min(a.i, iv), min(a.f, fv)
		case sql.AggMax:
			a.i, a.f = max(a.i, iv), max(a.f, fv)
		default:
			return fmt.Errorf("gpu: aggregate %v cannot fold pass by pass", ae.Func)
		}
	}
	return nil
}

// column is a's value as a one-row host column of type t: COUNT of no
// rows is 0, the others NULL.
func (a foldedAgg) column(t columnar.Type, fn sql.AggFunc) *columnar.Column {
	c := columnar.NewColumnIn(columnar.HeapAllocator, t, 1, true)
	c.Dict = a.dict
	if !a.set && fn != sql.AggCount && fn != sql.AggCountStar {
		c.SetNull(0)
		return c
	}
	if c.F64 != nil {
		c.F64[0] = a.f
	} else {
		setInt(c, 0, a.i)
	}
	c.SetValid(0)
	return c
}
