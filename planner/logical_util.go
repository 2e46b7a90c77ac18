package planner

import (
	"fmt"

	"gpusql/sql"
)

// joinSchema is the output schema of a join of l and r: left++right (right
// columns nullable under a LEFT JOIN), or left alone for semi and anti joins.
func joinSchema(kind sql.JoinKind, l, r sql.Schema) sql.Schema {
	if kind == sql.JoinSemi || kind == sql.JoinAnti {
		return append(sql.Schema{}, l...)
	}
	out := make(sql.Schema, 0, len(l)+len(r))
	out = append(out, l...)
	for _, c := range r {
		if kind == sql.JoinLeft {
			c.Nullable = true
		}
		out = append(out, c)
	}
	return out
}

// mapPlanExprs returns p (and its whole subtree) with fn applied to every
// expression, nodes copied where something changed.
func mapPlanExprs(p sql.Plan, fn func(sql.Expr) sql.Expr) sql.Plan {
	switch n := p.(type) {
	case *sql.Scan:
		return n
	case *sql.Filter:
		return &sql.Filter{Input: mapPlanExprs(n.Input, fn), Cond: fn(n.Cond)}
	case *sql.Project:
		exprs := make([]sql.Expr, len(n.Exprs))
		for i, e := range n.Exprs {
			exprs[i] = fn(e)
		}
		return &sql.Project{Input: mapPlanExprs(n.Input, fn), Exprs: exprs, Out: n.Out}
	case *sql.Join:
		j := *n
		j.Left, j.Right = mapPlanExprs(n.Left, fn), mapPlanExprs(n.Right, fn)
		j.LeftKeys, j.RightKeys = mapList(n.LeftKeys, fn), mapList(n.RightKeys, fn)
		if n.Residual != nil {
			j.Residual = fn(n.Residual)
		}
		return &j
	case *sql.Aggregate:
		a := *n
		a.Input = mapPlanExprs(n.Input, fn)
		a.GroupBy = mapList(n.GroupBy, fn)
		a.Aggs = make([]sql.AggExpr, len(n.Aggs))
		for i, ag := range n.Aggs {
			a.Aggs[i] = ag
			a.Aggs[i].CopyOrder()
			for _, e := range a.Aggs[i].Exprs() {
				*e = fn(*e)
			}
		}
		return &a
	case *sql.Sort:
		keys := make([]sql.SortKey, len(n.Keys))
		for i, k := range n.Keys {
			keys[i] = sql.SortKey{Expr: fn(k.Expr), Desc: k.Desc}
		}
		return &sql.Sort{Input: mapPlanExprs(n.Input, fn), Keys: keys}
	case *sql.Limit:
		return &sql.Limit{Input: mapPlanExprs(n.Input, fn), Offset: n.Offset, Count: n.Count}
	case *sql.Distinct:
		return &sql.Distinct{Input: mapPlanExprs(n.Input, fn)}
	case *sql.Window:
		return &sql.Window{Input: mapPlanExprs(n.Input, fn), Funcs: mapWindowFuncs(n.Funcs, fn), Out: n.Out}
	case *sql.SetOp:
		s := *n
		s.Left, s.Right = mapPlanExprs(n.Left, fn), mapPlanExprs(n.Right, fn)
		return &s
	case *sql.Values:
		rows := make([][]sql.Expr, len(n.Rows))
		for i, r := range n.Rows {
			rows[i] = mapList(r, fn)
		}
		return &sql.Values{Rows: rows, Out: n.Out}
	}
	panic(fmt.Sprintf("planner: unknown logical node %T", p))
}

func mapList(list []sql.Expr, fn func(sql.Expr) sql.Expr) []sql.Expr {
	if list == nil {
		return nil
	}
	out := make([]sql.Expr, len(list))
	for i, e := range list {
		out[i] = fn(e)
	}
	return out
}

// checkPlan rejects logical nodes the planner does not know, so an unknown
// node is an error rather than a panic.
func checkPlan(p sql.Plan) error {
	switch p.(type) {
	case *sql.Scan, *sql.Filter, *sql.Project, *sql.Join, *sql.Aggregate, *sql.Sort,
		*sql.Limit, *sql.Distinct, *sql.SetOp, *sql.Values, *sql.Window:
	default:
		return fmt.Errorf("planner: unsupported plan node %T", p)
	}
	for _, c := range p.Children() {
		if err := checkPlan(c); err != nil {
			return err
		}
	}
	return nil
}
