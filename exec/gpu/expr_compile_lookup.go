//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"

	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Subexpressions the device cannot compute per row (string functions,
// numbers formatted as strings) but that read one column of a small domain:
// exec/cpu evaluates them once per dictionary entry or domain value, and
// the program looks the result up by the row's code or value.

// table emits a lookup of a's value (a code) in vals/ok, whose last entry
// is the result for a NULL input.
func (c *vmCompiler) table(a reg, vals []int64, ok []byte, t columnar.Type) (reg, error) {
	b := append([]byte(nil), bytesOf(vals)...)
	b = append(b, ok...)
	c.p.tables = append(c.p.tables, b)
	return c.emit(vmLookup, a.r, 0, 0, int64(len(c.p.tables)-1), int64(len(vals)-1), t)
}

// dictSubtree reports whether e reads exactly one input column, a
// dictionary-encoded string, and is more than that column itself: it can
// then be evaluated once per dictionary entry.
func dictSubtree(e sql.Expr) (int, bool) {
	if _, ok := e.(*sql.ColRef); ok {
		return 0, false
	}
	idx, ok, any := -1, true, false
	walkExpr(e, func(x sql.Expr) {
		switch r := x.(type) {
		case *sql.ColRef:
			if r.Col.Type.ID != columnar.String || (idx >= 0 && idx != r.Index) {
				ok = false
			}
			idx, any = r.Index, true
		case *planner.Subquery, *sql.ScalarSubquery:
			ok = false
		}
	})
	return idx, ok && any
}

// lookup evaluates e (whose only input is string column idx) for every
// entry of the column's dictionary and for NULL, through exec/cpu, and
// emits a VM_LOOKUP of the row's code in the results.
func (c *vmCompiler) lookup(e sql.Expr, idx int) (reg, error) {
	col, ok := c.colOf(idx)
	if !ok || col.Dict == nil {
		return reg{}, vmUnsupported(e, "string column without a dictionary")
	}
	code, err := c.expr(&sql.ColRef{Index: idx, Col: sql.Column{Name: "s", Type: col.Type, Dict: col.Dict}})
	if err != nil {
		return reg{}, err
	}
	t := e.Type()
	if c.dry {
		r, err := c.emit(vmLookup, code.r, 0, 0, -1, 0, t)
		if t.ID == columnar.String {
			r.dict = &columnar.Dictionary{}
		}
		return r, err
	}
	res, err := evalOverDictionary(e, idx, col)
	if err != nil {
		return reg{}, vmUnsupported(e, err.Error())
	}
	n := len(col.Dict.Values)
	vals := make([]int64, n+1)
	okb := make([]byte, n+1)
	for i := 0; i <= n; i++ {
		if res.IsNull(i) {
			continue
		}
		okb[i] = 1
		switch {
		case res.F64 != nil:
			vals[i] = fbits(res.F64[i])
		default:
			vals[i] = res.Int64At(i)
		}
	}
	r, err := c.table(code, vals, okb, t)
	if t.ID == columnar.String {
		r.dict = res.Dict
	}
	return r, err
}

// domainLimitVM bounds the integer domains a string-producing expression
// is evaluated over.
const domainLimitVM = 1 << 16

// domainSubtree reports whether e produces a string from one integer base
// column whose values span a small domain (CAST(a AS VARCHAR)): the device
// cannot format numbers, but the host can evaluate e once per domain
// value, as predicates are evaluated on small domains.
func (c *vmCompiler) domainSubtree(e sql.Expr) (idx int, col *columnar.Column, lo, span int64, ok bool) {
	if e.Type().ID != columnar.String {
		return
	}
	if _, isRef := e.(*sql.ColRef); isRef {
		return
	}
	idx, ok = -1, true
	walkExpr(e, func(x sql.Expr) {
		switch r := x.(type) {
		case *sql.ColRef:
			if idx >= 0 && idx != r.Index {
				ok = false
			}
			idx = r.Index
		case *planner.Subquery, *sql.ScalarSubquery:
			ok = false
		}
	})
	if !ok || idx < 0 {
		return 0, nil, 0, 0, false
	}
	col, found := c.colOf(idx)
	if !found || col.Type.ID == columnar.String || col.Type.ID == columnar.Float64 {
		return 0, nil, 0, 0, false
	}
	if col.I32 == nil && col.I64 == nil {
		// A plan check sees no data: a base column's domain is decided
		// when the query runs (an intermediate result's is not known
		// then either, and the run refuses it).
		return idx, col, 0, 0, c.dry
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := 0; i < col.Len; i++ {
		if col.IsNull(i) {
			continue
		}
		v := col.Int64At(i)
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi < lo {
		lo, hi = 0, -1
	}
	span = hi - lo + 1
	if span < 0 || span > domainLimitVM {
		return 0, nil, 0, 0, false
	}
	return idx, col, lo, span, true
}

// domainLookup evaluates e for every value lo..lo+span-1 of column idx and
// for NULL through exec/cpu and emits a lookup of (value - lo).
func (c *vmCompiler) domainLookup(e sql.Expr, idx int, col *columnar.Column, lo, span int64) (reg, error) {
	v, err := c.expr(&sql.ColRef{Index: idx, Col: sql.Column{Name: "v", Type: col.Type}})
	if err != nil {
		return reg{}, err
	}
	k, err := c.emit(vmConst, 0, 0, 0, lo, 0, col.Type)
	if err != nil {
		return reg{}, err
	}
	off, err := c.emit(vmISub, v.r, k.r, 0, 0, 0, columnar.TInt64)
	if err != nil {
		return reg{}, err
	}
	if c.dry {
		r, err := c.emit(vmLookup, off.r, 0, 0, -1, 0, e.Type())
		r.dict = &columnar.Dictionary{}
		return r, err
	}
	in := columnar.NewColumn(col.Type, int(span+1), true)
	for i := int64(0); i < span; i++ {
		setInt(in, int(i), lo+i)
		in.SetValid(int(i))
	}
	res, err := evalOverColumn(e, in)
	if err != nil {
		return reg{}, vmUnsupported(e, err.Error())
	}
	vals := make([]int64, span+1)
	okb := make([]byte, span+1)
	for i := range vals {
		if !res.IsNull(i) {
			vals[i], okb[i] = res.Int64At(i), 1
		}
	}
	r, err := c.table(off, vals, okb, e.Type())
	r.dict = res.Dict
	return r, err
}

// evalOverDictionary runs e over a one-column table holding each entry of
// col's dictionary (row i = code i) and a NULL (row n) on exec/cpu.
func evalOverDictionary(e sql.Expr, idx int, col *columnar.Column) (*columnar.Column, error) {
	n := len(col.Dict.Values)
	in := columnar.NewColumn(col.Type, n+1, true)
	in.Dict = col.Dict
	for i := 0; i < n; i++ {
		in.I32[i] = int32(i)
		in.SetValid(i)
	}
	return evalOverColumn(e, in)
}

// evalOverColumn runs e, whose only input column is in, over in's rows on
// exec/cpu.
func evalOverColumn(e sql.Expr, in *columnar.Column) (*columnar.Column, error) {
	n := in.Len - 1
	col := in
	sc := sql.Column{Name: "s", Type: col.Type, Nullable: true, Dict: col.Dict}
	t := &columnar.Table{Name: "gpu_dictionary", Rows: n + 1, Columns: []*columnar.Column{in},
		Fields: []columnar.Field{{Name: "s", Type: col.Type, Nullable: true}},
		Stats:  make([][]columnar.ChunkStats, 1)}
	scan := &planner.TableScan{Table: t, Columns: []int{0}, Out: sql.Schema{sc}}
	ex := mapColRefs(e, func(r *sql.ColRef) sql.Expr {
		return &sql.ColRef{Index: 0, Col: r.Col}
	})
	proj := &planner.Projection{Input: scan, Exprs: []sql.Expr{ex}, Out: sql.Schema{{Name: "v", Type: e.Type(), Nullable: true}}}
	res, err := cpu.Run(context.Background(), &planner.Physical{Root: proj, Names: []string{"v"}})
	if err != nil {
		return nil, err
	}
	if len(res.Columns) != 1 || res.Rows != n+1 {
		return nil, fmt.Errorf("dictionary evaluation returned %d rows", res.Rows)
	}
	return res.Columns[0], nil
}
