package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// RecursiveCTE is a WITH RECURSIVE definition that refers to itself:
// anchor UNION [ALL] step, where step reads the rows the previous round
// produced from Work. The engine runs it to a fixpoint before the query
// that reads it (MySQL's algorithm): Result = anchor rows; then while the
// last round produced rows, Work = those rows and the step runs again,
// its new rows (under UNION DISTINCT, the ones not already in Result)
// added to Result. @@cte_max_recursion_depth (1000 unless SET) bounds
// the rounds. Work and Result are tables the binder's scans read; the engine
// fills them. Column types are the anchor's; the step's values are cast
// to them.
type RecursiveCTE struct {
	Name         string
	Anchor, Step *Query
	Work, Result *columnar.Table
	Distinct     bool
	// MaxDepth is @@cte_max_recursion_depth when bound.
	MaxDepth int64
	// Offset and Count are a LIMIT over the definition's UNION (Count < 0:
	// none): MySQL 8.0.19+ stops the recursion once Offset + Count rows
	// are generated and keeps the last Count of them, so
	// WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 4)
	// is 1, 2, 3, 4 with no recursion depth error.
	Offset, Count int64
}

// refersTo reports whether n names table name (unqualified) anywhere.
func refersTo(n ast.Node, name string) bool {
	found := false
	walkAST(n, func(x ast.Node) bool {
		if t, ok := x.(*ast.TableName); ok && t.Schema.O == "" && strings.EqualFold(t.Name.O, name) {
			found = true
		}
		return !found
	})
	return found
}

// bindRecursive binds a self-referencing WITH RECURSIVE definition once.
func (b *binder) bindRecursive(def *cteDef) error {
	if def.rec != nil {
		return nil
	}
	pos := b.wordPos(def.name, -1)
	so, ok := def.query.(*ast.SetOprStmt)
	if !ok || so.SelectList == nil {
		return b.errf(pos, "recursive WITH %s must be an anchor query UNION [ALL] a query that reads %s", def.name, def.name)
	}
	if so.OrderBy != nil {
		// MySQL's ER_NOT_SUPPORTED_YET (1235).
		return b.errCode(pos, ErNotSupportedYet, "This version of MySQL doesn't yet support 'ORDER BY over UNION in recursive Common Table Expression'")
	}
	offset, count := int64(0), int64(-1)
	if so.Limit != nil {
		var err error
		if offset, count, err = b.limit(so.Limit); err != nil {
			return err
		}
	}
	sel := so.SelectList.Selects
	k := 0
	for k < len(sel) && !refersTo(sel[k], def.name) {
		k++
	}
	switch {
	case k == 0:
		return b.errf(pos, "recursive WITH %s: its first query must not read %s (it is the anchor)", def.name, def.name)
	case k != len(sel)-1:
		return b.errf(pos, "unsupported: recursive WITH %s with several recursive queries (write one, combining them with OR)", def.name)
	}
	distinct := false
	for _, s := range sel[1:] {
		if op := setOprOf(s); op != nil && *op == ast.Union {
			distinct = true
		} else if op != nil && *op != ast.UnionAll {
			return b.errf(pos, "recursive WITH %s must combine its queries with UNION or UNION ALL", def.name)
		}
	}
	saved := b.ctes
	defer func() { b.ctes = saved }()
	b.ctes = def.visible
	var anchor ast.Node = sel[0]
	if k > 1 {
		anchor = &ast.SetOprStmt{SelectList: &ast.SetOprSelectList{Selects: sel[:k]}}
	}
	b.storeRows = true // always materialized (materialized_derived.go)
	ab, err := b.query(anchor, nil)
	if err != nil {
		return err
	}
	names := ab.names
	if len(def.cols) > 0 {
		if len(def.cols) != len(names) {
			return b.errf(pos, "WITH %s names %d columns but its query returns %d", def.name, len(def.cols), len(names))
		}
		names = def.cols
	}
	if err := b.uniqueDerivedNames(def.name, names); err != nil {
		return err
	}
	fields := make([]columnar.Field, len(names))
	for i, c := range ab.plan.Schema() {
		fields[i] = columnar.Field{Name: names[i], Type: c.Type, Nullable: true, Collation: c.Collation}
		if t := &fields[i].Type; t.ID == columnar.String && t.Width == 0 && !t.JSON && i < len(ab.exprs) {
			t.Width = anchorWidth(ab.exprs[i])
		}
	}
	work := columnar.NewEmptyTable(def.name, fields)
	result := columnar.NewEmptyTable(def.name, fields)
	b.ctes = append(def.visible[:len(def.visible):len(def.visible)], &cteDef{name: def.name, cols: names, table: work})
	b.storeRows = true
	sb, err := b.query(sel[k], nil)
	if err != nil {
		return err
	}
	if len(sb.names) != len(fields) {
		return b.errf(pos, "recursive WITH %s: the recursive query returns %d columns, the anchor %d", def.name, len(sb.names), len(fields))
	}
	def.rec = &RecursiveCTE{Name: def.name, Work: work, Result: result, Distinct: distinct,
		MaxDepth: b.session.Limit("cte_max_recursion_depth"), Offset: offset, Count: count,
		Anchor: &Query{Plan: castPlan(ab.plan, fields), Names: names},
		Step:   &Query{Plan: stepPlan(sb.plan, fields), Names: names}}
	b.recursive = append(b.recursive, def.rec)
	return nil
}

// cteTableScan reads a recursive definition's result (or, inside its
// step, its work table).
func (b *binder) cteTableScan(def *cteDef, alias string) (Plan, []scopeCol, error) {
	b.volatile("WITH RECURSIVE")
	t := def.table
	if t == nil {
		if err := b.bindRecursive(def); err != nil {
			return nil, nil, err
		}
		t = def.rec.Result
	}
	scan := newScan(t, alias)
	names := make([]string, len(scan.Out))
	for i, c := range scan.Out {
		names[i] = c.Name
		// The rows come later: no string predicate may be compiled
		// against today's (empty) dictionary.
		scan.Out[i].Dict = nil
	}
	return scan, qualify(names, alias), nil
}

// castPlan projects p's columns to the fields' types.
func castPlan(p Plan, fields []columnar.Field) Plan {
	sch := p.Schema()
	exprs := make([]Expr, len(fields))
	names := make([]string, len(fields))
	for i, f := range fields {
		exprs[i] = castTo(&ColRef{Index: i, Col: sch[i]}, f.Type)
		names[i] = f.Name
	}
	return newProject(p, exprs, names)
}

// stepPlan projects the recursive step's columns to the fields' types,
// but leaves a string or an integer as it is: storing the rows checks it
// fits the anchor's column (MySQL's 1406 "Data too long for column 'str'
// at row 1" for CONCAT(str, str) over the anchor's 'abc', 1264 for an
// integer past an INT), where a cast would cut or wrap it silently.
func stepPlan(p Plan, fields []columnar.Field) Plan {
	sch := p.Schema()
	exprs := make([]Expr, len(fields))
	names := make([]string, len(fields))
	for i, f := range fields {
		var e Expr = &ColRef{Index: i, Col: sch[i]}
		st := sch[i].Type
		stored := st.ID == columnar.String && f.Type.ID == columnar.String && st.Binary == f.Type.Binary && !st.JSON && !f.Type.JSON ||
			st.IsInteger() && f.Type.IsInteger() && !st.Unsigned && !f.Type.Unsigned && !f.Type.Year
		if !stored {
			e = castTo(e, f.Type)
		}
		exprs[i], names[i] = e, f.Name
	}
	return newProject(p, exprs, names)
}

// setOprOf is the set operator in front of a UNION member.
func setOprOf(n ast.Node) *ast.SetOprType {
	switch s := n.(type) {
	case *ast.SelectStmt:
		return s.AfterSetOperator
	case *ast.SetOprSelectList:
		return s.AfterSetOperator
	}
	return nil
}
