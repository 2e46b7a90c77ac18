package planner

import (
	"fmt"
	"sort"

	"gpusql/sql"
)

// GPUStar is the fused star pipeline the GPU runs for a HashAggregate over
// a tree of inner (or semi) HashJoins whose probe side is one fact-table
// scan and whose build sides are each a filtered dimension scan — every SSB
// query: one small build kernel per dimension (kernels/hash_build.cu), then
// one kernel that scans the fact table, tests its filters, probes every
// dimension and aggregates (kernels/star_pipeline.cu; join pipelined into
// group-by, Kaldewey et al.).
//
// For an inner join the result does not depend on which side is built, and
// the kernel always builds the dimension: estimates at tiny scale factors
// can put the fact table on the CPU plan's build side, and the star keeps
// the fact table streaming regardless (GPUStarDim.Swapped says so).
//
// Requirements (otherwise the aggregate runs operator at a time): each join
// has one key, no residual, and its probe key is a fact column; each build
// side is Filter/Projection over one TableScan; filter conjuncts read one
// scan; group keys are columns; aggregate arguments are not DISTINCT.
type GPUStar struct {
	Aggregate *HashAggregate
	Fact      *TableScan
	Filters   []*Filter
	// ColumnPreds are the conjuncts reading one column, per scan column
	// (fact and dimensions): range or bitmap tests in the kernels.
	ColumnPreds map[ScanColumn][]sql.Expr
	// ExprPreds are conjuncts reading several columns of one scan: they
	// run through the expression VM into a flag per row of that scan.
	ExprPreds []ScanExpr
	// Dims are the dimensions in probe order.
	Dims []*GPUStarDim
	// Keys locates each GROUP BY key.
	Keys []GPUStarKey
	// Zones are the fact chunks the fact filters leave (nil: all).
	Zones *GPUZoneMap
	// FactGroupCols are the fact table's group columns.
	FactGroupCols []int
	// Aggs are the kernel's aggregates; Outputs make the aggregate's
	// outputs from them.
	Aggs    []GPUStarAgg
	Outputs []GPUStarOutput
	// Groups is the group table's layout.
	Groups GPUGroupTable
	// FactFilters are the fact table's filtered columns in the order the
	// kernel tests them; FactReads what it fetches of each fact column
	// and FactReadBytes their sum (gpu_fact_reads.go).
	FactFilters   []GPUFactFilter
	FactReads     []GPUFactRead
	FactReadBytes int64
	// Sort is the tail's sort the star's output is given in, nil when
	// the tail has none on its columns (gpu_slot_order.go).
	Sort *GPUStarSort
	// Finish says where the groups become output rows (gpu_star_finish.go).
	Finish GPUStarFinish
	// Scan: the fact kernel is a star_scan kernel (gpu_star_scan.go).
	Scan bool
}

// GPUStarDim is one dimension of a star.
type GPUStarDim struct {
	Join  *HashJoin
	Scan  *TableScan
	Key   int        // build key column of Scan's table
	Probe ScanColumn // probe key, a fact column
	Semi  bool
	// Swapped: the CPU plan builds the fact side of this join; the GPU
	// builds the dimension.
	Swapped bool
	// GroupCols are group key columns of this dimension's table.
	GroupCols []int
	// Sel is the estimated fraction of dimension rows that survive its
	// filters: the kernel probes the most selective dimension first.
	Sel float64
	// Build is the join table's structure.
	Build GPUBuild
	// Payload is where the kernel reads the join's payload from.
	Payload GPUDimPayload
	// AsFilter: the kernel tests the fact key against the bitmap of the
	// dimension's keys among the fact filters instead of probing it
	// (gpu_dim_filters.go).
	AsFilter bool
}

// GPUStarKey locates GROUP BY key i: dimension Dim's GroupCols[J], or
// (Dim = -1) the fact group column FactGroupCols[J].
type GPUStarKey struct{ Dim, J int }

// Kernel limits of the star pipeline (kernels/common.cuh; exec/gpu checks
// its copies against these).
const (
	GPUStarMaxDims      = 4
	GPUStarMaxGroupCols = 4
	GPUStarMaxAggs      = 8
)

// matchStar derives the star pipeline of aggregate a, or says which
// operator stops it.
func matchStar(a *HashAggregate) (*GPUStar, error) {
	q := &GPUStar{Aggregate: a, ColumnPreds: map[ScanColumn][]sql.Expr{}}
	if err := q.walkProbe(a.Input); err != nil {
		return nil, err
	}
	// Probe order: most selective dimension first (fewest rows survive to
	// the later probes), smaller tables first among equals (their arrays
	// stay in L1/L2).
	sort.SliceStable(q.Dims, func(i, j int) bool {
		a, b := q.Dims[i], q.Dims[j]
		if a.Sel != b.Sel {
			return a.Sel < b.Sel
		}
		return a.Scan.Table.Rows < b.Scan.Table.Rows
	})
	for _, dm := range q.Dims {
		if dm.Probe.Scan != q.Fact {
			return nil, notStar(dm.Join, "join between dimension tables (snowflake)")
		}
	}
	if err := q.splitPreds(); err != nil {
		return nil, err
	}
	if err := q.locateKeys(); err != nil {
		return nil, err
	}
	if err := q.matchAggs(); err != nil {
		return nil, err
	}
	if len(q.Aggs) > GPUStarMaxAggs || len(q.Dims) > GPUStarMaxDims || len(q.FactGroupCols) > GPUStarMaxGroupCols {
		return nil, notStar(a, fmt.Sprintf("%d aggregates, %d joins, %d fact group keys exceed the kernel's %d, %d, %d",
			len(q.Aggs), len(q.Dims), len(q.FactGroupCols), GPUStarMaxAggs, GPUStarMaxDims, GPUStarMaxGroupCols))
	}
	for _, dm := range q.Dims {
		if len(dm.GroupCols) > GPUStarMaxGroupCols {
			return nil, notStar(dm.Join, fmt.Sprintf("%d group keys from %s exceed the kernel's %d", len(dm.GroupCols), dm.Scan.Table.Name, GPUStarMaxGroupCols))
		}
	}
	return q, nil
}

func notStar(n Node, why string) error {
	if why == "" {
		return fmt.Errorf("%s", opName(n))
	}
	return fmt.Errorf("%s: %s", opName(n), why)
}

// splitPreds files each filter conjunct under the one column it reads, or
// as a VM predicate when it reads several columns of one scan.
func (q *GPUStar) splitPreds() error {
	for _, f := range q.Filters {
		for _, c := range conjuncts(f.Cond) {
			cols, ok := ScanColumnsOf(c, f.Input)
			if ok && len(cols) > 1 {
				same := true
				for _, b := range cols {
					same = same && b.Scan == cols[0].Scan
				}
				if same && (cols[0].Scan == q.Fact || q.dimOf(cols[0].Scan) != nil) {
					q.ExprPreds = append(q.ExprPreds, ScanExpr{E: c, Node: f.Input, Scan: cols[0].Scan})
					continue
				}
			}
			if !ok || len(cols) != 1 {
				return notStar(f, fmt.Sprintf("predicate %s reads %d columns", exprString(c), len(cols)))
			}
			if cols[0].Scan != q.Fact && q.dimOf(cols[0].Scan) == nil {
				return notStar(f, "predicate on a column the star pipeline does not see")
			}
			q.ColumnPreds[cols[0]] = append(q.ColumnPreds[cols[0]], c)
		}
	}
	return nil
}

// locateKeys finds each GROUP BY key's column in the fact table or a
// dimension.
func (q *GPUStar) locateKeys() error {
	a := q.Aggregate
	for _, g := range a.GroupBy {
		r, ok := ColRefUnder(g)
		var b ScanColumn
		if ok {
			b, ok = ResolveScanColumn(a.Input, r.Index)
		}
		if !ok {
			return notStar(a, fmt.Sprintf("group key %s is not a column", exprString(g)))
		}
		k := q.keyOf(b)
		if k.Dim == -2 {
			return notStar(a, fmt.Sprintf("group key %s comes from a semi-join", exprString(g)))
		}
		q.Keys = append(q.Keys, k)
	}
	return nil
}

func (q *GPUStar) dimOf(s *TableScan) *GPUStarDim {
	for _, d := range q.Dims {
		if d.Scan == s {
			return d
		}
	}
	return nil
}

func (q *GPUStar) keyOf(b ScanColumn) GPUStarKey {
	if b.Scan == q.Fact {
		for j, c := range q.FactGroupCols {
			if c == b.Col {
				return GPUStarKey{-1, j}
			}
		}
		q.FactGroupCols = append(q.FactGroupCols, b.Col)
		return GPUStarKey{-1, len(q.FactGroupCols) - 1}
	}
	for i, d := range q.Dims {
		if d.Scan != b.Scan {
			continue
		}
		if d.Semi {
			return GPUStarKey{-2, 0}
		}
		for j, c := range d.GroupCols {
			if c == b.Col {
				return GPUStarKey{i, j}
			}
		}
		d.GroupCols = append(d.GroupCols, b.Col)
		return GPUStarKey{i, len(d.GroupCols) - 1}
	}
	return GPUStarKey{-2, 0}
}
