//go:build cuda

package gpu

import (
	"context"

	"gpusql/planner"
)

// TopN on the materializing executor: the whole input is sorted on the
// device (sort.go) and rows [offset, offset+count) are kept. A block-level
// selection of the best offset+count rows before the sort would save the
// full sort when count is small; it is not written yet.
func (r *queryRun) topN(ctx context.Context, x *planner.TopN) (*relation, error) {
	if x.Count == 0 {
		in, err := r.rel(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return &relation{n: 0, cols: in.cols}, nil
	}
	s, err := r.orderedRel(ctx, x.Input, x.Keys, x)
	if err != nil {
		return nil, err
	}
	return r.limit(s, x.Offset, x.Count)
}
