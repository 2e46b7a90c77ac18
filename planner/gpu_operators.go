package planner

import (
	"fmt"

	"gpusql/sql"
)

// GPUOp is how the GPU runs one operator of a body that runs operator at a
// time (exec/gpu/relation.go: each operator materializes its result on the
// device).
type GPUOp struct {
	Node Node
	How  string
}

// planGPUOps says, for each operator of an operator-at-a-time body, which
// device algorithm runs it. The materializing executor uses one algorithm
// per operator kind: joins hash the build side's keys normalized to 8
// bytes (the CPU plan's direct arrays and dense group tables are CPU
// choices; only the fused star pipeline uses them on the GPU).
func planGPUOps(body Node) []GPUOp {
	var ops []GPUOp
	Walk(body, func(n Node) {
		if how := gpuOpHow(n); how != "" {
			ops = append(ops, GPUOp{n, how})
		}
	})
	return ops
}

func gpuOpHow(n Node) string {
	switch x := n.(type) {
	case *Filter:
		return "expression VM flags, stream compaction"
	case *Projection:
		if x.IsPassThrough() {
			return ""
		}
		return "expression VM"
	case *HashJoin:
		side := "right"
		if x.Kind == sql.JoinInner && x.BuildSide == BuildLeft {
			side = "left"
		}
		switch x.Strategy {
		case Bitmap:
			how := "global bitmap (atomicOr) on the " + side + " input, one bit test per probe row"
			if x.Kind == sql.JoinInner || x.Kind == sql.JoinLeft {
				how += " then the direct array of build rows"
			}
			return how + ", kept rows through per-block result caches"
		case BucketedBitmap:
			return fmt.Sprintf("histogram and scatter both inputs by key bucket, per bucket a 2^%d-bit bitmap in shared memory filled then probed by one block", x.BucketBits)
		}
		return fmt.Sprintf("global hash table on the %s input, pairs through per-block result caches", side)
	case *SortMergeJoin:
		return sortMergeJoinHow(x)
	case *NestedLoopJoin:
		return "every pair, residual through the expression VM"
	case *HashAggregate:
		return "global hash table of group representatives, atomics per aggregate"
	case *Distinct, *SetOp:
		return "global hash table (group_by.cu)"
	case *Sort:
		return "radix sort"
	case *Window:
		return "radix sort by partition and order keys, segmented scans per function" + windowFrameHow(x) + ", scattered back to the input's order"
	case *TopN:
		return "radix sort, then the first offset+count rows"
	case *Limit:
		return "gather"
	case *Values:
		return "uploaded"
	}
	return ""
}
