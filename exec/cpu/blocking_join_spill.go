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
