package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Set operations: INTERSECT binds tighter than UNION and EXCEPT (MySQL
// 8.0.31+), which associate left to right. Each column's type is the common
// type of both inputs; an input whose column types differ gets a Project of
// Casts under the SetOp. Output names come from the first SELECT. A column
// of a case-insensitive collation (either input's) keeps it: INTERSECT and
// EXCEPT compare its collation keys (the CPU executor's SetOp), UNION is a
// UNION ALL under a DISTINCT by them.

func (b *binder) setOprStmt(n *ast.SetOprStmt, parent *scope) (*block, error) {
	pop, err := b.pushCTEs(n.With)
	if err != nil {
		return nil, err
	}
	defer pop()
	if s, ok := absorbedSelect(n); ok {
		return b.selectStmt(s, parent) // (SELECT a FROM t) ORDER BY t.a: paren_order.go
	}
	blk, err := b.setOprList(n.SelectList, parent)
	if err != nil {
		return nil, err
	}
	if singleParenthesized(n) && n.OrderBy != nil {
		for _, by := range n.OrderBy.Items {
			if err := b.globalOrderTable(by.Expr); err != nil {
				return nil, err
			}
		}
	}
	return b.setOrderLimit(blk, n.OrderBy, n.Limit)
}

func (b *binder) setOprList(l *ast.SetOprSelectList, parent *scope) (*block, error) {
	if l == nil || len(l.Selects) == 0 {
		return nil, b.errf(-1, "empty set operation")
	}
	pop, err := b.pushCTEs(l.With)
	if err != nil {
		return nil, err
	}
	defer pop()
	type branch struct {
		blk *block
		op  *ast.SetOprType // operator before this branch
	}
	var branches []branch
	// MySQL stores a set operation's rows in a temporary table: each arm's
	// columns at the printed scale (materialized_derived.go).
	store := b.storesRows(parent) || len(l.Selects) > 1
	for _, s := range l.Selects {
		b.storeRows = store
		var blk *block
		var op *ast.SetOprType
		switch s := s.(type) {
		case *ast.SelectStmt:
			op = s.AfterSetOperator
			if len(l.Selects) > 1 {
				if err := b.memberClauses(s); err != nil {
					return nil, err
				}
			}
			blk, err = b.selectStmt(s, parent)
		case *ast.SetOprSelectList:
			op = s.AfterSetOperator
			blk, err = b.setOprList(s, parent)
		default:
			return nil, b.errf(-1, "unsupported: %s in a set operation", constructName(s))
		}
		if err != nil {
			return nil, err
		}
		branches = append(branches, branch{blk, op})
	}
	blks := make([]*block, len(branches))
	for i := range branches {
		blks[i] = branches[i].blk
	}
	unifySetBranches(blks)
	// INTERSECT first: fold runs of INTERSECT into single operands.
	type operand struct {
		blk *block
		op  *ast.SetOprType
	}
	var ops []operand
	for i, br := range branches {
		if i > 0 && br.op != nil && (*br.op == ast.Intersect || *br.op == ast.IntersectAll) {
			last := &ops[len(ops)-1]
			nb, err := b.combine(last.blk, br.blk, SetIntersect, *br.op == ast.IntersectAll)
			if err != nil {
				return nil, err
			}
			last.blk = nb
			continue
		}
		ops = append(ops, operand(br))
	}
	blk := ops[0].blk
	for _, o := range ops[1:] {
		kind, all := SetUnion, false
		if o.op != nil {
			switch *o.op {
			case ast.UnionAll:
				all = true
			case ast.Except:
				kind = SetExcept
			case ast.ExceptAll:
				kind, all = SetExcept, true
			}
		}
		if blk, err = b.combine(blk, o.blk, kind, all); err != nil {
			return nil, err
		}
	}
	if len(branches) == 1 && l.OrderBy == nil && l.Limit == nil {
		return blk, nil
	}
	return b.setOrderLimit(blk, l.OrderBy, l.Limit)
}

func (b *binder) combine(l, r *block, kind SetOpKind, all bool) (*block, error) {
	ls, rs := l.plan.Schema(), r.plan.Schema()
	if len(l.names) != len(r.names) {
		return nil, b.errCode(-1, ErWrongNumberOfColumns, "The used SELECT statements have a different number of columns")
	}
	out := make(Schema, len(l.names))
	for i := range out {
		t, err := unionType(ls[i].Type, rs[i].Type)
		if err != nil {
			return nil, b.errf(-1, "%v", err)
		}
		out[i] = Column{Name: l.names[i], Type: t, Nullable: ls[i].Nullable || rs[i].Nullable, Collation: or(ls[i].Collation, rs[i].Collation)}
	}
	lp := castColumns(l.plan, l.names, out)
	rp := castColumns(r.plan, r.names, out)
	var plan Plan = &SetOp{Kind: kind, All: all, Left: lp, Right: rp, Out: out}
	if kind == SetUnion && !all && collatedSchema(out) {
		// UNION of values of a collation: UNION ALL, then DISTINCT by
		// the collation's keys.
		plan = distinct(&SetOp{Kind: kind, All: true, Left: lp, Right: rp, Out: out})
	}
	return &block{plan: plan, names: l.names, corrUsed: l.corrUsed || r.corrUsed, setOp: true}, nil
}

// castColumns projects p's first len(to) columns to the types of to when
// any differs.
func castColumns(p Plan, names []string, to Schema) Plan {
	sch := p.Schema()
	need := len(sch) != len(to)
	for i := range to {
		if !sameType(sch[i].Type, to[i].Type) {
			need = true
		}
	}
	if !need {
		return p
	}
	exprs := make([]Expr, len(to))
	for i := range to {
		exprs[i] = castTo(&ColRef{Index: i, Col: sch[i]}, to[i].Type)
	}
	return newProject(p, exprs, names)
}

// setOrderLimit applies ORDER BY (output names, positions, or expressions
// over the output columns) and LIMIT to a set operation.
func (b *binder) setOrderLimit(blk *block, orderBy *ast.OrderByClause, limit *ast.Limit) (*block, error) {
	plan := blk.plan
	if orderBy != nil {
		defer b.inClause("order clause")()
		sc := &scope{plan: plan, cols: qualify(blk.names, "")}
		items := make([]selItem, len(blk.names))
		exprs := make([]Expr, len(blk.names))
		for i, n := range blk.names {
			items[i] = selItem{name: n}
			exprs[i] = sc.colRef(i)
		}
		var keys []SortKey
		for _, by := range orderBy.Items {
			if blk.setOp {
				if err := b.globalOrderTable(by.Expr); err != nil {
					return nil, err
				}
			}
			idx, e, skip, err := b.orderItem(by.Expr, items, exprs, sc)
			if err != nil {
				return nil, err
			}
			if skip {
				continue
			}
			if idx >= 0 {
				e = exprs[idx]
			}
			keys = append(keys, SortKey{Expr: orderKey(e), Desc: by.Desc})
		}
		if planHasOuterRef(&Sort{Input: &Values{}, Keys: keys}) {
			return nil, errNeedNested
		}
		if len(keys) > 0 {
			plan = &Sort{Input: plan, Keys: keys}
		}
	}
	nb := *blk
	if limit != nil {
		off, cnt, err := b.limit(limit)
		if err != nil {
			return nil, err
		}
		plan = &Limit{Input: plan, Offset: off, Count: cnt}
		nb.limited = off > 0 || cnt == 0
	}
	nb.plan = plan
	return &nb, nil
}
