package sql

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Nested subqueries are the general form of a subquery: its plan keeps
// Param leaves where it reads the enclosing query, and executors run it per
// distinct tuple of argument values (see NestedSubquery). The binder first
// tries to decorrelate a subquery into a join (subquery.go), which runs the
// subquery once in all; where that rewrite does not apply — correlation
// through a predicate other than an equality, references two levels out,
// LIMIT, GROUP BY, IN / EXISTS / ANY / ALL inside OR, NOT, CASE or the
// select list — the decorrelator returns errNeedNested and the subquery is
// bound again, this time nested.

// errNeedNested says a subquery cannot become a join and must be bound as a
// NestedSubquery. It never reaches the user: the subquery's binding site
// catches it (Bind turns a stray one into an "unsupported" error).
var errNeedNested = errors.New("unsupported: a correlated subquery of this shape")

// paramCapture collects, while a subquery is bound nested, the expressions
// of the enclosing query (parent) that it reads: each becomes a Param.
type paramCapture struct {
	parent *scope
	ids    []int
	args   []Expr
	byKey  map[string]*Param
}

// param returns the Param standing for e (one per distinct expression).
func (c *paramCapture) param(b *binder, e Expr) *Param {
	k := exprKey(e)
	if p, ok := c.byKey[k]; ok {
		return p
	}
	b.nextParam++
	p := &Param{ID: b.nextParam, T: e.Type()}
	c.byKey[k] = p
	c.ids = append(c.ids, p.ID)
	c.args = append(c.args, e)
	return p
}

// outerValue makes e, an expression of the enclosing query that sc's block
// references, usable inside the block: a Param when the block is bound
// nested, an outerRef for the decorrelator otherwise.
func (b *binder) outerValue(sc *scope, e Expr) (Expr, error) {
	if !hasColRef(e) && !hasOuterRef(e) {
		// Parameters of an evaluation further out (and constants): the
		// same value everywhere inside this block.
		return e, nil
	}
	if c := sc.corr.capture; c != nil {
		sc.corr.used = true
		if hasOuterRef(e) {
			// The parent reads its own parent here, inside this block's
			// arguments, where no join can reach: it must be nested too.
			sc.parent.corr.forceNested = true
		}
		return c.param(b, e), nil
	}
	if ref, ok := e.(*ColRef); ok {
		sc.corr.used = true
		return &outerRef{Index: ref.Index, Col: ref.Col}, nil
	}
	return nil, errNeedNested
}

// nestedBlock binds subquery q with references to sc's block captured as
// parameters.
func (b *binder) nestedBlock(q ast.Node, sc *scope) (*block, *paramCapture, error) {
	c := &paramCapture{parent: sc, byKey: map[string]*Param{}}
	saved := b.capture
	b.capture = c
	defer func() { b.capture = saved }()
	blk, err := b.query(q, sc)
	if err != nil {
		return nil, nil, err
	}
	return blk, c, nil
}

// nestedScalar binds a scalar subquery nested.
func (b *binder) nestedScalar(q ast.Node, sc *scope, pos int) (Expr, error) {
	blk, c, err := b.nestedBlock(q, sc)
	if err != nil {
		return nil, err
	}
	if len(blk.names) != 1 {
		return nil, b.operandColumnsError(pos, 1)
	}
	return &NestedSubquery{Plan: blk.plan, Params: c.ids, Args: c.args, Mode: SubqueryScalar,
		T: blk.plan.Schema()[0].Type}, nil
}

// nestedExists binds [NOT] EXISTS (q) nested.
func (b *binder) nestedExists(q ast.Node, not bool, sc *scope) (Expr, error) {
	blk, c, err := b.nestedBlock(q, sc)
	if err != nil {
		return nil, err
	}
	var e Expr = &NestedSubquery{Plan: &Limit{Input: blk.plan, Count: 1}, Params: c.ids, Args: c.args,
		Mode: SubqueryExists, T: columnar.TBool}
	if not {
		e = &Not{E: e}
	}
	return e, nil
}

// nestedCompare binds lhs op ANY|ALL (q); IN is = ANY and NOT IN is
// NOT (= ANY), which equals <> ALL in three-valued logic.
func (b *binder) nestedCompare(lhs ast.ExprNode, q ast.Node, op BinOp, all, not bool, sc *scope, pos int) (Expr, error) {
	lefts, err := b.rowOperands(lhs, sc)
	if err != nil {
		return nil, err
	}
	if len(lefts) > 1 && op != OpEQ && op != OpNE {
		return nil, b.errf(pos, "unsupported: row comparison with %s ANY/ALL (only = and <>)", op)
	}
	blk, c, err := b.nestedBlock(q, sc)
	if err != nil {
		return nil, err
	}
	if len(blk.names) != len(lefts) {
		return nil, b.operandColumnsError(pos, len(lefts))
	}
	// Both sides in one comparison type, the subquery's through a Project.
	rs := blk.plan.Schema()
	cols := make([]Expr, len(lefts))
	names := make([]string, len(lefts))
	for i := range lefts {
		right := &ColRef{Index: i, Col: rs[i]}
		t, err := compareType(lefts[i], right)
		if err != nil {
			return nil, b.errf(pos, "%v", err)
		}
		if lefts[i], err = b.castConst(lefts[i], t, pos); err != nil {
			return nil, err
		}
		cols[i], names[i] = castTo(right, t), rs[i].Name
	}
	mode := SubqueryAny
	if all {
		mode = SubqueryAll
	}
	var e Expr = &NestedSubquery{Plan: newProject(blk.plan, cols, names), Params: c.ids, Args: c.args,
		Mode: mode, Op: op, LHS: lefts, T: columnar.TBool}
	if not {
		e = &Not{E: e}
	}
	return e, nil
}

// rowOperands binds the left side of IN / ANY / ALL: one expression or the
// items of a row constructor.
func (b *binder) rowOperands(lhs ast.ExprNode, sc *scope) ([]Expr, error) {
	nodes := []ast.ExprNode{lhs}
	if row, ok := unparen(lhs).(*ast.RowExpr); ok {
		nodes = row.Values
	}
	out := make([]Expr, len(nodes))
	for i, n := range nodes {
		e, err := b.expr(n, sc)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// inSubqueryExpr binds x [NOT] IN (subquery) and x op ANY|ALL (subquery)
// in an expression.
func (b *binder) inSubqueryExpr(n *ast.PatternInExpr, sc *scope, pos int) (Expr, error) {
	if err := b.quantifiedLimit(n.Sel, pos); err != nil {
		return nil, err
	}
	return b.nestedCompare(n.Expr, n.Sel, OpEQ, false, n.Not, sc, pos)
}

func (b *binder) compareSubqueryExpr(n *ast.CompareSubqueryExpr, sc *scope, pos int) (Expr, error) {
	op, ok := cmpOps[n.Op]
	if !ok {
		return nil, b.errf(pos, "unsupported: %s subquery", compareSubqueryName(n))
	}
	if _, ok := n.R.(*ast.SubqueryExpr); !ok {
		return nil, b.errf(pos, "unsupported: %s of %s", compareSubqueryName(n), constructName(n.R))
	}
	if err := b.quantifiedLimit(n.R, pos); err != nil {
		return nil, err
	}
	return b.nestedCompare(n.L, n.R, op, n.All, false, sc, pos)
}

// quantifiedLimit is MySQL's error 1235 for a LIMIT on the subquery of IN,
// ANY, SOME or ALL (x IN (SELECT a FROM t LIMIT 1)), which MySQL refuses
// rather than answer: its IN-to-EXISTS and semi-join rewrites cannot keep
// the limit. A LIMIT inside a derived table of the subquery is allowed
// (x IN (SELECT a FROM (SELECT a FROM t LIMIT 1) AS d)), as in MySQL.
func (b *binder) quantifiedLimit(q ast.Node, pos int) error {
	sq, ok := q.(*ast.SubqueryExpr)
	if !ok {
		return nil
	}
	var limit *ast.Limit
	switch s := sq.Query.(type) {
	case *ast.SelectStmt:
		limit = s.Limit
	case *ast.SetOprStmt:
		limit = s.Limit
	}
	if limit == nil {
		return nil
	}
	return b.errCode(pos, ErNotSupportedYet, "This version of MySQL doesn't yet support 'LIMIT & IN/ALL/ANY/SOME subquery'")
}
