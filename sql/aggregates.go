package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// aggScope resolves names after GROUP BY: a column or expression must equal
// a GROUP BY expression (matched by exprKey over the pre-aggregation input)
// or sit inside an aggregate call.
type aggScope struct {
	pre       *scope
	groupKeys []string
	// groupExprs are the GROUP BY expressions, over the pre-aggregation
	// input (shownScale reads them).
	groupExprs []Expr
	nGroups    int
	// aggs maps each aggregate call of the select list, HAVING and ORDER BY
	// to its index among Aggregate.Aggs (calls with equal keys share one).
	aggs     map[*ast.AggregateFuncExpr]int
	aggFuncs []AggExpr
	// anyValue maps a column that is neither grouped nor aggregated (by
	// exprKey) to the aggregate standing for it when ONLY_FULL_GROUP_BY is
	// off; see bareColumns.
	anyValue map[string]int
	// rollupFlags is the index of the first GROUPING flag column in a
	// query WITH ROLLUP (rollup.go), 0 otherwise.
	rollupFlags int
	// collatedValues are the GROUP BY expressions of a case-insensitive
	// collation: the Aggregate groups by their collation keys, and each
	// reads as the aggregate collatedGroups names (by exprKey), the
	// group's smallest value by bytes (MySQL gives the first row's).
	collatedValues []Expr
	collatedGroups map[string]int
	// itemGroups maps a select item that GROUP BY names (by alias or
	// position) WITH ROLLUP and that repeats an earlier key to its own
	// key: MySQL keeps the repeat as a rollup level of its own, and the
	// item shows NULL at that level while the earlier key keeps its
	// value (olap.result: SELECT a, b, a AS c ... GROUP BY a, b, c).
	itemGroups map[ast.ExprNode]int
}

// group maps an expression over the pre-aggregation input to its group
// column, if it is one.
func (a *aggScope) group(e Expr, sc *scope) (Expr, bool) {
	k := exprKey(e)
	for i, gk := range a.groupKeys {
		if gk == k {
			return sc.colRef(i), true
		}
	}
	if i, ok := a.collatedGroups[k]; ok {
		return sc.colRef(a.nGroups + i), true
	}
	return nil, false
}

// aggregate builds the Aggregate of a SELECT block: GROUP BY expressions
// (positions and select aliases allowed), the correlation keys of an
// aggregated correlated subquery, and every aggregate call of the select
// list, HAVING and ORDER BY (hidden ones included). It returns the scope the
// rest of the block binds in, after HAVING.
func (b *binder) aggregate(s *ast.SelectStmt, items []selItem, orderBy []*ast.ByItem, sc *scope, blk *block) (*scope, error) {
	a := &aggScope{pre: sc, aggs: map[*ast.AggregateFuncExpr]int{}}
	var groups []Expr
	// named is e as grouped, where it differs (a DecimalClip named after
	// the select item GROUP BY names): the select list finds it by e.
	var named Expr
	// item is the select item the GROUP BY item being added names, if
	// any; keyNodes are the nodes each key came from.
	var item ast.ExprNode
	var keyNodes []ast.ExprNode
	rollup := s.GroupBy != nil && s.GroupBy.Rollup
	addGroup := func(e Expr) {
		k := exprKey(e)
		if named != nil {
			e, named = named, nil
		}
		node := item
		item = nil
		for i, gk := range a.groupKeys {
			if gk != k {
				continue
			}
			if !rollup || node == nil || keyNodes[i] == node {
				return // the same key again groups nothing new
			}
			if _, seen := a.itemGroups[node]; seen {
				return
			}
			if a.itemGroups == nil {
				a.itemGroups = map[ast.ExprNode]int{}
			}
			a.itemGroups[node] = len(a.groupKeys)
			break
		}
		a.groupKeys = append(a.groupKeys, k)
		keyNodes = append(keyNodes, node)
		// A quotient groups by the digits MySQL prints, which its
		// temporary table keeps (division_digits.go); the select list
		// still names it as written.
		e, _ = b.shownDigits(e, sc, true)
		groups = append(groups, e)
	}
	restore := b.inClause("group statement")
	defer restore()
	if s.GroupBy != nil {
		for _, by := range s.GroupBy.Items {
			node := by.Expr
			pos := b.posOr(node, -1)
			itemName := "" // a select item's name, where GROUP BY names one
			switch x := unparen(node).(type) {
			case *ast.PositionExpr:
				if x.P != nil || x.N < 1 || x.N > len(items) {
					return nil, b.errCode(b.ordinalPos(x.N, "group"), ErBadField, "Unknown column '%d' in 'group statement'", x.N)
				}
				node, itemName = items[x.N-1].node, items[x.N-1].name
				if hasAgg(node) {
					return nil, b.errCode(b.ordinalPos(x.N, "group"), ErWrongGroupField, "Can't group on '%s'", items[x.N-1].name)
				}
			case *ast.ColumnNameExpr:
				// GROUP BY searches the FROM columns before select aliases.
				if x.Name.Table.O == "" {
					if i, _ := sc.lookup("", x.Name.Name.O); i < 0 {
						if alias, ok := aliasMap(items)[strings.ToLower(x.Name.Name.O)]; ok {
							if hasAgg(alias) {
								return nil, b.errCode(pos, ErWrongGroupField, "Can't group on '%s'", x.Name.Name.O)
							}
							node, itemName = alias, x.Name.Name.O
						}
					}
				}
			}
			if hasAgg(node) {
				return nil, b.errCode(pos, ErInvalidGroupFuncUse, "Invalid use of group function")
			}
			if itemName != "" {
				item = node
			}
			e, err := b.expr(node, sc)
			if n := clipNamed(e, itemName); itemName != "" && n != e {
				named = n // the select item MySQL groups by
			}
			if err != nil {
				return nil, err
			}
			if name, _ := collationOf(e); name != "" {
				item = nil // its key is the collation key, not the item
				addGroup(collationKey(e, name))
				a.collatedValues = append(a.collatedValues, e)
				continue
			}
			addGroup(e)
		}
	}
	if len(blk.corr) > 0 {
		// A correlated aggregated subquery computes one value per outer row:
		// group it by the inner sides of its correlation equalities and let
		// the decorrelator join on them (Aggregate + LEFT JOIN).
		if s.GroupBy != nil {
			return nil, errNeedNested
		}
		for _, c := range blk.corr {
			inner, outer, ok := splitCorrEquality(c)
			if !ok {
				return nil, errNeedNested
			}
			n := len(groups)
			addGroup(inner)
			if len(groups) > n {
				blk.outerKeys = append(blk.outerKeys, outer)
			} else {
				// The same inner key twice (a.x = o.y AND a.x = o.z): keep
				// the second equality as a filter on the outer side.
				return nil, errNeedNested
			}
		}
		blk.corr = nil
	}
	a.nGroups = len(groups)
	a.groupExprs = groups

	// Aggregate calls, in order of appearance.
	var nodes []ast.Node
	for _, it := range items {
		nodes = append(nodes, it.node)
	}
	if s.Having != nil {
		nodes = append(nodes, s.Having.Expr)
	}
	for _, by := range orderBy {
		nodes = append(nodes, by.Expr)
	}
	keys := map[string]int{}
	a.collatedGroups = map[string]int{}
	for _, e := range a.collatedValues {
		ae := AggExpr{Func: AggMin, Arg: e, T: e.Type()}
		k := aggKey(ae)
		if _, ok := keys[k]; !ok {
			keys[k] = len(a.aggFuncs)
			a.aggFuncs = append(a.aggFuncs, ae)
		}
		a.collatedGroups[exprKey(e)] = keys[k]
	}
	b.bareColumns(nodes, sc, a, keys, !b.session.OnlyFullGroupBy())
	for i, n := range nodes {
		b.clause = nodeClause(i, len(items), s.Having != nil)
		var err error
		walkAST(n, func(x ast.Node) bool {
			if err != nil {
				return false
			}
			switch x := x.(type) {
			case *ast.SubqueryExpr:
				return false
			case *ast.AggregateFuncExpr:
				var ae AggExpr
				if ae, err = b.aggCall(x, sc); err != nil {
					return false
				}
				k := aggKey(ae)
				i, ok := keys[k]
				if !ok {
					i = len(a.aggFuncs)
					keys[k] = i
					a.aggFuncs = append(a.aggFuncs, ae)
				}
				a.aggs[x] = i
				return false
			}
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	if blk.printed {
		b.narrowPrintedAverages(a, items, orderBy)
	}

	out := make(Schema, 0, len(groups)+len(a.aggFuncs))
	for _, g := range groups {
		if r, ok := g.(*ColRef); ok {
			out = append(out, r.Col)
		} else {
			c := Column{Name: g.String(), Type: g.Type(), Nullable: nullable(g)}
			_, c.Shown = b.shownDigits(g, sc, false) // a quotient's printed scale
			out = append(out, c)
		}
	}
	for _, ae := range a.aggFuncs {
		n := ae.Func != AggCountStar && ae.Func != AggCount && (len(groups) == 0 || nullable(ae.Arg))
		// MySQL types MIN and MAX nullable whatever their argument
		// (Item_sum_hybrid: "MIN/MAX can return NULL for empty set"), so
		// CREATE TABLE ... SELECT and a view's DESCRIBE make them so.
		n = n || ae.Func == AggMin || ae.Func == AggMax
		c := Column{Name: ae.String(), Type: ae.T, Nullable: n}
		if ae.Func == AggMin || ae.Func == AggMax {
			c.Collation, _ = collationOf(ae.Arg) // a collated group's value sorts by its collation
		}
		c.Shown = b.aggregateShown(ae, sc)
		out = append(out, c)
	}
	agg := &Aggregate{Input: sc.plan, GroupBy: groups, Aggs: a.aggFuncs, Out: out}
	post := &scope{plan: agg, parent: sc.parent, corr: sc.corr, agg: a}
	if s.GroupBy != nil && s.GroupBy.Rollup {
		if len(blk.outerKeys) > 0 {
			return nil, b.errf(-1, "unsupported: WITH ROLLUP in a correlated subquery")
		}
		post.plan = b.rollup(agg, a, len(orderBy) > 0)
	}
	if s.Having != nil {
		b.clause, b.exprIndex = "having clause", 1
		post.aliases = aliasMap(items)
		_, err := b.filter(s.Having.Expr, post, false)
		post.aliases = nil
		if err != nil {
			return nil, err
		}
	}
	return post, nil
}

// bareColumns gives every column the select list, HAVING and ORDER BY name
// outside aggregate calls and GROUP BY expressions an aggregate to take its
// value from: MySQL without ONLY_FULL_GROUP_BY takes such a column from any
// row of the group. gpusql takes the least value (ANY_VALUE made
// deterministic: the same answer on every executor and run). Inside
// subqueries unqualified names count too: SELECT a, (SELECT b) FROM t
// GROUP BY a reads t's b, as MySQL's fix_outer_field does. A name that
// only looks like such a column (an inner column of the same name) gets
// an aggregate nobody reads, which the planner prunes. Under ONLY_FULL_GROUP_BY (all false) only the columns inside
// ANY_VALUE() get one.
func (b *binder) bareColumns(nodes []ast.Node, sc *scope, a *aggScope, keys map[string]int, all bool) {
	a.anyValue = map[string]int{}
	var visit func(n ast.Node, take, inSubquery bool)
	visit = func(n ast.Node, take, inSubquery bool) {
		walkAST(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.AggregateFuncExpr:
				return false
			case *ast.SubqueryExpr:
				visit(x.Query, take, true)
				return false
			case *ast.FuncCallExpr:
				if x.FnName.L == "any_value" && !take {
					for _, arg := range x.Args {
						visit(arg, true, inSubquery)
					}
					return false
				}
			case *ast.ColumnNameExpr:
				if take {
					b.addAnyValue(x.Name, sc, a, keys)
				}
				return false
			}
			if e, ok := x.(ast.ExprNode); ok && take && !inSubquery && b.isGroupExpr(e, a) {
				return false
			}
			return true
		})
	}
	for _, n := range nodes {
		visit(n, all, false)
	}
}

// isGroupExpr reports whether n binds to a GROUP BY expression (its columns
// are then not bare).
func (b *binder) isGroupExpr(n ast.ExprNode, a *aggScope) bool {
	switch n.(type) {
	case *ast.ColumnNameExpr, *driver.ValueExpr, *ast.ParenthesesExpr:
		return false
	}
	if len(a.groupKeys) == 0 || hasAgg(n) || hasSubquery(n) {
		return false
	}
	saved := b.lastPos
	e, err := b.expr(n, a.pre)
	b.lastPos = saved
	if err != nil {
		return false
	}
	_, ok := a.group(e, a.pre)
	return ok
}

// addAnyValue gives column cn of the pre-aggregation scope, unless it is
// grouped, the aggregate a bare reference to it reads.
func (b *binder) addAnyValue(cn *ast.ColumnName, sc *scope, a *aggScope, keys map[string]int) {
	i, amb := sc.lookup(cn.Table.O, cn.Name.O)
	if i < 0 || amb {
		return
	}
	ref := sc.colRef(i)
	k := exprKey(ref)
	if _, grouped := a.group(ref, sc); grouped {
		return
	}
	if _, done := a.anyValue[k]; done {
		return
	}
	ae := AggExpr{Func: AggMin, Arg: ref, T: ref.Type()}
	ak := aggKey(ae)
	idx, ok := keys[ak]
	if !ok {
		idx = len(a.aggFuncs)
		keys[ak] = idx
		a.aggFuncs = append(a.aggFuncs, ae)
	}
	a.anyValue[k] = idx
}

// matchAggregated binds n in a post-aggregation scope when it is an
// aggregate call or equals a GROUP BY expression.
func (b *binder) matchAggregated(n ast.ExprNode, sc *scope) (Expr, bool, error) {
	a := sc.agg
	if i, ok := a.itemGroups[n]; ok && a.rollupFlags > 0 {
		return sc.colRef(i), true, nil
	}
	switch x := n.(type) {
	case *ast.AggregateFuncExpr:
		i, ok := a.aggs[x]
		if !ok {
			return nil, false, b.errCode(b.posOr(n, -1), ErInvalidGroupFuncUse, "Invalid use of group function")
		}
		if f := a.aggFuncs[i]; (f.Func == AggMin || f.Func == AggMax) && alwaysNull(f.Arg) {
			// MIN(NULL) is NULL in every group, and a NULL as MySQL
			// types one: 'hello' NOT BETWEEN MIN(NULL) AND 'ba' compares
			// the strings (true, between_mixed.go), and COALESCE and CASE
			// take their type from the other arguments. The aggregate
			// stays registered, so the query is still aggregated.
			return nullConst(f.T), true, nil
		}
		return collationUntagged(sc.colRef(a.nGroups+i), a.aggFuncs[i]), true, nil
	case *driver.ValueExpr:
		return b.rollupConstant(x, sc)
	case *ast.ColumnNameExpr, *ast.ParenthesesExpr:
		return nil, false, nil
	}
	if len(a.groupKeys) == 0 || hasAgg(n) || hasSubquery(n) {
		return nil, false, nil
	}
	return b.groupKeyOf(n, sc)
}

// groupKeyOf binds n over the pre-aggregation scope and returns the
// GROUP BY key it equals, if any (a failed bind is no match: n binds
// otherwise later).
func (b *binder) groupKeyOf(n ast.ExprNode, sc *scope) (Expr, bool, error) {
	a := sc.agg
	saved := b.lastPos
	e, err := b.expr(n, a.pre)
	b.lastPos = saved
	if err != nil {
		return nil, false, nil
	}
	if g, ok := a.group(e, sc); ok {
		return g, true, nil
	}
	return nil, false, nil
}

// rollupConstant binds a literal equal to a GROUP BY key of a query WITH
// ROLLUP to that key, so it is NULL in the rows that roll the key up:
// MySQL wraps every select-list leaf equal to a group item in
// rollup_group_item, constants included (olap.result: SELECT 'x', a,
// SUM(b) FROM t1 GROUP BY 1, 2 WITH ROLLUP shows NULL for 'x' in the
// grand total). Without ROLLUP the key always equals the literal, so the
// literal binds as itself.
func (b *binder) rollupConstant(n *driver.ValueExpr, sc *scope) (Expr, bool, error) {
	if sc.agg.rollupFlags == 0 {
		return nil, false, nil
	}
	return b.groupKeyOf(n, sc)
}

// aggCall binds an aggregate call over the pre-aggregation scope. Result
// types: see AggExpr (SUM/AVG precision capped at 18 digits).
func (b *binder) aggCall(n *ast.AggregateFuncExpr, sc *scope) (AggExpr, error) {
	pos := b.posOr(n, -1)
	f := strings.ToLower(n.F)
	if ae, ok, err := b.aggCallMore(n, f, sc, pos); ok {
		return ae, err
	}
	if n.Order != nil {
		return AggExpr{}, b.errf(pos, "unsupported: ORDER BY inside %s()", f)
	}
	if len(n.Args) != 1 {
		if f == "count" && n.Distinct && len(n.Args) > 1 {
			return b.countDistinctTuple(n.Args, sc)
		}
		return AggExpr{}, b.errf(pos, "unsupported: aggregate %s() with %d arguments", f, len(n.Args))
	}
	ae := AggExpr{Distinct: n.Distinct}
	switch f {
	case "count":
		ae.Func, ae.T = AggCount, columnar.TInt64
		// COUNT(*) reaches us as COUNT(1): a non-NULL constant counts rows.
		if v, ok := n.Args[0].(*driver.ValueExpr); ok && v.Kind() != driver.KindNull && !n.Distinct {
			ae.Func = AggCountStar
			return ae, nil
		}
	case "sum":
		ae.Func = AggSum
	case "avg":
		ae.Func = AggAvg
	case "min":
		ae.Func = AggMin
	case "max":
		ae.Func = AggMax
	default:
		return AggExpr{}, b.errf(pos, "unsupported: aggregate function %s()", f)
	}
	arg, err := b.expr(n.Args[0], sc)
	if err != nil {
		return AggExpr{}, err
	}
	if n.Distinct {
		// MySQL keeps DISTINCT values at the digits it prints: 1/3 and
		// 3333/10000 are one value (division_digits.go).
		arg, _ = b.shownDigits(arg, sc, true)
	}
	if name, _ := collationOf(arg); name != "" {
		switch {
		case ae.Func == AggCount && ae.Distinct:
			arg = collationKey(arg, name) // values equal in the collation count once
		case ae.Func == AggMin || ae.Func == AggMax:
			// The smallest or largest tagged value (its collation key
			// first); matchAggregated reads the value back out.
			ae.Arg, ae.T = collationTagged(arg, name), columnar.TString
			return ae, nil
		}
	}
	t := arg.Type()
	if t.ID == columnar.Vector && ae.Func != AggCount && ae.Func != AggMin && ae.Func != AggMax {
		return AggExpr{}, b.errf(pos, "type mismatch: %s() of a VECTOR", f)
	}
	switch ae.Func {
	case AggSum, AggAvg:
		nt, ok := numericType(t)
		if !ok {
			return AggExpr{}, b.errf(pos, "type mismatch: %s() of %s", f, t)
		}
		if wt, ok := wideSumType(ae.Func, t, b.exactDecimals); ok {
			ae.Arg, ae.T = arg, wt
			return ae, nil
		}
		if nt.ID != t.ID && t.ID != columnar.Bool {
			arg, t = castTo(arg, nt), nt
		}
		switch {
		case nt.ID == columnar.Float64:
			ae.T = columnar.TFloat64
		case ae.Func == AggSum && nt.ID == columnar.Decimal:
			ae.T = columnar.TDecimal(maxDecimalPrecision, nt.Scale)
		case ae.Func == AggSum:
			ae.T = columnar.TInt64
		default:
			// The digits MySQL divides the sum with (division_digits.go):
			// AVG(INT) keeps 9, printed with 4. 18 digits or more leave
			// the int64 no integer digit, and so do 9 of an average of
			// values of more than 9 integer digits (BIGINT): wide, unless
			// only printed (narrowPrintedAverages).
			d := asDecimal(nt)
			s := DivisionScale(d.Scale, 0)
			if s >= maxDecimalPrecision || bigAverage(nt) {
				intDigits := d.Precision - d.Scale
				if digits, scale, ok := exactDigits(nt); ok {
					intDigits = digits - scale // BIGINT's 19
				}
				ae.T = wideResult(intDigits+s, s)
			} else {
				ae.T = columnar.TDecimal(maxDecimalPrecision, s)
			}
		}
	case AggMin, AggMax:
		ae.T = t
	}
	ae.Arg = arg
	return ae, nil
}

// emptyAggValue is the value of a correlated aggregated subquery's select
// expression when no inner row matches: COUNT is 0 there, every other
// aggregate NULL. It returns nil when that value is NULL anyway, so the
// decorrelated LEFT JOIN's NULL is already right.
func emptyAggValue(e Expr, a *aggScope) Expr {
	isCount := func(i int) bool {
		return i >= a.nGroups && (a.aggFuncs[i-a.nGroups].Func == AggCount || a.aggFuncs[i-a.nGroups].Func == AggCountStar)
	}
	if nullOnEmpty(e, isCount) {
		return nil
	}
	return transform(e, func(x Expr) (Expr, bool) {
		if r, ok := x.(*ColRef); ok {
			if isCount(r.Index) {
				return &Const{T: columnar.TInt64}, true
			}
			return nullConst(r.Col.Type), true
		}
		return nil, false
	})
}

// nullOnEmpty reports whether e is certainly NULL when every non-COUNT
// aggregate is NULL.
func nullOnEmpty(e Expr, isCount func(int) bool) bool {
	switch e := e.(type) {
	case *ColRef:
		return !isCount(e.Index)
	case *Const:
		return e.Null
	case *Binary:
		if e.Op == OpAnd || e.Op == OpOr {
			return false
		}
		return nullOnEmpty(e.L, isCount) || nullOnEmpty(e.R, isCount)
	case *Cast:
		return nullOnEmpty(e.E, isCount)
	case *Neg:
		return nullOnEmpty(e.E, isCount)
	case *Not:
		return nullOnEmpty(e.E, isCount)
	}
	return false
}

// anyAgg reports whether the select list, HAVING or ORDER BY calls an
// aggregate (outside subqueries).
func anyAgg(items []selItem, having *ast.HavingClause, orderBy []*ast.ByItem) bool {
	for _, it := range items {
		if hasAgg(it.node) {
			return true
		}
	}
	if having != nil && hasAgg(having.Expr) {
		return true
	}
	for _, by := range orderBy {
		if hasAgg(by.Expr) {
			return true
		}
	}
	return false
}

func hasAgg(n ast.Node) bool {
	return containsOutsideSubqueries(n, func(x ast.Node) bool {
		_, ok := x.(*ast.AggregateFuncExpr)
		return ok
	})
}

// containsOutsideSubqueries reports whether some node of n that is not
// inside a subquery (which is its own SELECT block) satisfies match.
func containsOutsideSubqueries(n ast.Node, match func(ast.Node) bool) bool {
	found := false
	walkAST(n, func(x ast.Node) bool {
		if _, sub := x.(*ast.SubqueryExpr); sub {
			return false
		}
		found = found || match(x)
		return !found
	})
	return found
}

func hasSubquery(n ast.Node) bool {
	found := false
	walkAST(n, func(x ast.Node) bool {
		if _, ok := x.(*ast.SubqueryExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// walkAST calls f on every node under n in pre-order; f returns false to
// skip a node's children.
func walkAST(n ast.Node, f func(ast.Node) bool) {
	if n == nil {
		return
	}
	n.Accept(&astVisitor{f: f})
}

type astVisitor struct{ f func(ast.Node) bool }

func (v *astVisitor) Enter(n ast.Node) (ast.Node, bool) { return n, !v.f(n) }
func (v *astVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// nodeClause names the clause of the i-th node aggregate binds: the select
// list's items, then HAVING, then ORDER BY's keys.
func nodeClause(i, items int, having bool) string {
	switch {
	case i < items:
		return "field list"
	case i == items && having:
		return "having clause"
	}
	return "order clause"
}
