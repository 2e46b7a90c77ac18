package sql

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"gpusql/storage/columnar"
)

// Row constructors, (a, b) and ROW(a, b), compared with =, <>, <, <=, >,
// >=, <=> and [NOT] IN (row, ...), as MySQL 8 compares them (Arg_comparator::
// compare_row). The binder lowers every row comparison to scalar
// comparisons joined by AND and OR, so (a, b) = (1, 2) in a WHERE clause is
// the conjunction a = 1 AND b = 2 that filter push-down, code sets, index
// lookups and the GPU executor already handle; no executor knows rows.
//
// The lowering keeps MySQL's NULL rules:
//   - (a1..an) = (b1..bn) is a1 = b1 AND ... AND an = bn in three-valued
//     logic: (1, NULL) = (1, 2) is NULL, (1, NULL) = (2, 2) is 0.
//   - <> is the OR of the items' <>, the negation of = in three-valued logic.
//   - < is lexicographic and stops at the first pair that is not equal: its
//     result is that pair's <, or NULL when either item is NULL, so
//     (1, NULL) < (2, NULL) is 1 and (NULL, 1) < (2, 2) is NULL. That is
//     a1 < b1 OR (a1 = b1 AND rest): when a1 or b1 is NULL both arms are
//     NULL or false and the whole is NULL; when they differ the first arm
//     decides; when equal the rest does. <= uses <= on the last pair only.
//   - <=> is the AND of the items' <=>, never NULL.
//   - x IN (r1, r2, ...) is x = r1 OR x = r2 OR ..., so a row with a NULL
//     that matches no item exactly gives NULL, and NOT IN its negation.
//
// An item may itself be a row (nested rows compare the same way, item by
// item), and a subquery that returns several columns, (a, b) = (SELECT x,
// y ...), is a row of scalar subqueries, one per column (each an error over
// more than one row, NULL over none, as MySQL's row subquery is).

// rowValue is a bound operand of a row comparison: a scalar (e) or a row
// of operands (items).
type rowValue struct {
	e     Expr
	items []rowValue
	pos   int
}

func (v rowValue) arity() int {
	if v.items == nil {
		return 1
	}
	return len(v.items)
}

// isRowConstructor reports whether n is (a, b, ...) or ROW(a, b, ...).
func isRowConstructor(n ast.ExprNode) bool {
	_, ok := unparen(n).(*ast.RowExpr)
	return ok
}

// isRowSubquery reports whether n is a subquery whose select list has
// several items, (SELECT a, b ...): then n = (SELECT c, d ...) compares
// rows.
func isRowSubquery(n ast.ExprNode) bool {
	sq, ok := unparen(n).(*ast.SubqueryExpr)
	if !ok {
		return false
	}
	sel, ok := sq.Query.(*ast.SelectStmt)
	return ok && sel.Fields != nil && len(sel.Fields.Fields) > 1
}

// isRowOperand reports whether n is a row: a constructor or a subquery of
// several columns.
func isRowOperand(n ast.ExprNode) bool { return isRowConstructor(n) || isRowSubquery(n) }

// operandColumnsError is MySQL's ER_OPERAND_COLUMNS (1241), worded as
// MySQL words it.
func (b *binder) operandColumnsError(pos, n int) error {
	return b.errCode(pos, ErOperandColumns, "Operand should contain %d column(s)", n)
}

// rowOperand binds an operand of a row comparison. A subquery becomes a
// row of its columns where it returns more than one.
func (b *binder) rowOperand(n ast.ExprNode, sc *scope) (rowValue, error) {
	pos := b.pos(n)
	switch u := unparen(n).(type) {
	case *ast.RowExpr:
		v := rowValue{items: make([]rowValue, len(u.Values)), pos: pos}
		for i, x := range u.Values {
			item, err := b.rowOperand(x, sc)
			if err != nil {
				return rowValue{}, err
			}
			v.items[i] = item
		}
		return v, nil
	case *ast.SubqueryExpr:
		cols, err := b.rowSubquery(u, sc, pos)
		if err != nil {
			return rowValue{}, err
		}
		if len(cols) == 1 {
			return rowValue{e: cols[0], pos: pos}, nil
		}
		v := rowValue{items: make([]rowValue, len(cols)), pos: pos}
		for i, c := range cols {
			v.items[i] = rowValue{e: c, pos: pos}
		}
		return v, nil
	}
	e, err := b.expr(n, sc)
	if err != nil {
		return rowValue{}, err
	}
	return rowValue{e: e, pos: pos}, nil
}

// rowComparison binds l op r where either side is a row constructor.
func (b *binder) rowComparison(n *ast.BinaryOperationExpr, sc *scope, pos int) (Expr, error) {
	l, err := b.rowOperand(n.L, sc)
	if err != nil {
		return nil, err
	}
	r, err := b.rowOperand(n.R, sc)
	if err != nil {
		return nil, err
	}
	if n.Op == opcode.NullEQ {
		return b.rowNullSafeEqual(l, r, pos)
	}
	return b.compareRows(cmpOps[n.Op], l, r, pos)
}

// sameArity checks that l and r have as many columns, item by item.
func (b *binder) sameArity(l, r rowValue, pos int) error {
	if l.arity() != r.arity() {
		return b.operandColumnsError(pos, l.arity())
	}
	for i := range l.items {
		if err := b.sameArity(l.items[i], r.items[i], pos); err != nil {
			return err
		}
	}
	return nil
}

// compareRows lowers l op r to scalar comparisons (see the file comment).
func (b *binder) compareRows(op BinOp, l, r rowValue, pos int) (Expr, error) {
	if err := b.sameArity(l, r, pos); err != nil {
		return nil, err
	}
	return b.lowerRowCompare(op, l, r, pos)
}

func (b *binder) lowerRowCompare(op BinOp, l, r rowValue, pos int) (Expr, error) {
	if l.items == nil {
		return b.compare(op, l.e, r.e, pos)
	}
	switch op {
	case OpEQ, OpNE:
		var out Expr
		for i := range l.items {
			c, err := b.lowerRowCompare(op, l.items[i], r.items[i], pos)
			if err != nil {
				return nil, err
			}
			if op == OpEQ {
				out = and(out, c)
			} else {
				out = orElse(out, c)
			}
		}
		return out, nil
	}
	strict := OpLT
	if op == OpGT || op == OpGE {
		strict = OpGT
	}
	last := len(l.items) - 1
	out, err := b.lowerRowCompare(op, l.items[last], r.items[last], pos)
	if err != nil {
		return nil, err
	}
	for i := last - 1; i >= 0; i-- {
		first, err := b.lowerRowCompare(strict, l.items[i], r.items[i], pos)
		if err != nil {
			return nil, err
		}
		eq, err := b.lowerRowCompare(OpEQ, l.items[i], r.items[i], pos)
		if err != nil {
			return nil, err
		}
		out = orElse(first, and(eq, out))
	}
	return out, nil
}

// rowNullSafeEqual lowers l <=> r: every pair <=>, never NULL.
func (b *binder) rowNullSafeEqual(l, r rowValue, pos int) (Expr, error) {
	if err := b.sameArity(l, r, pos); err != nil {
		return nil, err
	}
	return b.lowerNullSafeEqual(l, r, pos)
}

func (b *binder) lowerNullSafeEqual(l, r rowValue, pos int) (Expr, error) {
	if l.items == nil {
		return b.nullSafeEqual(l.e, r.e, pos)
	}
	var out Expr
	for i := range l.items {
		c, err := b.lowerNullSafeEqual(l.items[i], r.items[i], pos)
		if err != nil {
			return nil, err
		}
		out = and(out, c)
	}
	return out, nil
}

// nullSafeEqual builds l <=> r for scalars: NULL-safe equality, never NULL.
func (b *binder) nullSafeEqual(l, r Expr, pos int) (Expr, error) {
	eq, err := b.compare(OpEQ, l, r, pos)
	if err != nil {
		return nil, err
	}
	return &Case{Whens: []When{
		{Cond: &IsNull{E: l}, Result: &IsNull{E: r}},
		{Cond: &IsNull{E: r}, Result: &Const{T: columnar.TBool}},
	}, Else: eq, T: columnar.TBool}, nil
}

// rowInList binds x [NOT] IN (r1, r2, ...) where x or an item is a row.
func (b *binder) rowInList(n *ast.PatternInExpr, sc *scope, pos int) (Expr, error) {
	x, err := b.rowOperand(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	eqs := make([]Expr, len(n.List))
	for i, item := range n.List {
		r, err := b.rowOperand(item, sc)
		if err != nil {
			return nil, err
		}
		if eqs[i], err = b.compareRows(OpEQ, x, r, b.posOr(item, pos)); err != nil {
			return nil, err
		}
	}
	out := balancedOr(eqs)
	if n.Not {
		out = &Not{E: out}
	}
	return out, nil
}

// rowInListShape reports whether x IN (list) involves a row: then it is
// lowered by rowInList instead of becoming an InList.
func rowInListShape(n *ast.PatternInExpr) bool {
	if isRowOperand(n.Expr) {
		return true
	}
	for _, item := range n.List {
		if isRowOperand(item) {
			return true
		}
	}
	return false
}

// balancedOr joins es with OR as a balanced tree, so a list of thousands
// of rows nests only a few levels deep.
func balancedOr(es []Expr) Expr {
	if len(es) == 1 {
		return es[0]
	}
	mid := len(es) / 2
	return orElse(balancedOr(es[:mid]), balancedOr(es[mid:]))
}

// orElse is l OR r (three-valued); a nil l is no disjunct yet.
func orElse(l, r Expr) Expr {
	if l == nil {
		return r
	}
	return &Binary{Op: OpOr, L: l, R: r, T: columnar.TBool}
}

// rowSubquery binds subquery n as a row: one scalar subquery per column,
// each reading its column of the subquery's single row.
func (b *binder) rowSubquery(n *ast.SubqueryExpr, sc *scope, pos int) ([]Expr, error) {
	width, err := b.subqueryWidth(n, sc)
	if err != nil {
		return nil, err
	}
	cols := make([]Expr, width)
	for i := range cols {
		if cols[i], err = b.subqueryColumn(n, i, sc, pos); err != nil {
			return nil, err
		}
	}
	return cols, nil
}

// subqueryWidth is the number of columns subquery n returns.
func (b *binder) subqueryWidth(n *ast.SubqueryExpr, sc *scope) (int, error) {
	blk, err := b.query(n.Query, sc)
	if errors.Is(err, errNeedNested) {
		blk, _, err = b.nestedBlock(n.Query, sc)
	}
	if err != nil {
		return 0, err
	}
	return len(blk.names), nil
}

// subqueryColumn binds column i of subquery n as a scalar: a
// ScalarSubquery where it is uncorrelated, a NestedSubquery otherwise. The
// subquery is bound again for each column, so each column's plan is its
// own (plans are trees, not shared).
func (b *binder) subqueryColumn(n *ast.SubqueryExpr, i int, sc *scope, pos int) (Expr, error) {
	blk, err := b.query(n.Query, sc)
	if err != nil && !errors.Is(err, errNeedNested) {
		return nil, err
	}
	if err == nil && !blk.corrUsed {
		s := blk.plan.Schema()
		return &ScalarSubquery{Plan: newProject(blk.plan, []Expr{&ColRef{Index: i, Col: s[i]}}, []string{blk.names[i]}), T: s[i].Type}, nil
	}
	blk, c, err := b.nestedBlock(n.Query, sc)
	if err != nil {
		return nil, err
	}
	s := blk.plan.Schema()
	return &NestedSubquery{Plan: newProject(blk.plan, []Expr{&ColRef{Index: i, Col: s[i]}}, []string{blk.names[i]}),
		Params: c.ids, Args: c.args, Mode: SubqueryScalar, T: s[i].Type}, nil
}
