package planner

import "gpusql/sql"

// markNeeded computes, top-down, which output columns of each node something
// above reads, and records it on hash joins (HashJoin.Needed): a build
// column nobody reads is never gathered, and the ones that are form the
// join's payload (what a GPU probe kernel must fetch per matching row).
func markNeeded(n Node, req []bool) {
	switch n := n.(type) {
	case *Filter:
		markNeeded(n.Input, addCols(req, n.Cond))
	case *Projection:
		n.Needed = append([]bool{}, req...)
		cr := make([]bool, len(n.Input.Schema()))
		for i, e := range n.Exprs {
			if i < len(req) && req[i] {
				markCols(cr, e)
			}
		}
		markNeeded(n.Input, cr)
	case *HashJoin:
		n.Needed = append([]bool{}, req...)
		nl := len(n.Left.Schema())
		lr := make([]bool, nl)
		rr := make([]bool, len(n.Right.Schema()))
		for i, r := range req {
			if i < nl {
				lr[i] = r
			} else if i-nl < len(rr) {
				rr[i-nl] = r
			}
		}
		markJoinCols(lr, rr, n.LeftKeys, n.RightKeys, n.Residual)
		markNeeded(n.Left, lr)
		markNeeded(n.Right, rr)
	case *HashAggregate:
		cr := make([]bool, len(n.Input.Schema()))
		for _, g := range n.GroupBy {
			markCols(cr, g)
		}
		for _, a := range n.Aggs {
			for _, e := range a.Exprs() {
				markCols(cr, *e)
			}
		}
		markNeeded(n.Input, cr)
	case *Sort:
		cr := append([]bool{}, req...)
		for _, k := range n.Keys {
			markCols(cr, k.Expr)
		}
		markNeeded(n.Input, cr)
	case *TopN:
		cr := append([]bool{}, req...)
		for _, k := range n.Keys {
			markCols(cr, k.Expr)
		}
		markNeeded(n.Input, cr)
	case *Limit:
		markNeeded(n.Input, req)
	case *Window:
		nIn := len(n.Input.Schema())
		cr := append([]bool{}, req[:nIn]...)
		for _, e := range windowExprs(n.Funcs) {
			markCols(cr, e)
		}
		markNeeded(n.Input, cr)
	default:
		// Operators that materialize whole rows (joins by sort or nested
		// loops, set operations, DISTINCT) read every input column.
		for _, c := range n.Children() {
			markNeeded(c, allTrue(len(c.Schema())))
		}
	}
	for _, sq := range nodeSubqueries(n) {
		markNeeded(sq.Root, allTrue(len(sq.Root.Schema())))
	}
}

func markJoinCols(lr, rr []bool, lk, rk []sql.Expr, residual sql.Expr) {
	for _, e := range lk {
		markCols(lr, e)
	}
	for _, e := range rk {
		markCols(rr, e)
	}
	if residual != nil {
		nl := len(lr)
		for _, c := range colList(residual) {
			if c < nl {
				lr[c] = true
			} else if c-nl < len(rr) {
				rr[c-nl] = true
			}
		}
	}
}
