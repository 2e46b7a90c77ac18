package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// block is a bound query: a SELECT block or a set operation.
type block struct {
	plan  Plan
	names []string
	// origins[i] is how MySQL's errors print column i: the column of its
	// FROM it passes through, or the expression it computes, over base
	// columns. A derived table or view over it that MySQL merges into the
	// outer query prints that in place of its column (overflow_text.go).
	origins []string

	// The rest describes a subquery block to its decorrelator.
	corrUsed bool // it references the enclosing query
	// forceNested: a subquery inside it reads the enclosing query's own
	// parent, so it cannot be decorrelated (see correlation).
	forceNested bool
	setOp       bool
	// input is the plan the select list is computed over and exprs the
	// select-list expressions over it (non-aggregated SELECT blocks).
	input Plan
	exprs []Expr
	// corr holds the WHERE conjuncts that reference the enclosing query,
	// over input's schema, with outerRef leaves; they are not in plan.
	corr       []Expr
	aggregated bool
	// printed: its columns are stored or sent at the scale MySQL prints
	// them with (storesRows).
	printed bool
	// limited is set when LIMIT/OFFSET may drop rows a semi-join needs.
	limited bool
	// outerKeys is set on aggregated correlated blocks: the WHERE equalities
	// inner = outer became GROUP BY inner, and plan's output is the select
	// columns followed by one column per inner key; outerKeys are the outer
	// sides (with outerRef leaves) in the same order.
	outerKeys []Expr
	// emptyValue is the first select column's value over no rows (COUNT is
	// 0, not NULL) when it is not simply NULL; nil otherwise.
	emptyValue Expr
}

// query binds a SELECT, a set operation or a parenthesized query. parent is
// the enclosing query's scope for subqueries (nil at top level and for
// derived tables).
func (b *binder) query(n ast.Node, parent *scope) (*block, error) {
	if err := b.enter(); err != nil {
		return nil, err
	}
	defer b.leave()
	b.queries++
	defer func() { b.queries-- }()
	switch n := n.(type) {
	case *ast.SelectStmt:
		return b.selectStmt(n, parent)
	case *ast.SetOprStmt:
		return b.setOprStmt(n, parent)
	case *ast.SetOprSelectList:
		return b.setOprList(n, parent)
	case *ast.SubqueryExpr:
		return b.query(n.Query, parent)
	}
	return nil, b.errf(-1, "unsupported: %s as a query", constructName(n))
}

// selItem is one select-list column after '*' expansion.
type selItem struct {
	node  ast.ExprNode
	name  string
	alias bool // name came from AS
}

func (b *binder) selectStmt(s *ast.SelectStmt, parent *scope) (*block, error) {
	if s.Kind == ast.SelectStmtKindValues && s.SelectIntoOpt == nil && (s.LockInfo == nil || s.LockInfo.LockType == ast.SelectLockNone) {
		q, err := b.valuesQuery(s)
		if err != nil {
			return nil, err
		}
		return b.setOprStmt(q, parent)
	}
	var corr *correlation
	if parent != nil {
		corr = &correlation{}
		if c := b.capture; c != nil && c.parent == parent {
			corr.capture = c
		}
	}
	blk, err := b.selectBlock(s, parent, corr)
	if err != nil {
		return nil, err
	}
	// Read last: ORDER BY and HAVING may reference the outer query too.
	blk.corrUsed = corr != nil && corr.used
	blk.forceNested = corr != nil && corr.forceNested
	return blk, nil
}

func (b *binder) selectBlock(s *ast.SelectStmt, parent *scope, corr *correlation) (*block, error) {
	round := b.storesRows(parent) // read before FROM binds blocks of its own
	switch {
	case s.SelectIntoOpt != nil:
		return nil, b.errf(-1, "unsupported: SELECT ... INTO")
	case s.LockInfo != nil && s.LockInfo.LockType != ast.SelectLockNone:
		b.reads.Locking = true // FOR UPDATE / FOR SHARE (QueryReads)
	}
	pop, err := b.pushCTEs(s.With)
	if err != nil {
		return nil, err
	}
	defer pop()
	defer b.inClause("")() // a subquery's select list is its own 'field list'

	// FROM: without one, a single row of no columns.
	sc := &scope{plan: &Values{Rows: [][]Expr{{}}}}
	if s.From != nil && s.From.TableRefs != nil {
		p, cols, err := b.from(s.From.TableRefs)
		if err != nil {
			return nil, err
		}
		sc = &scope{plan: p, cols: cols}
	}
	sc.parent, sc.corr = parent, corr
	blk := &block{printed: round}
	if s.Where != nil {
		restore := b.inClause("where clause")
		blk.corr, err = b.filter(s.Where, sc, parent != nil)
		restore()
		if err != nil {
			return nil, err
		}
	}
	items, err := b.selectItems(s.Fields, sc)
	if err != nil {
		return nil, err
	}
	var orderBy []*ast.ByItem
	if s.OrderBy != nil {
		orderBy = s.OrderBy.Items
	}
	windowed := anyWindow(items, orderBy)
	if windowed || len(s.WindowSpecs) > 0 {
		if err := b.resolveWindowNames(s, selectNodes(items, orderBy)); err != nil {
			return nil, err
		}
	}
	blk.aggregated = s.GroupBy != nil || anyAgg(items, s.Having, orderBy)
	if s.Having != nil {
		if err := b.checkHavingNames(s.Having.Expr, items, s.GroupBy, sc); err != nil {
			return nil, err // having_names.go
		}
	}
	out := sc
	if blk.aggregated {
		if out, err = b.aggregate(s, items, orderBy, sc, blk); err != nil {
			return nil, err
		}
	} else if s.Having != nil {
		// HAVING without aggregation filters like WHERE but may name
		// select-list aliases (MySQL).
		sc.aliases = aliasMap(items)
		restore := b.inClause("having clause")
		_, err := b.filter(s.Having.Expr, sc, false)
		restore()
		sc.aliases = nil
		if err != nil {
			return nil, err
		}
	}
	if windowed {
		if blk.outerKeys != nil || len(blk.corr) > 0 {
			return nil, errNeedNested
		}
		if out, err = b.window(items, orderBy, out); err != nil {
			return nil, err
		}
	}

	exprs := make([]Expr, len(items))
	names := make([]string, len(items))
	blk.origins = make([]string, len(items))
	for i, it := range items {
		b.exprIndex = i + 1
		if exprs[i], err = b.expr(it.node, out); err != nil {
			return nil, err
		}
		names[i] = it.name
		blk.origins[i] = overflowText(it.node, out)
	}
	blk.names = names
	// ORDER BY matches select-list expressions as written: before a
	// quotient's column is rounded to the digits MySQL prints.
	written := append([]Expr(nil), exprs...)
	shown := make([]int8, len(exprs))
	for i := range exprs {
		exprs[i], shown[i] = b.shownDigits(exprs[i], out, round)
		exprs[i] = clipNamed(exprs[i], items[i].name)
	}

	if blk.outerKeys != nil {
		// Aggregated correlated subquery: one row per correlation key; the
		// decorrelator joins on the key columns appended here. ORDER BY is
		// meaningless on a single-row result.
		if s.Limit != nil {
			return nil, errNeedNested
		}
		agg := out.agg
		proj := append([]Expr(nil), exprs...)
		for i := agg.nGroups - len(blk.outerKeys); i < agg.nGroups; i++ {
			proj = append(proj, out.colRef(i))
		}
		allNames := append(append([]string(nil), names...), make([]string, len(blk.outerKeys))...)
		for i := range blk.outerKeys {
			allNames[len(names)+i] = "corr_key" + strconv.Itoa(i)
		}
		cp := newProject(out.plan, proj, allNames)
		for i, sh := range shown {
			cp.Out[i].Shown = sh
		}
		blk.plan = cp
		blk.emptyValue = emptyAggValue(exprs[0], agg)
		return blk, nil
	}

	// ORDER BY: select-list positions and names first, then expressions
	// over the select's input; keys that are not select columns are
	// computed as hidden columns and projected away after the Limit.
	var keys []SortKey
	var hidden []Expr
	out.aliases = aliasMap(items) // ORDER BY revenue * 2 may name aliases
	out.aliasExprs = boundAliases(items, written)
	defer func() { out.aliases, out.aliasExprs = nil, nil }()
	defer b.inClause("order clause")()
	for i, by := range orderBy {
		b.exprIndex = i + 1
		idx, e, skip, err := b.orderItem(by.Expr, items, written, out)
		if err != nil {
			return nil, err
		}
		if skip {
			continue
		}
		if idx < 0 {
			if s.Distinct {
				if err := b.distinctOrderCheck(e, written, out, i+1, b.posOr(by.Expr, -1)); err != nil {
					return nil, err
				}
			}
			idx = len(exprs) + len(hidden)
			// MySQL sorts a quotient by the digits it prints (its
			// sort key is rounded to them: division_digits.go).
			e, _ = b.shownDigits(e, out, true)
			hidden = append(hidden, e)
		}
		if idx < len(exprs) && needsOrderKey(exprs[idx]) {
			// A JSON column sorts by its key, a hidden column next to it
			// (a function of the column, so DISTINCT is unchanged by it).
			key := orderKey(exprs[idx])
			idx = len(exprs) + len(hidden)
			hidden = append(hidden, key)
		} else if idx >= len(exprs) && needsOrderKey(hidden[idx-len(exprs)]) {
			hidden[idx-len(exprs)] = orderKey(hidden[idx-len(exprs)])
		}
		keys = append(keys, SortKey{Expr: &ColRef{Index: idx}, Desc: by.Desc})
	}
	blk.input, blk.exprs = out.plan, exprs
	projNames := append([]string(nil), names...)
	for i := range hidden {
		projNames = append(projNames, "order_key"+strconv.Itoa(i))
	}
	proj := newProject(out.plan, append(append([]Expr(nil), exprs...), hidden...), projNames)
	for i, sh := range shown {
		proj.Out[i].Shown = sh
	}
	var plan Plan = proj
	if s.Distinct {
		plan = distinct(plan)
	}
	if len(keys) > 0 {
		sch := plan.Schema()
		for i := range keys {
			r := keys[i].Expr.(*ColRef)
			r.Col = sch[r.Index]
		}
		plan = &Sort{Input: plan, Keys: keys}
	}
	if s.Limit != nil {
		off, cnt, err := b.limit(s.Limit)
		if err != nil {
			return nil, err
		}
		plan = &Limit{Input: plan, Offset: off, Count: cnt}
		blk.limited = off > 0 || cnt == 0
	}
	if len(hidden) > 0 {
		sch := plan.Schema()
		refs := make([]Expr, len(exprs))
		for i := range refs {
			refs[i] = &ColRef{Index: i, Col: sch[i]}
		}
		plan = newProject(plan, refs, names)
	}
	blk.plan = plan
	return blk, nil
}

// newProject builds a Project naming its outputs; a column passed through
// unchanged keeps its qualifier, nullability and dictionary.
func newProject(input Plan, exprs []Expr, names []string) *Project {
	out := make(Schema, len(exprs))
	for i, e := range exprs {
		out[i] = projectColumn(e, names[i])
	}
	return &Project{Input: input, Exprs: exprs, Out: out}
}

func projectColumn(e Expr, name string) Column {
	if r, ok := e.(*ColRef); ok {
		c := r.Col
		c.Name = name
		return c
	}
	c, _ := collationOf(e)
	return Column{Name: name, Type: e.Type(), Nullable: nullable(e), Collation: c}
}

// selectItems expands '*' and 't.*' and names every select-list column:
// its alias, a plain column's name, or the expression's text as written
// (what MySQL prints as the column heading).
func (b *binder) selectItems(fl *ast.FieldList, sc *scope) ([]selItem, error) {
	var items []selItem
	if fl == nil {
		return nil, b.errf(-1, "empty select list")
	}
	for _, f := range fl.Fields {
		if f.WildCard != nil {
			tbl := f.WildCard.Table.O
			if tbl != "" && !sc.hasTable(tbl) {
				return nil, b.errCode(b.wordPos(tbl, f.Offset), ErBadTable, "Unknown table '%s'", tbl)
			}
			n := 0
			for _, c := range sc.cols {
				if (tbl == "" || c.name == jsonTableDocColumn) && c.hidden || (tbl != "" && !strings.EqualFold(c.table, tbl)) {
					continue
				}
				node := &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(c.table), Name: ast.NewCIStr(c.name)}}
				items = append(items, selItem{node: node, name: c.name})
				n++
			}
			if n == 0 {
				return nil, b.errf(f.Offset, "SELECT * with no tables")
			}
			continue
		}
		it := selItem{node: f.Expr, name: f.AsName.O, alias: f.AsName.O != "" || emptyAlias(f.Text())}
		if !it.alias {
			if cn, ok := unparen(f.Expr).(*ast.ColumnNameExpr); ok {
				it.name = cn.Name.Name.O
			} else if name, ok := nameConstName(f.Expr); ok {
				it.name = name
			} else if name, ok := stringLiteralName(f.Expr); ok {
				it.name = name
			} else {
				it.name = strings.TrimSpace(b.unmarkedText(f.Text()))
			}
			if it.name == "" {
				it.name = "expr"
			}
		}
		items = append(items, it)
	}
	return items, nil
}

// emptyAlias reports a select item written with an empty alias (1 AS a
// pair of backquotes), which the TiDB parser drops: MySQL names the column
// with the empty name (CREATE TABLE ...
// AS SELECT then refuses it with 1166).
func emptyAlias(text string) bool {
	t := strings.TrimRightFunc(text, isSpace)
	for _, q := range []string{"``", "''", `""`} {
		if !strings.HasSuffix(t, q) {
			continue
		}
		rest := strings.TrimRightFunc(strings.TrimSuffix(t, q), isSpace)
		spaced := len(rest) < len(t)-len(q)
		// Without AS only `` is an alias: 'a' '' is one string literal.
		if len(rest) > 3 && strings.EqualFold(rest[len(rest)-3:], " AS") || q == "``" && spaced && rest != "" {
			return true
		}
	}
	return false
}

// stringLiteralName is the column name MySQL gives a select item that is
// a string literal: its value, without quotes or charset introducer
// (SELECT 'abc' is column abc, as a derived table's column too).
func stringLiteralName(e ast.ExprNode) (string, bool) {
	v, ok := e.(*driver.ValueExpr)
	if !ok || v.Datum.Kind() != driver.KindString || v.GetString() == "" {
		return "", false
	}
	return v.GetString(), true
}

func unparen(n ast.ExprNode) ast.ExprNode {
	for {
		p, ok := n.(*ast.ParenthesesExpr)
		if !ok {
			return n
		}
		n = p.Expr
	}
}

func aliasMap(items []selItem) map[string]ast.ExprNode {
	m := map[string]ast.ExprNode{}
	for _, it := range items {
		if it.alias {
			if _, dup := m[strings.ToLower(it.name)]; !dup {
				m[strings.ToLower(it.name)] = it.node
			}
		}
	}
	return m
}

// boundAliases maps each select-list alias (the first item of a name) to
// its item's bound expression.
func boundAliases(items []selItem, exprs []Expr) map[string]Expr {
	m := map[string]Expr{}
	for i, it := range items {
		if _, dup := m[strings.ToLower(it.name)]; it.alias && !dup {
			m[strings.ToLower(it.name)] = exprs[i]
		}
	}
	return m
}

// orderItem resolves one ORDER BY item: idx >= 0 is a select-list column;
// otherwise e is an expression over the select's input. skip is set for a
// constant (ORDER BY NULL), which orders nothing.
func (b *binder) orderItem(n ast.ExprNode, items []selItem, exprs []Expr, out *scope) (idx int, e Expr, skip bool, err error) {
	switch x := unparen(n).(type) {
	case *ast.PositionExpr:
		if x.P != nil || x.N < 1 || x.N > len(items) {
			return 0, nil, false, b.errCode(b.ordinalPos(x.N, "order"), ErBadField, "Unknown column '%d' in 'order clause'", x.N)
		}
		return x.N - 1, nil, false, nil
	case *driver.ValueExpr:
		return 0, nil, true, nil
	case *ast.ColumnNameExpr:
		if x.Name.Table.O == "" {
			found := -1
			for i, it := range items {
				if !strings.EqualFold(it.name, x.Name.Name.O) {
					continue
				}
				if found >= 0 && exprKey(exprs[found]) != exprKey(exprs[i]) {
					return 0, nil, false, b.errCode(b.posOr(n, -1), ErNonUniqError, "Column '%s' in order clause is ambiguous", x.Name.Name.O)
				}
				if found < 0 {
					found = i
				}
			}
			if found >= 0 {
				return found, nil, false, nil
			}
		}
	}
	if e, err = b.expr(n, out); err != nil {
		return 0, nil, false, err
	}
	if c, ok := e.(*Const); ok && !c.Null || isNullConst(e) {
		return 0, nil, true, nil
	}
	k := exprKey(e)
	for i, x := range exprs {
		if exprKey(x) == k {
			return i, nil, false, nil
		}
	}
	return -1, e, false, nil
}

// ordinalPos finds a GROUP BY / ORDER BY position number in the text (the
// parser records no offset for it).
func (b *binder) ordinalPos(n int, clause string) int {
	return b.wordPos(strconv.Itoa(n), b.findWord(clause, b.start))
}

// limit reads LIMIT [offset,] count / LIMIT count OFFSET offset.
func (b *binder) limit(l *ast.Limit) (off, cnt int64, err error) {
	val := func(n ast.ExprNode) (int64, error) {
		v, ok := n.(*driver.ValueExpr)
		if ok {
			switch v.Kind() {
			case driver.KindInt64:
				if v.GetInt64() >= 0 {
					return v.GetInt64(), nil
				}
			case driver.KindUint64:
				// LIMIT 95, 18446744073709551615 is MySQL's documented
				// "to the end": no result has 2^62 rows, so larger
				// counts and offsets mean the same as 2^62.
				return int64(min(v.GetUint64(), 1<<62)), nil
			}
		}
		return 0, b.errf(b.posOr(n, -1), "LIMIT and OFFSET take non-negative integer constants")
	}
	cnt = -1
	if l.Count != nil {
		if cnt, err = val(l.Count); err != nil {
			return 0, 0, err
		}
	}
	if l.Offset != nil {
		if off, err = val(l.Offset); err != nil {
			return 0, 0, err
		}
	}
	return off, cnt, nil
}

// filter binds a WHERE or HAVING condition over sc: IN/EXISTS subquery
// conjuncts become semi/anti joins under the Filter, and the remaining
// conjuncts one Filter on top of sc.plan. With collectCorr, conjuncts that
// reference the enclosing query are returned instead of filtered, for the
// decorrelator.
func (b *binder) filter(cond ast.ExprNode, sc *scope, collectCorr bool) ([]Expr, error) {
	var conds, corr []Expr
	for _, c := range splitAnd(cond) {
		e, handled, err := b.subqueryPredicate(c, sc)
		if err != nil {
			return nil, err
		}
		if handled && e == nil {
			continue
		}
		if !handled {
			if e, err = b.expr(c, sc); err != nil {
				return nil, err
			}
		}
		if e, err = b.truthy(e, b.posOr(c, -1)); err != nil {
			return nil, err
		}
		if collectCorr && hasOuterRef(e) {
			corr = append(corr, e)
			continue
		}
		conds = append(conds, e)
	}
	if len(conds) > 0 {
		var all Expr
		for _, c := range conds {
			all = and(all, c)
		}
		sc.plan = &Filter{Input: sc.plan, Cond: all}
	}
	return corr, nil
}

// splitAnd flattens a AND b AND c.
func splitAnd(n ast.ExprNode) []ast.ExprNode {
	switch x := n.(type) {
	case *ast.ParenthesesExpr:
		if bin, ok := unparen(x).(*ast.BinaryOperationExpr); ok && bin.Op.String() == "and" {
			return splitAnd(bin)
		}
	case *ast.BinaryOperationExpr:
		if x.Op.String() == "and" {
			return append(splitAnd(x.L), splitAnd(x.R)...)
		}
	}
	return []ast.ExprNode{n}
}

// nullable reports whether e can be NULL (false only when certain).
func nullable(e Expr) bool {
	switch e := e.(type) {
	case *ColRef:
		return e.Col.Nullable
	case *outerRef:
		return e.Col.Nullable
	case *Const:
		return e.Null
	case *Binary:
		if e.Op == OpDiv || e.Op == OpIntDiv || e.Op == OpMod {
			return true
		}
		return nullable(e.L) || nullable(e.R)
	case *Not:
		return nullable(e.E)
	case *Neg:
		return nullable(e.E)
	case *IsNull:
		return false
	case *InList:
		if nullable(e.E) {
			return true
		}
		for _, x := range e.List {
			if nullable(x) {
				return true
			}
		}
		return false
	case *Like:
		return nullable(e.E)
	case *CodeSet:
		return e.E.Col.Nullable
	case *Case:
		for _, w := range e.Whens {
			if nullable(w.Result) {
				return true
			}
		}
		return nullable(e.Else)
	case *Cast:
		if (isTemporal(e.T) || e.T.ID == columnar.Time) && e.E.Type().ID != columnar.Date && e.E.Type().ID != columnar.Datetime {
			return true // invalid dates become NULL
		}
		return nullable(e.E)
	case *Func:
		return funcNullable(e)
	}
	return true
}

// Nullable reports whether e can be NULL (false only when certain), for the
// planner's rewrites that are safe only over non-NULL values.
func Nullable(e Expr) bool { return nullable(e) }
