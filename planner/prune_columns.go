package planner

import "gpusql/sql"

// pruneColumns drops every column that nothing above reads: scans read only
// the columns some operator uses, projections and aggregates stop computing
// unused outputs, and join outputs carry only what the joins and their
// consumers need. The root keeps all its columns (they are the result).
func pruneColumns(p sql.Plan) sql.Plan {
	req := make([]bool, len(p.Schema()))
	for i := range req {
		req[i] = true
	}
	out, _ := prune(p, req)
	return out
}

// prune returns p narrowed to the required columns (and those its own
// expressions need) and m with m[old] = new position, or -1 for a dropped
// column.
func prune(p sql.Plan, req []bool) (sql.Plan, []int) {
	switch n := p.(type) {
	case *sql.Scan:
		s := &sql.Scan{Table: n.Table, Alias: n.Alias}
		m := make([]int, len(n.Out))
		for i := range n.Out {
			m[i] = -1
			if req[i] {
				m[i] = len(s.Columns)
				s.Columns = append(s.Columns, n.Columns[i])
				s.Out = append(s.Out, n.Out[i])
			}
		}
		return s, m
	case *sql.Filter:
		cr := addCols(req, n.Cond)
		in, m := prune(n.Input, cr)
		return &sql.Filter{Input: in, Cond: remapBy(n.Cond, m)}, m
	case *sql.Project:
		cr := make([]bool, len(n.Input.Schema()))
		m := make([]int, len(n.Exprs))
		var keep []int
		for i, e := range n.Exprs {
			m[i] = -1
			if req[i] {
				m[i] = len(keep)
				keep = append(keep, i)
				markCols(cr, e)
			}
		}
		in, cm := prune(n.Input, cr)
		pr := &sql.Project{Input: in}
		for _, i := range keep {
			pr.Exprs = append(pr.Exprs, remapBy(n.Exprs[i], cm))
			pr.Out = append(pr.Out, n.Out[i])
		}
		return pr, m
	case *sql.Join:
		nl, nr := len(n.Left.Schema()), len(n.Right.Schema())
		lr, rr := make([]bool, nl), make([]bool, nr)
		for i := range req {
			if i < nl {
				lr[i] = req[i]
			} else if i-nl < nr {
				rr[i-nl] = req[i]
			}
		}
		for _, e := range n.LeftKeys {
			markCols(lr, e)
		}
		for _, e := range n.RightKeys {
			markCols(rr, e)
		}
		if n.Residual != nil {
			for _, c := range colList(n.Residual) {
				if c < nl {
					lr[c] = true
				} else {
					rr[c-nl] = true
				}
			}
		}
		l, lm := prune(n.Left, lr)
		r, rm := prune(n.Right, rr)
		nlNew := len(l.Schema())
		both := make([]int, nl+nr)
		for i := range both {
			if i < nl {
				both[i] = lm[i]
			} else if rm[i-nl] >= 0 {
				both[i] = nlNew + rm[i-nl]
			} else {
				both[i] = -1
			}
		}
		j := &sql.Join{Kind: n.Kind, Left: l, Right: r, NullAware: n.NullAware,
			LeftKeys: remapListBy(n.LeftKeys, lm), RightKeys: remapListBy(n.RightKeys, rm),
			Residual: remapBy(n.Residual, both)}
		j.Out = joinSchema(n.Kind, l.Schema(), r.Schema())
		if n.Kind == sql.JoinSemi || n.Kind == sql.JoinAnti {
			return j, lm
		}
		return j, both
	case *sql.Aggregate:
		ng := len(n.GroupBy)
		cr := make([]bool, len(n.Input.Schema()))
		for _, g := range n.GroupBy {
			markCols(cr, g)
		}
		m := make([]int, ng+len(n.Aggs))
		for i := 0; i < ng; i++ {
			m[i] = i
		}
		var keep []int
		for i, a := range n.Aggs {
			m[ng+i] = -1
			if req[ng+i] {
				m[ng+i] = ng + len(keep)
				keep = append(keep, i)
				for _, e := range a.Exprs() {
					markCols(cr, *e)
				}
			}
		}
		in, cm := prune(n.Input, cr)
		a := &sql.Aggregate{Input: in, GroupBy: remapListBy(n.GroupBy, cm), Out: append(sql.Schema{}, n.Out[:ng]...)}
		for _, i := range keep {
			ag := n.Aggs[i]
			ag.CopyOrder()
			for _, e := range ag.Exprs() {
				*e = remapBy(*e, cm)
			}
			a.Aggs = append(a.Aggs, ag)
			a.Out = append(a.Out, n.Out[ng+i])
		}
		return a, m
	case *sql.Sort:
		cr := append([]bool{}, req...)
		for _, k := range n.Keys {
			markCols(cr, k.Expr)
		}
		in, m := prune(n.Input, cr)
		keys := make([]sql.SortKey, len(n.Keys))
		for i, k := range n.Keys {
			keys[i] = sql.SortKey{Expr: remapBy(k.Expr, m), Desc: k.Desc}
		}
		return &sql.Sort{Input: in, Keys: keys}, m
	case *sql.Limit:
		in, m := prune(n.Input, req)
		return &sql.Limit{Input: in, Offset: n.Offset, Count: n.Count}, m
	case *sql.Distinct:
		in, m := prune(n.Input, allTrue(len(n.Input.Schema())))
		return &sql.Distinct{Input: in}, m
	case *sql.Window:
		return pruneWindow(n, req)
	case *sql.SetOp:
		s := *n
		s.Left, _ = prune(n.Left, allTrue(len(n.Left.Schema())))
		s.Right, _ = prune(n.Right, allTrue(len(n.Right.Schema())))
		return &s, identity(len(n.Out))
	}
	return p, identity(len(p.Schema()))
}

func allTrue(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func markCols(set []bool, e sql.Expr) {
	walkExpr(e, func(x sql.Expr) {
		if c, ok := x.(*sql.ColRef); ok && c.Index < len(set) {
			set[c.Index] = true
		}
	})
}

func addCols(req []bool, e sql.Expr) []bool {
	out := append([]bool{}, req...)
	markCols(out, e)
	return out
}

func remapBy(e sql.Expr, m []int) sql.Expr {
	if e == nil {
		return nil
	}
	return remapCols(e, func(i int) int { return m[i] })
}

func remapListBy(list []sql.Expr, m []int) []sql.Expr {
	if list == nil {
		return nil
	}
	out := make([]sql.Expr, len(list))
	for i, e := range list {
		out[i] = remapBy(e, m)
	}
	return out
}
