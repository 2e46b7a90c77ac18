package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Multi-table UPDATE and DELETE (UPDATE t1 JOIN t2 ON ... SET ...,
// DELETE t1, t2 FROM t1 JOIN t2 ..., DELETE FROM t1 USING t1 JOIN t2 ...)
// bind, like the single-table forms, to one query: the FROM clause joined
// and filtered as a SELECT's would be, every base table in it scanned with
// its row numbers, projecting the row number of each table the statement
// changes (and, for UPDATE, the new values). A row of a changed table may
// appear in several joined rows: DELETE removes it once; UPDATE sets it
// once, from the first joined row that holds it (MySQL: "each matching row
// is updated once, even if it matches the conditions multiple times"; which
// match supplies the values is unspecified there). MySQL does not promise
// an order for a multi-table UPDATE's assignments; here each value is
// computed from the joined row as it was before the statement. As in
// MySQL, ORDER BY and LIMIT are errors with several tables.

// dmlSource is a base table named in a multi-table statement's FROM.
type dmlSource struct {
	alias string          // its qualifier: the alias, else the name
	table *columnar.Table // the snapshot scanned; nil until bound
}

// UpdateTarget is one table a MultiUpdate changes: the rows whose numbers
// are in Source column RowID (NULL: no row of this table in that joined
// row) get columns Columns set to Source columns Values.
type UpdateTarget struct {
	Table    string
	Snapshot *columnar.Table
	RowID    int
	Columns  []int
	Values   []int
	// Touch are its ON UPDATE CURRENT_TIMESTAMP columns not in Columns.
	Touch []int
}

// MultiUpdate is UPDATE of several joined tables.
type MultiUpdate struct {
	DMLReads
	Targets []UpdateTarget
	Source  Plan
	Now     int64 // the statement's clock, for Touch columns
	// Recursive are the WITH RECURSIVE tables Source reads.
	Recursive []*RecursiveCTE
}

// DeleteTarget is one table a MultiDelete removes rows from: the row
// numbers in Source columns RowIDs (several when the table is joined to
// itself under two aliases, both deleted from).
type DeleteTarget struct {
	Table    string
	Snapshot *columnar.Table
	RowIDs   []int
}

// MultiDelete is DELETE from several joined tables.
type MultiDelete struct {
	DMLReads
	Targets []DeleteTarget
	Source  Plan
	// Recursive are the WITH RECURSIVE tables Source reads.
	Recursive []*RecursiveCTE
}

func (*MultiUpdate) statement() {}
func (*MultiDelete) statement() {}

// joinsTables reports whether an UPDATE's table reference is a join (UPDATE
// t1 JOIN t2 ..., UPDATE t1, t2 ...): the multi-table form.
func joinsTables(refs *ast.TableRefsClause) bool {
	if refs == nil || refs.TableRefs == nil {
		return false
	}
	j := refs.TableRefs
	if j.Right != nil {
		return true
	}
	ts, ok := j.Left.(*ast.TableSource)
	if !ok {
		return true
	}
	_, one := ts.Source.(*ast.TableName)
	return !one
}

// dmlScan scans a base table of a multi-table statement with its row
// numbers, recording the snapshot and qualifier in src.
func (b *binder) dmlScan(src *dmlSource, t *columnar.Table, q string) Plan {
	src.alias, src.table = q, t
	return b.zoneScan(newScan(withRowID(t), q))
}

// dmlCols are the scope columns of dmlScan: the row number is hidden.
func (b *binder) dmlCols(t *columnar.Table, q string) []scopeCol {
	ns := make([]string, 0, len(t.Fields)+1)
	for _, f := range t.Fields {
		ns = append(ns, f.Name)
	}
	cols := qualify(append(ns, RowIDColumn), q)
	cols[len(cols)-1].hidden = true
	return cols
}

// collectDMLSources records the base tables of a FROM clause (not those
// inside subqueries or derived tables, which the statement cannot change).
func collectDMLSources(n ast.ResultSetNode, into map[*ast.TableSource]*dmlSource, order *[]*dmlSource) {
	switch n := n.(type) {
	case *ast.Join:
		collectDMLSources(n.Left, into, order)
		if n.Right != nil {
			collectDMLSources(n.Right, into, order)
		}
	case *ast.TableSource:
		switch s := n.Source.(type) {
		case *ast.TableName:
			src := &dmlSource{}
			into[n] = src
			*order = append(*order, src)
		case *ast.Join:
			collectDMLSources(s, into, order)
		}
	}
}

// multiTableScope binds a multi-table statement's FROM and WHERE; it
// returns the scope and the base tables bound (views and CTEs are not).
func (b *binder) multiTableScope(refs *ast.TableRefsClause, where ast.ExprNode) (*scope, []*dmlSource, error) {
	if refs == nil || refs.TableRefs == nil {
		return nil, nil, b.errf(b.start, "the statement needs a table")
	}
	var order []*dmlSource
	b.dmlSources = map[*ast.TableSource]*dmlSource{}
	collectDMLSources(refs.TableRefs, b.dmlSources, &order)
	plan, cols, err := b.from(refs.TableRefs)
	b.dmlSources = nil
	if err != nil {
		return nil, nil, err
	}
	sc := &scope{plan: plan, cols: cols}
	if where != nil {
		restore := b.inClause("where clause")
		_, err := b.filter(where, sc, false)
		restore()
		if err != nil {
			return nil, nil, err
		}
	}
	var bound []*dmlSource
	for _, s := range order {
		if s.table != nil {
			bound = append(bound, s)
		}
	}
	return sc, bound, nil
}

// rowIDRef is the row-number column of the source qualified q.
func rowIDRef(sc *scope, q string) Expr {
	for i, c := range sc.cols {
		if c.name == RowIDColumn && strings.EqualFold(c.table, q) {
			return sc.colRef(i)
		}
	}
	panic("internal error: no row numbers for " + q)
}

// findSource is the bound source a target name refers to (its alias, or
// its name when it has none).
func findSource(sources []*dmlSource, name string) *dmlSource {
	for _, s := range sources {
		if strings.EqualFold(s.alias, name) {
			return s
		}
	}
	return nil
}

// notUpdatable explains why name, which the statement changes, is not one
// of its base tables.
func (b *binder) notUpdatable(sc *scope, name, verb string, pos int) error {
	for _, c := range sc.cols {
		if strings.EqualFold(c.table, name) {
			return b.errf(pos, "the target table %s of the %s is not updatable", name, verb)
		}
	}
	if verb == "DELETE" {
		return b.errCode(pos, ErUnknownTable, "Unknown table '%s' in MULTI DELETE", name)
	}
	return nil
}

func (b *binder) multiDelete(n *ast.DeleteStmt) (Statement, error) {
	if err := b.multiRefused("DELETE", n.Order, n.Limit); err != nil {
		return nil, err
	}
	pop, err := b.pushCTEs(n.With) // WITH ... DELETE: a CTE may be joined or read by a subquery
	if err != nil {
		return nil, err
	}
	defer pop()
	sc, sources, err := b.multiTableScope(n.TableRefs, n.Where)
	if err != nil {
		return nil, err
	}
	d := &MultiDelete{}
	var out []Expr
	var outNames []string
	seen := map[*dmlSource]bool{}
	for _, tn := range n.Tables.Tables {
		src := findSource(sources, tn.Name.O)
		if src == nil {
			return nil, b.notUpdatable(sc, tn.Name.O, "DELETE", b.wordPos(tn.Name.O, -1))
		}
		if seen[src] {
			continue
		}
		seen[src] = true
		i := 0
		for i < len(d.Targets) && !strings.EqualFold(d.Targets[i].Table, src.table.Name) {
			i++
		}
		if i == len(d.Targets) {
			d.Targets = append(d.Targets, DeleteTarget{Table: src.table.Name, Snapshot: src.table})
			if err := b.selfReference(src.table.Name, n.Where, n.TableRefs.TableRefs); err != nil {
				return nil, err
			}
		}
		d.Targets[i].RowIDs = append(d.Targets[i].RowIDs, len(out))
		out = append(out, rowIDRef(sc, src.alias))
		outNames = append(outNames, src.alias+" "+RowIDColumn)
	}
	d.Source = newProject(sc.plan, out, outNames)
	return d, nil
}

// multiRefused rejects what MySQL rejects with several tables, with its
// error 1221 (Incorrect usage of UPDATE and ORDER BY).
func (b *binder) multiRefused(verb string, order *ast.OrderByClause, limit *ast.Limit) error {
	var e *Error
	switch {
	case order != nil:
		e = b.errCode(b.wordPos("ORDER", -1), ErWrongUsage, "Incorrect usage of %s and ORDER BY", verb)
	case limit != nil:
		e = b.errCode(b.wordPos("LIMIT", -1), ErWrongUsage, "Incorrect usage of %s and LIMIT", verb)
	default:
		return nil
	}
	e.Detail = "a multi-table " + verb + " takes neither"
	return e
}
