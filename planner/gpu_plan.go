package planner

import (
	"fmt"

	"gpusql/sql"
)

// GPUPlan is the GPU planning pass's result: everything the GPU executor
// does with a plan, decided here so that EXPLAIN shows it, tests check it
// without a GPU, and exec/gpu executes it without deciding anything the
// plan says. The pass runs over the physical plan after the CPU choices
// (join order, build sides, algorithms) and changes none of them: both
// executors run the same operator tree.
//
// The plan splits at Body: the GPU runs Body (as a fused star pipeline, a
// filtered scan, or operator by operator on device relations), then Tail,
// the operators above it, runs on the host: either in the GPU executor's
// host code (column reorders, sorts on columns, limits over a small result)
// or, when the tail computes expressions, by the CPU executor over the
// GPU's result (an explicit split: SplitGPU).
type GPUPlan struct {
	Profile *GPUProfile
	// Shape is how the GPU runs Body.
	Shape GPUShape
	Body  Node
	// Tail lists the operators above Body, root first.
	Tail []Node
	// TailOn says where Tail runs.
	TailOn TailPlace
	// Star is the fused pipeline when Shape is GPUStar (with GPUOperators
	// as the fallback when the data refuse it: duplicate dimension keys,
	// an expression the VM cannot compile).
	Star *GPUStar
	// NotStar says why an aggregate is not a star pipeline.
	NotStar string
	// Ops are the operators' device algorithms when Shape is
	// GPUOperatorsShape.
	Ops []GPUOp
	// SetOps are the algorithms of the DISTINCT and set operations among
	// Ops (gpu_set_op.go).
	SetOps map[Node]GPUSetChoice
	// JoinPasses are the hash joins among Ops that run in several passes
	// over partitions of their inputs (gpu_join_passes.go).
	JoinPasses map[Node]*GPUJoinPasses
	// Presorted are the Sorts and TopNs whose input arrives in their
	// order from a sort-based DISTINCT or set operation (the value), so
	// the GPU does not sort them.
	Presorted map[Node]Node
	// Columns says where each base-table column the GPU reads lives;
	// Memory what the plan takes of the device memory budget.
	Columns []GPUColumn
	Memory  GPUMemoryPlan
	// Refused, when set, is why the GPU executor cannot run the plan.
	Refused string
	// Devices are the GPUs the plan may run on (the profile's); Split,
	// when set, cuts a star's fact table over them (gpu_devices.go).
	Devices []int
	Split   *GPUSplit
}

// GPUShape is how the GPU runs a plan's body.
type GPUShape string

const (
	// GPUStarShape: one fused kernel scans the fact table, filters, probes
	// every dimension and aggregates (Kaldewey et al.).
	GPUStarShape GPUShape = "fused star pipeline"
	// GPUSelectShape: a filtered, projected scan as stream compaction plus
	// gathers (exec/gpu/select.go).
	GPUSelectShape GPUShape = "filtered scan (stream compaction)"
	// GPUOperatorsShape: operator by operator on device relations
	// (exec/gpu/relation.go).
	GPUOperatorsShape GPUShape = "operator at a time"
)

// TailPlace is where the operators above the GPU body run.
type TailPlace string

const (
	TailNone TailPlace = ""
	// TailHost: the GPU executor's host code, over the body's result.
	TailHost TailPlace = "host"
	// TailCPU: the CPU executor, over a scan of the body's result.
	TailCPU TailPlace = "CPU executor"
)

// HostTailLimit bounds the rows a host tail that sorts or computes handles
// (the output of a GPU aggregate; SSB's largest is 800 groups); larger
// results must be sorted or limited on the device.
const HostTailLimit = 1 << 16

// PlanGPU makes p's GPU plan for profile prof (Plan stores it in p.GPU
// when Options.GPU is set; the executor plans scalar subqueries' plans
// and plans made without a profile itself, with the device's profile).
func PlanGPU(p *Physical, prof *GPUProfile) (g *GPUPlan) {
	if prof == nil {
		prof = DefaultGPUProfile()
	}
	g = &GPUPlan{Profile: prof, Devices: prof.Devices}
	defer func() {
		// A plan shape this pass mishandles must cost the GPU the
		// query, not crash it.
		if r := recover(); r != nil {
			g = &GPUPlan{Profile: prof, Refused: fmt.Sprintf("internal error in GPU planning: %v", r)}
		}
	}()
	if p.CPUOnly != "" {
		g.Refused = "the planner put it on the CPU: " + p.CPUOnly
		return g
	}
	if planGPUEpsilon(p, g) {
		return g
	}
	tail, body := gpuSplit(p.Root)
	if agg, ok := body.(*HashAggregate); ok {
		g.Body, g.Tail, g.Shape = agg, tail, GPUOperatorsShape
		star, err := matchStar(agg)
		if err == nil {
			err = checkStarDomains(star)
		}
		if err != nil {
			g.NotStar = err.Error()
		} else {
			g.Shape, g.Star = GPUStarShape, star
			star.Groups = planGroupTable(star, prof)
			for _, d := range star.Dims {
				d.Build = planDimBuild(d, prof)
			}
			planDimPayloads(star, p.Options.Remaps)
			planDimFilters(star)
			planGroupRemap(star, p.Options.Remaps, prof)
			planFactFilters(star)
			star.Scan = planStarScan(star)
			star.Zones = planStarZones(star)
		}
	} else {
		g.Tail, g.Body = tail, body
		g.Shape = GPUOperatorsShape
		if isFilteredScan(g.Body) {
			g.Shape = GPUSelectShape
		}
	}
	if g.Shape == GPUOperatorsShape {
		g.Ops = planGPUOps(g.Body)
		planGPUSetOps(g, prof)
		planJoinPasses(g, prof)
	}
	g.TailOn = tailPlace(g.Tail)
	if why := tailRefusal(g.Tail); why != "" {
		g.Refused = why
	}
	g.Split = planSplit(g, prof)
	g.Columns = planColumns(g, prof)
	if g.Star != nil && (keepRemapsOnDevice(g) || keepGroupRemapOnDevice(g, prof)) {
		g.Columns = planColumns(g, prof)
	}
	if g.Star != nil {
		g.Star.Sort = planStarSort(g)
		g.Star.Finish = planStarFinish(g)
		keepZonesResident(g)
		g.Star.Scan = g.Star.Scan && !packsFactColumns(g)
		planFactReads(g)
		planColdReads(g, prof)
		planCopyAhead(g, prof)
	}
	return g
}

// splitTail separates the operators the host may run over a small result
// (ORDER BY, TopN, LIMIT, projections, HAVING filters; root first) from the
// plan body below them. Above an aggregate they all may: its result is
// small. Elsewhere only ordering, limiting and column reordering do.
func splitTail(n Node, aboveAggregate bool) (tail []Node, body Node) {
	for {
		switch x := n.(type) {
		case *Projection:
			if !aboveAggregate && !x.IsPassThrough() {
				return tail, n
			}
			tail, n = append(tail, x), x.Input
		case *Sort:
			tail, n = append(tail, x), x.Input
		case *TopN:
			tail, n = append(tail, x), x.Input
		case *Limit:
			tail, n = append(tail, x), x.Input
		case *Filter:
			if !aboveAggregate {
				return tail, n
			}
			tail, n = append(tail, x), x.Input
		default:
			return tail, n
		}
	}
}

// gpuSplit cuts the plan where the GPU's part ends: above an aggregate
// every tail operator runs on the host; elsewhere only those above the
// topmost sort, which the GPU runs with what is below it.
func gpuSplit(root Node) (tail []Node, body Node) {
	tail, body = splitTail(root, true)
	if _, ok := body.(*HashAggregate); ok {
		return tail, body
	}
	return sortCut(splitTail(root, false))
}

// sortCut moves the root-most Sort or TopN of a tail (and everything below
// it) into the body, so that it runs on the device over any number of rows;
// only the limits and column reorders above it stay on the host.
func sortCut(tail []Node, body Node) ([]Node, Node) {
	for i, n := range tail {
		switch n.(type) {
		case *Sort, *TopN:
			return tail[:i], n
		}
	}
	return tail, body
}

// isFilteredScan reports whether n is filters and projections over one
// table scan.
func isFilteredScan(n Node) bool {
	for {
		switch x := n.(type) {
		case *TableScan:
			return true
		case *Filter:
			n = x.Input
		case *Projection:
			n = x.Input
		default:
			return false
		}
	}
}

// tailPlace is the host code when every tail operator only reorders
// columns, sorts on columns or limits; the CPU executor when one computes
// (an expression projection, HAVING, a sort on an expression).
func tailPlace(tail []Node) TailPlace {
	if len(tail) == 0 {
		return TailNone
	}
	for _, n := range tail {
		if !SimpleTailOp(n) {
			return TailCPU
		}
	}
	return TailHost
}

// tailRefusal says why a tail cannot run on the host at all: a subquery
// there would read base tables on the CPU behind the GPU's back.
func tailRefusal(tail []Node) string {
	for _, n := range tail {
		for _, e := range nodeExprs(n) {
			bad := false
			walkExpr(e, func(x sql.Expr) {
				if _, ok := x.(*Subquery); ok {
					bad = true
				}
			})
			if bad {
				return fmt.Sprintf("%s: subqueries above the GPU's part of the plan", opName(n))
			}
		}
	}
	return ""
}

// SimpleTailOp reports whether the GPU executor's host code runs n:
// a column-reordering projection, a sort or TopN on columns, a LIMIT.
func SimpleTailOp(n Node) bool {
	switch x := n.(type) {
	case *Projection:
		return x.IsPassThrough()
	case *Sort:
		return columnKeys(x.Keys)
	case *TopN:
		return columnKeys(x.Keys)
	case *Limit:
		return true
	}
	return false
}

// CheapTail reports whether the tail only limits and reorders columns, work
// proportional to its output, which the host may do over any input size.
func CheapTail(tail []Node) bool {
	for _, n := range tail {
		switch x := n.(type) {
		case *Limit:
		case *Projection:
			if !x.IsPassThrough() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func columnKeys(ks []sql.SortKey) bool {
	for _, k := range ks {
		if _, ok := k.Expr.(*sql.ColRef); !ok {
			return false
		}
	}
	return true
}
