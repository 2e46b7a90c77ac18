package cpu

import (
	"errors"

	"gpusql/exec"
	"gpusql/planner"
)

// A blocking join (a sort-merge join, a two-pass hash join) that passes
// the memory limit holding both of its inputs runs again as a streaming
// hash join, which holds only the build side and turns into a grace hash
// join when that does not fit either. Its rows then come in the hash
// join's order, which no plan relies on for these joins (sortedOn).

// A blocking join that is the source of a pipeline (its rows feed an
// aggregation, a sort, ...) is not materialized as a hash join's output
// either: the pipeline runs with the hash join as its first streaming
// operator, so that only the build side is held (or partitioned).

// streamingJoin is the streaming hash join standing for blocking join n
// (nil: n is not one).
func streamingJoin(n planner.Node) *planner.HashJoin {
	switch n := n.(type) {
	case *planner.SortMergeJoin:
		if len(n.LeftKeys) > 0 {
			return asHashJoin(n)
		}
	case *planner.HashJoin:
		if n.TwoPass {
			hj := *n
			hj.TwoPass = false
			return &hj
		}
	}
	return nil
}

// isMemoryLimit says whether err is the memory limit's.
func isMemoryLimit(err error) bool {
	var limit *exec.MemoryLimitError
	return errors.As(err, &limit)
}

// asHashJoin is the hash join answering what merge join n answers.
func asHashJoin(n *planner.SortMergeJoin) *planner.HashJoin {
	return &planner.HashJoin{NodeProps: n.NodeProps, Kind: n.Kind, Left: n.Left, Right: n.Right,
		LeftKeys: n.LeftKeys, RightKeys: n.RightKeys, Residual: n.Residual, NullAware: n.NullAware,
		BuildSide: planner.BuildRight, Strategy: planner.HashTable, Out: n.Out}
}

// joinByHash runs hj (standing for a blocking join that failed with
// cause) as a pipeline collecting its rows.
func (x *executor) joinByHash(hj *planner.HashJoin, cause error) (*rel, error) {
	if len(hj.LeftKeys) == 0 {
		return nil, cause
	}
	return x.collect(hj, -1, nil)
}
