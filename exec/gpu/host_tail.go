//go:build cuda

package gpu

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// runTail applies the GPU plan's tail (root first) to the body's result:
// on the host, column reorders, sorts on columns and limits (TailHost);
// a tail that computes (expression projections, HAVING, sort keys that
// are expressions) runs where the plan hands it, on the CPU executor, over
// a scan of the result (the plan's explicit split, CPUTailPlan). Either way
// at most planner.HostTailLimit rows unless the tail only limits and
// reorders. done, when not nil, is a Sort or TopN of the tail whose order
// res already has (star_presort.go): only its limit is left to apply.
func runTail(ctx context.Context, g *planner.GPUPlan, res *exec.Result, names []string, done planner.Node) (*exec.Result, error) {
	tail := g.Tail
	if len(tail) == 0 {
		return res, nil
	}
	if res.Rows > planner.HostTailLimit && !planner.CheapTail(tail) {
		return nil, unsupported(tail[len(tail)-1], fmt.Sprintf("on the host over %d rows (limit %d)", res.Rows, planner.HostTailLimit))
	}
	if g.TailOn == planner.TailHost {
		var err error
		for i := len(tail) - 1; i >= 0; i-- {
			if tail[i] == done {
				if x, ok := done.(*planner.TopN); ok {
					res = limitResult(res, x.Offset, x.Count)
				}
				continue
			}
			if res, err = hostTail(tail[i], res); err != nil {
				return nil, err
			}
		}
		return res, nil
	}
	cp, err := g.CPUTailPlan(res.Rows, res.Columns, names)
	if err != nil {
		return nil, err
	}
	out, err := cpu.Run(ctx, cp)
	if err != nil {
		return nil, fmt.Errorf("gpu: tail on the CPU executor: %w", err)
	}
	return out, nil
}

// hostTail applies one operator above the GPU part to its (small) result:
// column-reordering projections, stable sorts on column keys (NULLs first
// ascending, last descending; strings by their order-preserving codes),
// TopN and LIMIT.
func hostTail(n planner.Node, in *exec.Result) (*exec.Result, error) {
	switch x := n.(type) {
	case *planner.Projection:
		out := &exec.Result{Rows: in.Rows}
		for i, e := range x.Exprs {
			r, ok := e.(*sql.ColRef)
			if !ok {
				return nil, unsupported(n, fmt.Sprintf("expression %s above the aggregate", e))
			}
			out.Names = append(out.Names, x.Out[i].Name)
			out.Columns = append(out.Columns, in.Columns[r.Index])
		}
		return out, nil
	case *planner.Sort:
		return sortResult(n, in, x.Keys, 0, -1)
	case *planner.TopN:
		return sortResult(n, in, x.Keys, x.Offset, x.Count)
	case *planner.Limit:
		return limitResult(in, x.Offset, x.Count), nil
	}
	return nil, unsupported(n, "")
}

func sortResult(n planner.Node, in *exec.Result, keys []sql.SortKey, off, count int64) (*exec.Result, error) {
	cols, desc := make([]*columnar.Column, len(keys)), make([]bool, len(keys))
	for i, k := range keys {
		r, ok := k.Expr.(*sql.ColRef)
		if !ok {
			return nil, unsupported(n, fmt.Sprintf("sort key %s is not a column", k.Expr))
		}
		cols[i], desc[i] = in.Columns[r.Index], k.Desc
	}
	if idx, ok := packedSortOrder(cols, desc, in.Rows, nil); ok {
		return limitResult(gather(in, idx), off, count), nil
	}
	ks := make([]hostSortKey, len(keys))
	for i := range keys {
		ks[i] = newHostSortKey(cols[i], desc[i])
	}
	idx := make([]int, in.Rows)
	for i := range idx {
		idx[i] = i
	}
	// Ties keep their input order (the row index decides last), so the
	// sort is stable without a stable sort's extra merging.
	slices.SortFunc(idx, func(a, b int) int {
		for _, k := range ks {
			if c := k.compare(a, b); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
	return limitResult(gather(in, idx), off, count), nil
}

// hostSortKey is a sort key's column read once into plain vectors, so
// that comparisons do not go through the column's type switch.
type hostSortKey struct {
	ints   []int64
	floats []float64
	nulls  []bool // nil: no NULLs
	desc   bool
}

func newHostSortKey(c *columnar.Column, desc bool) hostSortKey {
	k := hostSortKey{desc: desc}
	if c.F64 != nil {
		k.floats = c.F64
	} else {
		k.ints = make([]int64, c.Len)
		for i := range k.ints {
			k.ints[i] = c.Int64At(i)
		}
	}
	if c.Valid != nil {
		k.nulls = make([]bool, c.Len)
		for i := range k.nulls {
			k.nulls[i] = c.IsNull(i)
		}
	}
	return k
}

// compare orders rows a and b by the key as compareRows does, then by the
// key's direction.
func (k *hostSortKey) compare(a, b int) int {
	var c int
	switch {
	case k.nulls != nil && (k.nulls[a] || k.nulls[b]):
		c = cmp.Compare(b2int(k.nulls[b]), b2int(k.nulls[a])) // NULL lowest
	case k.floats != nil:
		c = cmp.Compare(k.floats[a], k.floats[b])
	default:
		c = cmp.Compare(k.ints[a], k.ints[b])
	}
	if k.desc {
		return -c
	}
	return c
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareRows orders two rows of a column, NULL lowest (so NULLs come first
// ascending and last descending, as MySQL).
func compareRows(c *columnar.Column, a, b int) int {
	na, nb := c.IsNull(a), c.IsNull(b)
	switch {
	case na && nb:
		return 0
	case na:
		return -1
	case nb:
		return 1
	}
	switch {
	case c.F64 != nil:
		x, y := c.F64[a], c.F64[b]
		if x < y {
			return -1
		} else if x > y {
			return 1
		}
		return 0
	default:
		x, y := c.Int64At(a), c.Int64At(b)
		if x < y {
			return -1
		} else if x > y {
			return 1
		}
		return 0
	}
}

func limitResult(in *exec.Result, off, count int64) *exec.Result {
	lo := min(int(max(off, 0)), in.Rows)
	hi := in.Rows
	if count >= 0 {
		hi = min(hi, lo+int(count))
	}
	if lo == 0 && hi == in.Rows {
		return in
	}
	idx := make([]int, hi-lo)
	for i := range idx {
		idx[i] = lo + i
	}
	return gather(in, idx)
}

// gather builds a result of the rows idx of in.
func gather(in *exec.Result, idx []int) *exec.Result {
	out := &exec.Result{Names: in.Names, Rows: len(idx)}
	for _, c := range in.Columns {
		nc := columnar.NewColumnIn(columnar.HeapAllocator, c.Type, len(idx), c.Valid != nil)
		nc.Dict = c.Dict
		// One loop per vector, not a switch a row.
		switch {
		case c.I32 != nil:
			for i, r := range idx {
				nc.I32[i] = c.I32[r]
			}
		case c.I64 != nil:
			for i, r := range idx {
				nc.I64[i] = c.I64[r]
			}
		case c.F64 != nil:
			for i, r := range idx {
				nc.F64[i] = c.F64[r]
			}
		}
		if c.Valid != nil {
			for i, r := range idx {
				if !c.IsNull(r) {
					nc.SetValid(i)
				}
			}
		}
		out.Columns = append(out.Columns, nc)
	}
	return out
}

func sortExprs(ks []sql.SortKey) []sql.Expr {
	var out []sql.Expr
	for _, k := range ks {
		out = append(out, k.Expr)
	}
	return out
}
