package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// GROUP BY g1, ..., gk WITH ROLLUP adds super-aggregate rows: the groups
// of g1..gk-1 (gk NULL), then of g1..gk-2, ..., then the grand total. The
// binder builds the Aggregate as usual and replaces it by the UNION ALL of
// k+1 Aggregates over the same input, level j grouping by the first k-j
// keys and giving NULL for the others. The union has the Aggregate's
// schema plus one GROUPING flag per key (1 where the key is rolled up), so
// the select list, HAVING and ORDER BY bind over it unchanged, and a key
// referenced anywhere outside an aggregate is NULL in the rows that roll
// it up, as in MySQL. GROUPING(gi) reads flag i. Without ORDER BY the rows
// come as MySQL gives them: sorted by the keys, each group's subtotal
// after its rows and the grand total last.
func (b *binder) rollup(agg *Aggregate, a *aggScope, sorted bool) Plan {
	k := len(agg.GroupBy)
	var plan Plan
	for j := 0; j <= k; j++ {
		level := &Aggregate{Input: agg.Input, GroupBy: agg.GroupBy[:k-j], Aggs: agg.Aggs}
		lsch := make(Schema, 0, k-j+len(agg.Aggs))
		lsch = append(lsch, agg.Out[:k-j]...)
		lsch = append(lsch, agg.Out[k:]...)
		level.Out = lsch
		var in Plan = level
		if j == k {
			// The grand total exists only over some rows: MySQL gives no
			// rows at all for an empty input.
			level.Aggs = append(append([]AggExpr(nil), agg.Aggs...), AggExpr{Func: AggCountStar, T: columnar.TInt64})
			cnt := Column{Name: "count(*)", Type: columnar.TInt64}
			level.Out = append(append(Schema(nil), lsch...), cnt)
			in = &Filter{Input: level, Cond: &Binary{Op: OpGT, L: &ColRef{Index: len(lsch), Col: cnt},
				R: &Const{T: columnar.TInt64}, T: columnar.TBool}}
		}
		exprs := make([]Expr, 0, len(agg.Out)+k)
		for i := 0; i < k; i++ {
			if i < k-j {
				exprs = append(exprs, &ColRef{Index: i, Col: lsch[i]})
			} else {
				exprs = append(exprs, nullConst(agg.Out[i].Type))
			}
		}
		for i := range agg.Aggs {
			exprs = append(exprs, &ColRef{Index: k - j + i, Col: lsch[k-j+i]})
		}
		for i := 0; i < k; i++ {
			exprs = append(exprs, &Const{T: columnar.TInt64, I: int64(b2i(i >= k-j))})
		}
		p := Plan(newProject(in, exprs, rollupNames(agg.Out, k)))
		if plan == nil {
			plan = p
			continue
		}
		plan = &SetOp{Kind: SetUnion, All: true, Left: plan, Right: p, Out: rollupSchema(agg.Out, k)}
	}
	// The levels' projections name their columns alike; the union's
	// schema is the Aggregate's with every key nullable, plus the flags.
	a.rollupFlags = len(agg.Out)
	if sorted {
		return plan
	}
	var keys []SortKey
	sch := plan.Schema()
	for i := 0; i < k; i++ {
		keys = append(keys, SortKey{Expr: &ColRef{Index: len(agg.Out) + i, Col: sch[len(agg.Out)+i]}},
			SortKey{Expr: &ColRef{Index: i, Col: sch[i]}})
	}
	return &Sort{Input: plan, Keys: keys}
}

func rollupNames(out Schema, k int) []string {
	names := make([]string, 0, len(out)+k)
	for _, c := range out {
		names = append(names, c.Name)
	}
	for i := 0; i < k; i++ {
		names = append(names, "GROUPING("+out[i].Name+")")
	}
	return names
}

func rollupSchema(out Schema, k int) Schema {
	s := make(Schema, 0, len(out)+k)
	for i, c := range out {
		c.Table = ""
		if i < k {
			c.Nullable = true
			c.Dict = nil
		}
		s = append(s, c)
	}
	for i := 0; i < k; i++ {
		s = append(s, Column{Name: "GROUPING(" + out[i].Name + ")", Type: columnar.TInt64})
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// grouping binds GROUPING(g1, ...) in a rolled-up query: each argument
// must be a GROUP BY expression; the value is the flags as bits, the
// first argument the highest (MySQL).
func (b *binder) grouping(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	a := sc.agg
	if a == nil || a.rollupFlags == 0 {
		err := b.errCode(pos, ErInvalidGroupFuncUse, "Invalid use of group function")
		err.Detail = "GROUPING() is only allowed with GROUP BY ... WITH ROLLUP"
		return nil, err
	}
	if len(n.Args) == 0 {
		return nil, b.errf(pos, "wrong number of arguments to grouping()")
	}
	var out Expr
	for argNo, arg := range n.Args {
		if isIntLiteral(arg) {
			// MySQL refuses a number outright (olap.result: GROUPING(1)
			// is 1210 even WITH GROUP BY 1): it reads like a position,
			// which GROUPING does not take.
			return nil, b.errCode(pos, ErWrongArguments, "Incorrect arguments to GROUPING function")
		}
		node := groupingAlias(arg, sc, a.pre)
		e, err := b.expr(node, a.pre)
		if err != nil {
			return nil, err
		}
		idx := -1
		k := exprKey(e)
		for i, gk := range a.groupKeys {
			if gk == k && idx < 0 {
				idx = i
			}
		}
		if i, ok := a.itemGroups[node]; ok {
			idx = i // a repeated key named by its alias: its own level
		}
		if idx < 0 {
			err := b.errCode(pos, ErFieldInGroupingNotGroupBy, "Argument #%d of GROUPING function is not in GROUP BY", argNo+1)
			err.Detail = fmt.Sprintf("the argument of GROUPING() must be a GROUP BY expression: %s", e)
			return nil, err
		}
		flag := Expr(sc.colRef(a.rollupFlags + idx))
		if out == nil {
			out = flag
		} else {
			out = &Binary{Op: OpAdd, L: &Binary{Op: OpMul, L: out, R: &Const{T: columnar.TInt64, I: 2}, T: columnar.TInt64}, R: flag, T: columnar.TInt64}
		}
	}
	return out, nil
}

// groupingAlias is the select-list item a GROUPING argument names by its
// alias where the FROM has no such column, as in the MySQL manual's
// SELECT a AS f1, 'w' AS f2 FROM t GROUP BY f1, f2 WITH ROLLUP HAVING
// GROUPING(f2) = 1 (HAVING and ORDER BY see the aliases).
func groupingAlias(arg ast.ExprNode, sc, pre *scope) ast.ExprNode {
	c, ok := arg.(*ast.ColumnNameExpr)
	if !ok || c.Name.Table.O != "" || sc.aliases == nil {
		return arg
	}
	if i, _ := pre.lookup("", c.Name.Name.O); i >= 0 {
		return arg
	}
	if item, ok := sc.aliases[strings.ToLower(c.Name.Name.O)]; ok {
		return item
	}
	return arg
}

// isIntLiteral reports whether n is an integer literal, maybe in
// parentheses.
func isIntLiteral(n ast.ExprNode) bool {
	v, ok := unparen(n).(*driver.ValueExpr)
	if !ok {
		return false
	}
	switch v.Datum.Kind() {
	case driver.KindInt64, driver.KindUint64:
		return true
	}
	return false
}
