package planner

import (
	"fmt"
	"math"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// builder turns a rewritten logical plan into physical nodes, estimating
// each node's statistics bottom-up.
type builder struct {
	opts  Options
	stats map[Node]*relStats
	subqs map[*sql.ScalarSubquery]*Subquery
	// nested maps each nested subquery's logical plan to its physical one.
	nested map[sql.Plan]Node
}

func newBuilder(opts Options) *builder {
	return &builder{opts: opts, stats: map[Node]*relStats{}, subqs: map[*sql.ScalarSubquery]*Subquery{},
		nested: map[sql.Plan]Node{}}
}

// set records n's statistics and estimates.
func (b *builder) set(n Node, s *relStats, cost float64) Node {
	s.capDistinct()
	b.stats[n] = s
	n.Props().EstRows = s.Rows
	n.Props().Cost = cost
	return n
}

func (b *builder) cost(n Node) float64 { return n.Props().Cost }

// expr converts a bound expression for the physical plan: scalar subqueries
// are planned on their own.
func (b *builder) expr(e sql.Expr) (sql.Expr, error) {
	if e == nil {
		return nil, nil
	}
	var err error
	out := rewriteExpr(e, func(x sql.Expr) sql.Expr {
		if ns, ok := x.(*sql.NestedSubquery); ok {
			p, perr := b.planNested(ns)
			if perr != nil {
				err = perr
				return x
			}
			return p
		}
		sq, ok := x.(*sql.ScalarSubquery)
		if !ok {
			return x
		}
		if s, ok := b.subqs[sq]; ok {
			return s
		}
		root, perr := b.planQuery(sq.Plan)
		if perr != nil {
			err = perr
			return x
		}
		s := &Subquery{Root: root, T: sq.T}
		b.subqs[sq] = s
		return s
	})
	return out, err
}

func (b *builder) exprs(list []sql.Expr) ([]sql.Expr, error) {
	if list == nil {
		return nil, nil
	}
	out := make([]sql.Expr, len(list))
	for i, e := range list {
		var err error
		if out[i], err = b.expr(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (b *builder) build(p sql.Plan) (Node, error) {
	switch n := p.(type) {
	case *sql.Scan:
		return b.buildScan(n), nil
	case *sql.Filter:
		if j, ok := n.Input.(*sql.Join); ok && isRegionJoin(j) {
			return b.buildRegion(n)
		}
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		cond, err := b.expr(n.Cond)
		if err != nil {
			return nil, err
		}
		return b.filter(in, cond), nil
	case *sql.Project:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		exprs, err := b.exprs(n.Exprs)
		if err != nil {
			return nil, err
		}
		return b.projection(in, exprs, n.Out), nil
	case *sql.Join:
		if isRegionJoin(n) {
			return b.buildRegion(n)
		}
		return b.buildOuterJoin(n)
	case *sql.Aggregate:
		return b.buildAggregate(n)
	case *sql.Sort:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		keys, err := b.sortKeys(n.Keys)
		if err != nil {
			return nil, err
		}
		s := b.stats[in].clone()
		return b.set(&Sort{Input: in, Keys: keys}, s, b.cost(in)+s.Rows*math.Log2(s.Rows+2)), nil
	case *sql.Limit:
		return b.buildLimit(n)
	case *sql.Distinct:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		s := b.stats[in].clone()
		s.Rows = groupCount(s, allCols(len(s.Cols)))
		keys := rowKeyStats(b.stats[in].Cols, in.Schema(), b.stats[in].Rows, s.Rows)
		return b.set(&Distinct{Input: in, RowKeys: keys}, s, b.cost(in)+b.stats[in].Rows), nil
	case *sql.SetOp:
		return b.buildSetOp(n)
	case *sql.Window:
		return b.buildWindow(n)
	case *sql.Values:
		rows := make([][]sql.Expr, len(n.Rows))
		for i, r := range n.Rows {
			var err error
			if rows[i], err = b.exprs(r); err != nil {
				return nil, err
			}
		}
		s := &relStats{Rows: float64(len(rows))}
		for _, c := range n.Out {
			s.Cols = append(s.Cols, unknownCol(c.Type, s.Rows))
		}
		return b.set(&Values{Rows: rows, Out: n.Out}, s, 0), nil
	}
	return nil, fmt.Errorf("planner: unsupported plan node %T", p)
}

func (b *builder) buildScan(n *sql.Scan) Node {
	t := n.Table
	s := &relStats{Rows: float64(t.Rows)}
	for _, c := range n.Columns {
		cs := tableColumnStat(t, c)
		s.Cols = append(s.Cols, cs)
	}
	return b.set(&TableScan{Table: t, Alias: n.Alias, Columns: n.Columns, Out: n.Out}, s, 0)
}

func (b *builder) filter(in Node, cond sql.Expr) Node {
	if cond == nil || isTrue(cond) {
		return in
	}
	s := applyFilter(b.stats[in], cond)
	return b.set(&Filter{Input: in, Cond: cond}, s, b.cost(in)+b.stats[in].Rows*0.1)
}

func (b *builder) projection(in Node, exprs []sql.Expr, out sql.Schema) Node {
	is := b.stats[in]
	s := &relStats{Rows: is.Rows}
	for i, e := range exprs {
		s.Cols = append(s.Cols, exprStat(e, is, out[i].Type))
	}
	return b.set(&Projection{Input: in, Exprs: exprs, Out: out}, s, b.cost(in))
}

// exprStat is the statistic of an expression's values: a column's own for a
// column reference or a cast that keeps its values, unknown otherwise.
func exprStat(e sql.Expr, in *relStats, t columnar.Type) colStat {
	switch x := e.(type) {
	case *sql.ColRef:
		if x.Index < len(in.Cols) {
			return in.Cols[x.Index]
		}
	case *sql.Cast:
		if c, ok := x.E.(*sql.ColRef); ok && c.Index < len(in.Cols) &&
			c.Col.Type.IsInteger() && x.T.IsInteger() {
			return in.Cols[c.Index]
		}
	case *sql.Const:
		cs := colStat{Distinct: 1, Integral: t.Physical() != columnar.PhysFloat64}
		if v, ok := constValue(x); ok {
			cs.Min, cs.Max, cs.HasRange, cs.Exact = v, v, true, true
		}
		if x.Null {
			cs.NullFrac = 1
		}
		return cs
	}
	return unknownCol(t, in.Rows)
}

func (b *builder) sortKeys(keys []sql.SortKey) ([]sql.SortKey, error) {
	out := make([]sql.SortKey, len(keys))
	for i, k := range keys {
		e, err := b.expr(k.Expr)
		if err != nil {
			return nil, err
		}
		out[i] = sql.SortKey{Expr: e, Desc: k.Desc}
	}
	return out, nil
}

func allCols(n int) []int { return identity(n) }

// groupCount estimates the number of distinct combinations of cols.
func groupCount(s *relStats, cols []int) float64 {
	g := 1.0
	for _, c := range cols {
		g *= math.Max(s.Cols[c].Distinct, 1)
		if g > s.Rows {
			break
		}
	}
	return math.Max(1, math.Min(g, s.Rows))
}

func (b *builder) buildSetOp(n *sql.SetOp) (Node, error) {
	l, err := b.build(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := b.build(n.Right)
	if err != nil {
		return nil, err
	}
	ls, rs := b.stats[l], b.stats[r]
	s := &relStats{}
	for i, c := range n.Out {
		cs := unknownCol(c.Type, ls.Rows+rs.Rows)
		if i < len(ls.Cols) && i < len(rs.Cols) {
			cs.Distinct = ls.Cols[i].Distinct + rs.Cols[i].Distinct
		}
		s.Cols = append(s.Cols, cs)
	}
	switch n.Kind {
	case sql.SetUnion:
		s.Rows = ls.Rows + rs.Rows
	case sql.SetIntersect:
		s.Rows = math.Min(ls.Rows, rs.Rows)
	default:
		s.Rows = ls.Rows
	}
	if !n.All {
		s.Rows = groupCount(s, allCols(len(s.Cols)))
	}
	keys := setOpKeyStats(ls, rs, n.Out)
	return b.set(&SetOp{Kind: n.Kind, All: n.All, Left: l, Right: r, Out: n.Out, RowKeys: keys}, s,
		b.cost(l)+b.cost(r)+ls.Rows+rs.Rows), nil
}
