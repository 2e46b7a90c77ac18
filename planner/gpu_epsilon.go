package planner

import (
	"fmt"

	"gpusql/sql"
)

// GPUEpsilonShape: the plan's EpsilonJoins find their pairs on the device
// (kernels/epsilon_join.cu: the grid of the paper, SORTIDU, SHORTC,
// batches over streams) and the CPU executor runs the rest of the plan
// over them: it streams the left rows past the join, and the GPU hands
// back each batch's pairs, or only per-left-row counts when the operator
// above needs nothing else (CountOnly). The split is the plan's, so the
// GPU executor only obeys it: the whole tree is the Tail of a body that
// is nothing but the pair finding.
const GPUEpsilonShape GPUShape = "ε-join pairs on the device, the rest on the CPU executor"

// placeEpsilonJoins says where each EpsilonJoin's pairs are found: on the
// GPU when the plan is made for one (the engine does so when queries run
// on the GPU, executor gpu or auto with a device), else on the CPU; and
// marks the joins whose pairs need only be counted.
func placeEpsilonJoins(p *Physical) {
	for _, n := range p.Nodes() {
		ej, ok := n.(*EpsilonJoin)
		if !ok {
			continue
		}
		if p.Options.GPU == nil {
			ej.PairsOn, ej.PairsWhy = PairsCPU, "the plan is not made for a GPU"
			continue
		}
		ej.PairsOn = PairsGPU
		ej.PairsWhy = fmt.Sprintf("planned for %s: grid index and distance tests in kernels", p.Options.GPU.Name)
	}
	for _, n := range p.Nodes() {
		if agg, ok := n.(*HashAggregate); ok {
			if ej, ok := agg.Input.(*EpsilonJoin); ok && ej.PairsOn == PairsGPU && countsSuffice(agg, ej) {
				ej.CountOnly = true
			}
		}
	}
}

// countsSuffice reports whether agg over ej needs only how many right rows
// pair with each left row: every aggregate is count(*) and every group key
// reads left columns only, and no filter looks at the pairs. Then each
// left row with c pairs counts as c rows of its group. count(x) or a key
// over a right column would need the right rows themselves.
func countsSuffice(agg *HashAggregate, ej *EpsilonJoin) bool {
	if ej.Filter != nil {
		return false
	}
	for _, a := range agg.Aggs {
		if a.Func != sql.AggCountStar || a.Distinct {
			return false
		}
	}
	nLeft := len(ej.Left.Schema())
	for _, k := range agg.GroupBy {
		if side(k, nLeft)&^1 != 0 {
			return false
		}
	}
	return true
}

// planGPUEpsilon makes the GPU plan of a plan holding a GPU-placed
// EpsilonJoin: the device finds the pairs, the CPU executor runs the tree.
func planGPUEpsilon(p *Physical, g *GPUPlan) bool {
	found := false
	for _, n := range p.Nodes() {
		if ej, ok := n.(*EpsilonJoin); ok && ej.PairsOn == PairsGPU {
			how := "pairs batched back to the CPU executor"
			if ej.CountOnly {
				how = "counted per left row on the device, no pairs returned"
			}
			g.Ops = append(g.Ops, GPUOp{Node: ej, How: how})
			found = true
		}
	}
	if found {
		g.Shape, g.Body, g.TailOn = GPUEpsilonShape, p.Root, TailCPU
	}
	return found
}
