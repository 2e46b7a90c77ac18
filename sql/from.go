package sql

import (
	"errors"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// from binds a FROM clause. Comma lists and JOIN without a condition are
// Cross joins, left-deep in FROM order; JOIN ... ON/USING is an Inner or
// Left join with the whole condition in Residual and no keys (the planner
// extracts equi-join keys, pushes predicates down and orders joins). RIGHT
// JOIN is a Left join with the inputs swapped under a Project that restores
// the written column order.
func (b *binder) from(n ast.ResultSetNode) (Plan, []scopeCol, error) {
	if err := b.enter(); err != nil {
		return nil, nil, err
	}
	defer b.leave()
	switch n := n.(type) {
	case *ast.Join:
		return b.join(n)
	case *ast.TableSource:
		return b.tableSource(n)
	}
	return nil, nil, b.errf(-1, "unsupported: %s in FROM", constructName(n))
}

func joinSchema(l, r Schema, kind JoinKind) Schema {
	out := make(Schema, 0, len(l)+len(r))
	out = append(out, l...)
	for _, c := range r {
		if kind == JoinLeft {
			c.Nullable = true
		}
		out = append(out, c)
	}
	return out
}

func (b *binder) join(n *ast.Join) (Plan, []scopeCol, error) {
	if n.Right == nil {
		return b.from(n.Left)
	}
	lp, lc, err := b.from(n.Left)
	if err != nil {
		return nil, nil, err
	}
	if p, cols, handled, err := b.lateralJSONTable(n, lp, lc); handled { // json_table_lateral.go
		return p, cols, err
	}
	if ts, ok := isLateral(n.Right); ok {
		p, cols, err := b.lateralJoin(n, ts, lp, lc)
		if !errors.Is(err, errUncorrelatedLateral) {
			return p, cols, err
		}
	}
	rp, rc, err := b.from(n.Right)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, c := range lc {
		seen[strings.ToLower(c.table)] = true
	}
	for _, c := range rc {
		if c.table != "" && seen[strings.ToLower(c.table)] {
			return nil, nil, b.errCode(b.wordPos(c.table, -1), ErNonUniqTable, "Not unique table/alias: '%s'", c.table)
		}
	}
	kind := JoinCross
	switch n.Tp {
	case ast.LeftJoin, ast.RightJoin:
		kind = JoinLeft
	}
	conditional := n.On != nil || len(n.Using) > 0 || n.NaturalJoin
	if kind == JoinCross && conditional {
		kind = JoinInner
	}
	swapped := n.Tp == ast.RightJoin
	if swapped {
		lp, rp, lc, rc = rp, lp, rc, lc
	}
	j := &Join{Kind: kind, Left: lp, Right: rp}
	j.Out = joinSchema(lp.Schema(), rp.Schema(), kind)
	cols := append(append([]scopeCol(nil), lc...), rc...)
	sc := &scope{plan: j, cols: cols}

	// USING / NATURAL: equality on each shared name; the right-hand copy
	// is hidden from unqualified names and '*' (for RIGHT JOIN the swap
	// makes that the written left table's copy).
	var using []string
	for _, u := range n.Using {
		using = append(using, u.Name.O)
	}
	if n.NaturalJoin {
		for _, c := range lc {
			if c.hidden {
				continue
			}
			for _, d := range rc {
				if !d.hidden && strings.EqualFold(c.name, d.name) {
					using = append(using, c.name)
					break
				}
			}
		}
	}
	ls := &scope{plan: lp, cols: lc}
	rs := &scope{plan: rp, cols: rc}
	for _, name := range using {
		pos := b.wordPos(name, -1)
		li, amb1 := ls.lookup("", name)
		ri, amb2 := rs.lookup("", name)
		if li < 0 || ri < 0 {
			return nil, nil, b.errCode(pos, ErBadField, "Unknown column '%s' in 'from clause'", name)
		}
		if amb1 || amb2 {
			return nil, nil, b.errCode(pos, ErNonUniqError, "Column '%s' in from clause is ambiguous", name)
		}
		eq, err := b.compare(OpEQ, sc.colRef(li), sc.colRef(len(lc)+ri), pos)
		if err != nil {
			return nil, nil, err
		}
		j.Residual = and(j.Residual, eq)
		cols[len(lc)+ri].hidden = true
	}
	if n.On != nil {
		sc.noJoins = true
		restore := b.inClause("on clause")
		e, err := b.expr(n.On.Expr, sc)
		restore()
		sc.noJoins = false
		if err != nil {
			return nil, nil, err
		}
		if e, err = b.truthy(e, b.posOr(n.On.Expr, -1)); err != nil {
			return nil, nil, err
		}
		j.Residual = and(j.Residual, e)
	}
	if !swapped {
		return j, cols, nil
	}
	// Restore the written order: original left (now right) columns first.
	nl, nr := len(rc), len(lc) // written left / right widths
	exprs := make([]Expr, 0, nl+nr)
	names := make([]string, 0, nl+nr)
	out := make([]scopeCol, 0, nl+nr)
	for i := 0; i < nl; i++ {
		exprs = append(exprs, &ColRef{Index: nr + i, Col: j.Out[nr+i]})
		names = append(names, j.Out[nr+i].Name)
		out = append(out, cols[nr+i])
	}
	for i := 0; i < nr; i++ {
		exprs = append(exprs, &ColRef{Index: i, Col: j.Out[i]})
		names = append(names, j.Out[i].Name)
		out = append(out, cols[i])
	}
	return newProject(j, exprs, names), out, nil
}

func (b *binder) tableSource(n *ast.TableSource) (Plan, []scopeCol, error) {
	alias := n.AsName.O
	switch src := n.Source.(type) {
	case *ast.TableName:
		name := src.Name.O
		if err := b.partitionClause(src.PartitionNames); err != nil {
			return nil, nil, err
		}
		if strings.HasPrefix(name, fileMarker) {
			b.volatile("a file in FROM")
			return b.fileTable(name, alias)
		}
		q := alias
		if q == "" {
			q = name
		}
		if src.Schema.O == "" {
			if def := b.findCTE(name); def != nil {
				if def.recursive || def.table != nil {
					return b.cteTableScan(def, q)
				}
				p, names, err := b.bindCTE(def)
				if err != nil {
					return nil, nil, err
				}
				return p, qualify(names, q), nil
			}
		}
		if strings.EqualFold(src.Schema.O, "information_schema") {
			b.volatile("information_schema")
			p, names, err := b.informationSchema(name, b.wordPos(name, -1))
			if err != nil {
				return nil, nil, err
			}
			return p, qualify(names, q), nil
		}
		if v, ok := b.cat.View(name); ok && knownSchema(src.Schema.O) {
			b.reads.view(v)
			p, names, origins, err := b.bindView(v, b.wordPos(name, -1))
			if err != nil {
				return nil, nil, err
			}
			return p, withOrigins(qualify(names, q), origins, false), nil
		}
		t, ok := b.cat.Table(name)
		if !ok {
			return nil, nil, b.errCode(b.wordPos(name, -1), ErNoSuchTable, "Table '%s.%s' doesn't exist", DatabaseName, name)
		}
		b.reads.table(t)
		if src := b.dmlSources[n]; src != nil {
			return b.dmlScan(src, t, q), b.dmlCols(t, q), nil
		}
		scan := newScan(t, q)
		names := make([]string, len(scan.Out))
		for i, c := range scan.Out {
			names[i] = c.Name
		}
		cols := qualify(names, q)
		for i := range cols {
			cols[i].base = true
		}
		return b.zoneScan(scan), cols, nil
	case *ast.SelectStmt, *ast.SetOprStmt:
		if alias == "" {
			return nil, nil, b.errCode(-1, ErDerivedMustHaveAlias, "Every derived table must have its own alias")
		}
		b.storeRows = materialized(src)
		blk, err := b.query(src, nil)
		if err != nil {
			return nil, nil, err
		}
		names, err := b.derivedNames(alias, blk.names) // derived_columns.go
		if err != nil {
			return nil, nil, err
		}
		if err := b.uniqueDerivedNames(alias, names); err != nil {
			return nil, nil, err
		}
		return blk.plan, withOrigins(qualify(names, alias), blk.origins, materialized(src)), nil
	case *ast.Join:
		return b.join(src)
	}
	return nil, nil, b.errf(-1, "unsupported: %s in FROM", constructName(n.Source))
}

func qualify(names []string, q string) []scopeCol {
	cols := make([]scopeCol, len(names))
	for i, n := range names {
		cols[i] = scopeCol{table: q, name: n}
	}
	return cols
}

// newScan reads every column of a table snapshot; the planner prunes the
// ones a query does not use. String columns carry the snapshot's dictionary.
func newScan(t *columnar.Table, alias string) *Scan {
	s := &Scan{Table: t, Alias: alias, Columns: make([]int, len(t.Fields)), Out: make(Schema, len(t.Fields))}
	for i, f := range t.Fields {
		s.Columns[i] = i
		c := Column{Name: f.Name, Table: alias, Type: f.Type, Nullable: f.Nullable, Collation: f.Collation}
		if f.Type.ID == columnar.String && i < len(t.Columns) && t.Columns[i] != nil {
			c.Dict = t.Columns[i].Dict
		}
		s.Out[i] = c
	}
	return s
}

// cteDef is a WITH definition; references bind its query afresh (CTEs are
// inlined), seeing the definitions that preceded it.
type cteDef struct {
	name    string
	cols    []string
	query   ast.ResultSetNode
	visible []*cteDef
	// recursive: the definition reads itself (WITH RECURSIVE); rec is its
	// binding, shared by every reference. table: the name reads this
	// table (a recursive definition's work table, inside its step).
	recursive bool
	rec       *RecursiveCTE
	table     *columnar.Table
}

func (b *binder) pushCTEs(w *ast.WithClause) (func(), error) {
	saved := b.ctes
	if w == nil {
		return func() {}, nil
	}
	ctes := append([]*cteDef(nil), b.ctes...)
	for _, c := range w.CTEs {
		if c.Query == nil {
			return nil, b.errf(-1, "WITH %s has no query", c.Name.O)
		}
		def := &cteDef{name: c.Name.O, query: c.Query.Query, visible: append([]*cteDef(nil), ctes...)}
		def.recursive = w.IsRecursive && refersTo(c.Query.Query, def.name)
		for _, cn := range c.ColNameList {
			def.cols = append(def.cols, cn.O)
		}
		ctes = append(ctes, def)
	}
	b.ctes = ctes
	return func() { b.ctes = saved }, nil
}

func (b *binder) findCTE(name string) *cteDef {
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if strings.EqualFold(b.ctes[i].name, name) {
			return b.ctes[i]
		}
	}
	return nil
}

func (b *binder) bindCTE(def *cteDef) (Plan, []string, error) {
	saved := b.ctes
	b.ctes = def.visible
	b.storeRows = materialized(def.query)
	blk, err := b.query(def.query, nil)
	b.ctes = saved
	if err != nil {
		return nil, nil, err
	}
	if len(def.cols) == 0 {
		if err := b.uniqueDerivedNames(def.name, blk.names); err != nil {
			return nil, nil, err
		}
		return blk.plan, blk.names, nil
	}
	if err := b.uniqueDerivedNames(def.name, def.cols); err != nil {
		return nil, nil, err
	}
	if len(def.cols) != len(blk.names) {
		return nil, nil, b.errf(b.wordPos(def.name, -1), "WITH %s names %d columns but its query returns %d", def.name, len(def.cols), len(blk.names))
	}
	sch := blk.plan.Schema()
	refs := make([]Expr, len(def.cols))
	for i := range refs {
		refs[i] = &ColRef{Index: i, Col: sch[i]}
	}
	return newProject(blk.plan, refs, def.cols), def.cols, nil
}
