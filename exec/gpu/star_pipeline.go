//go:build cuda

package gpu

import (
	"fmt"
	"slices"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// starQuery is how the GPU runs a HashAggregate over a tree of inner (or
// semi) HashJoins whose probe side is one fact-table scan and whose build
// sides are each a filtered dimension scan — every SSB query: one fused
// kernel scans the fact table, tests its filters, probes every dimension
// and aggregates (kernels/star_pipeline.cu), after one small build kernel
// per dimension (kernels/hash_build.cu). The planner chooses it
// (planner.GPUStar: fact table, dimensions in probe order, build
// structures, group table); starFromPlan puts it in this form.
type starQuery struct {
	agg     *planner.HashAggregate
	fact    *planner.TableScan
	filters []*planner.Filter
	preds   map[baseCol][]sql.Expr // conjuncts per scan column, fact and dimensions
	dims    []*starDim
	keys    []starKey
	aggs    []starAgg
	nFact   []int // fact group columns (table column indexes)
	// vmPreds are conjuncts reading several columns of one scan, or one
	// column in a way the range/bitmap predicates cannot express: they run
	// through the expression VM into a flag per row of that scan.
	vmPreds []scanExpr
	// groups is the planned group table.
	groups planner.GPUGroupTable
	// factFilters are the fact table's filters in the order the plan
	// tests them (most selective first).
	factFilters []factFilter
	// zoneSkips marks the fact chunks the plan's zone maps rule out (nil:
	// the kernel scans every chunk).
	zoneSkips []bool
	// zoneDims are the dimensions whose key intervals rule out more
	// chunks (star_dim_zones.go).
	zoneDims []int
	// fetched is the plan's estimate of the bytes the fused kernel
	// fetches over the whole fact table (planner/gpu_fact_reads.go).
	fetched int64
	// sort is the tail's sort the output is given in, and the group
	// slots' layout (planner/gpu_slot_order.go; nil: none).
	sort *planner.GPUStarSort
	// finish says where the groups become output rows (star_finish.go).
	finish planner.GPUStarFinish
	// scan: the plan gives the fact kernel to the star_scan kernels
	// (star_scan.go) where its parameters allow.
	scan bool
}

// scanExpr is an expression over node's output whose every column is a
// column of scan.
type scanExpr struct {
	e    sql.Expr
	node planner.Node
	scan *planner.TableScan
}

// colOf maps the expression's column references to the scan's table
// columns for the VM compiler.
func (x scanExpr) colOf(idx int) (*columnar.Column, bool) {
	b, ok := resolve(x.node, idx)
	if !ok || b.scan != x.scan {
		return nil, false
	}
	return x.scan.Table.Columns[b.col], true
}

type starDim struct {
	join  *planner.HashJoin
	scan  *planner.TableScan
	key   int     // build key column of scan's table
	probe baseCol // probe key, a fact column
	semi  bool
	gcols []int // group key columns of this dimension's table
	// sel is the planner's estimate of the fraction of dimension rows that
	// survive its filters; the kernel probes the most selective first.
	sel float64
	// build is the join table's structure, as planned.
	build planner.GPUBuild
	// payload is where the kernel reads the join's payload, as planned.
	payload planner.GPUDimPayload
	// asFilter: the kernel tests the fact key against the bitmap of the
	// dimension's keys with the fact filters (planner/gpu_dim_filters.go)
	// instead of probing it.
	asFilter bool
}

// factFilter is one of the fact table's filters: column col's conjuncts,
// or (dim >= 0) the membership of fact key col in dimension dim's keys.
type factFilter struct {
	col, dim int
}

// starKey locates GROUP BY key i: dimension dim's gcols[j], or (dim = -1)
// fact group column nFact[j].
type starKey struct{ dim, j int }

// starAgg is one kernel aggregate: fn over a op b (fact table columns).
type starAgg struct {
	fn, op  int32
	a, b    int // fact table columns; -1 none
	isFloat bool
	// expr, when set, is the argument as an expression over the fact
	// table's columns, computed by the expression VM before the pipeline
	// runs (a and b are then -1).
	expr sql.Expr
}

// starOutput says how output aggregate i is made from kernel aggregates.
type starOutput struct {
	ae        sql.AggExpr
	slot      int // kernel aggregate of the value (sum for AVG)
	countSlot int // kernel aggregate counting non-NULL arguments; -1: the group's row count
}

func colRefUnder(e sql.Expr) (*sql.ColRef, bool) { return planner.ColRefUnder(e) }

// The planner's star encodings are the kernels' (kernels/common.cuh): a
// mismatch fails to compile here.
var (
	_ = [1]struct{}{}[planner.GPUCountStar-aggCountStar]
	_ = [1]struct{}{}[planner.GPUCount-aggCount]
	_ = [1]struct{}{}[planner.GPUSum-aggSum]
	_ = [1]struct{}{}[planner.GPUMin-aggMin]
	_ = [1]struct{}{}[planner.GPUMax-aggMax]
	_ = [1]struct{}{}[planner.GPUOpA-exprA]
	_ = [1]struct{}{}[planner.GPUOpMul-exprMul]
	_ = [1]struct{}{}[planner.GPUOpSub-exprSub]
	_ = [1]struct{}{}[planner.GPUOpAdd-exprAdd]
	_ = [1]struct{}{}[planner.GPUStarMaxDims-maxDims]
	_ = [1]struct{}{}[planner.GPUStarMaxGroupCols-maxGCols]
	_ = [1]struct{}{}[planner.GPUStarMaxAggs-maxAggs]
)

// starFromPlan takes the star pipeline the planner chose (planner.GPUStar)
// in the form runStar launches it, after checking that the expression VM
// compiles the expressions it must evaluate (multi-column predicates,
// computed aggregate arguments); an expression it cannot compile makes the
// star unsupported, and the plan's fallback (operator at a time) runs.
func starFromPlan(s *planner.GPUStar) (*starQuery, []starOutput, error) {
	q := &starQuery{agg: s.Aggregate, fact: s.Fact, filters: s.Filters, preds: map[baseCol][]sql.Expr{},
		nFact: s.FactGroupCols, groups: s.Groups, fetched: s.FactReadBytes, sort: s.Sort, finish: s.Finish, scan: s.Scan}
	for b, cs := range s.ColumnPreds {
		q.preds[baseCol{b.Scan, b.Col}] = cs
	}
	if s.Zones != nil && s.Zones.Off == "" {
		q.zoneSkips = s.FactZoneSkips()
		q.zoneDims = s.Zones.DimKeys
	}
	for _, f := range s.FactFilters {
		q.factFilters = append(q.factFilters, factFilter{col: f.Col, dim: slices.Index(s.Dims, f.Dim)})
	}
	for _, x := range s.ExprPreds {
		if _, err := compileVM(x.E, x.ColOf, true); err != nil {
			var op planner.Node = s.Aggregate
			for _, f := range s.Filters {
				if f.Input == x.Node {
					op = f
				}
			}
			return nil, nil, unsupported(op, err.Error())
		}
		q.vmPreds = append(q.vmPreds, scanExpr{e: x.E, node: x.Node, scan: x.Scan})
	}
	for _, d := range s.Dims {
		q.dims = append(q.dims, &starDim{join: d.Join, scan: d.Scan, key: d.Key, probe: baseCol{d.Probe.Scan, d.Probe.Col},
			semi: d.Semi, gcols: d.GroupCols, sel: d.Sel, build: d.Build, payload: d.Payload, asFilter: d.AsFilter})
	}
	for _, k := range s.Keys {
		q.keys = append(q.keys, starKey{k.Dim, k.J})
	}
	for _, a := range s.Aggs {
		if a.Expr != nil {
			x := scanExpr{e: a.Expr, node: s.Aggregate.Input, scan: s.Fact}
			if _, err := compileVM(a.Expr, x.colOf, true); err != nil {
				return nil, nil, unsupported(s.Aggregate, fmt.Sprintf("aggregate argument %s: %v", a.Expr, err))
			}
		}
		q.aggs = append(q.aggs, starAgg{fn: int32(a.Fn), op: int32(a.Op), a: a.A, b: a.B, isFloat: a.IsFloat, expr: a.Expr})
	}
	outs := make([]starOutput, len(s.Outputs))
	for i, o := range s.Outputs {
		outs[i] = starOutput{ae: o.Agg, slot: o.Slot, countSlot: o.CountSlot}
	}
	return q, outs, nil
}
