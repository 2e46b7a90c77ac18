package sql

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"

	"gpusql/catalog"
)

// Views are stored as SQL text and expanded where they are used, into a
// derived table bound then: a view always reads the tables' current
// snapshots, and one whose table was dropped fails at its use, naming the
// view.

// CreateView stores a view (CREATE [OR REPLACE] VIEW).
type CreateView struct {
	View      catalog.View
	OrReplace bool
}

// DropView removes views (DROP VIEW [IF EXISTS]).
type DropView struct {
	Names    []string
	IfExists bool
	// Elsewhere: as DropTable's, views of other databases under IF EXISTS.
	Elsewhere []string
}

func (*CreateView) statement() {}
func (*DropView) statement()   {}

func (b *binder) createView(n *ast.CreateViewStmt) (Statement, error) {
	name := n.ViewName.Name.O
	if err := b.tableNameError(name); err != nil {
		return nil, err
	}
	if _, ok := b.cat.Table(name); ok {
		return nil, b.errCode(b.wordPos(name, -1), ErTableExists, "Table '%s' already exists", name)
	}
	if _, ok := b.cat.View(name); ok && !n.OrReplace {
		err := b.errCode(b.wordPos(name, -1), ErTableExists, "Table '%s' already exists", name)
		err.Detail = "a view: use CREATE OR REPLACE VIEW"
		return nil, err
	}
	// Bound now so a broken view fails at CREATE; the plan is discarded.
	blk, err := b.query(n.Select, nil)
	if err != nil {
		return nil, err
	}
	v := catalog.View{Name: name, Temptable: n.Algorithm == ast.AlgorithmTemptable}
	cols := blk.names
	if len(n.Cols) > 0 {
		if len(n.Cols) != len(blk.names) {
			err := b.errCode(b.wordPos(name, -1), ErViewWrongList, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
			err.Detail = fmt.Sprintf("view '%s' names %d columns, its SELECT returns %d", name, len(n.Cols), len(blk.names))
			return nil, err
		}
		cols = nil
		for _, c := range n.Cols {
			v.Columns = append(v.Columns, c.O)
			cols = append(cols, c.O)
		}
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[strings.ToLower(c)] {
			return nil, b.errCode(b.wordPos(c, -1), ErDupFieldName, "Duplicate column name '%s'", c)
		}
		seen[strings.ToLower(c)] = true
	}
	if sel, ok := n.Select.(*ast.SelectStmt); ok {
		if n.Select, err = b.expandWildcards(sel); err != nil {
			return nil, err
		}
		if len(n.Cols) == 0 {
			n.Select = nameFields(n.Select.(*ast.SelectStmt), blk.names)
		}
	} else if so, ok := n.Select.(*ast.SetOprStmt); ok && len(n.Cols) == 0 {
		n.Select = nameFirstFields(so, blk.names)
	}
	var sb strings.Builder
	if err := n.Select.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb)); err != nil {
		return nil, b.errf(b.start, "cannot store view '%s': %v", name, err)
	}
	v.SQL = b.unmarkedEscapes(b.unmarkFiles(sb.String()))
	if b.soundsLike {
		v.SQL = unmarkSoundsLike(v.SQL)
	}
	return &CreateView{View: v, OrReplace: n.OrReplace}, nil
}

func (b *binder) dropView(n *ast.DropTableStmt) (Statement, error) {
	st := &DropView{IfExists: n.IfExists}
	var err error
	st.Names, st.Elsewhere, err = b.dropNames(n)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// bindView expands a view used in FROM: its text is parsed and bound by a
// binder of its own (errors inside it name the view, not a position in the
// statement), then renamed to the view's column names; origins are its
// columns' as block.origins.
func (b *binder) bindView(v catalog.View, pos int) (Plan, []string, []string, error) {
	for _, open := range b.views {
		if strings.EqualFold(open, v.Name) {
			return nil, nil, nil, b.errf(pos, "view '%s' references itself", v.Name)
		}
	}
	// Parse, not the TiDB parser alone: the text may read files in FROM.
	ps, err := Parse(v.SQL)
	if err == nil && (len(ps) != 1 || ps[0].Node == nil) {
		err = errors.New("not one query")
	}
	if err != nil {
		return nil, nil, nil, b.errf(pos, "view '%s' cannot be parsed: %v", v.Name, err)
	}
	node := ps[0].Node
	vb := &binder{cat: b.cat, session: b.session, vars: b.vars, src: ps[0].src, end: len(ps[0].src), depth: b.depth,
		nextParam: b.nextParam, views: append(append([]string(nil), b.views...), v.Name),
		files: ps[0].files, dir: b.dir, reads: b.reads, soundsLike: ps[0].soundsLike, likeEscapes: ps[0].likeEscapes,
		queries:   b.queries,                         // a query inside this one: its quotients keep their digits (division_digits.go)
		storeRows: v.Temptable || materialized(node)} // unless MySQL materializes it
	blk, err := vb.query(node, nil)
	b.nextParam = vb.nextParam
	b.recursive = append(b.recursive, vb.recursive...)
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			err = errors.New(se.Msg)
		}
		return nil, nil, nil, b.invalidView(pos, v.Name, err.Error())
	}
	if len(v.Columns) == 0 {
		return blk.plan, blk.names, viewOrigins(blk, v.Temptable || materialized(node)), nil
	}
	if len(v.Columns) != len(blk.names) {
		return nil, nil, nil, b.invalidView(pos, v.Name, fmt.Sprintf("it names %d columns but its SELECT now returns %d", len(v.Columns), len(blk.names)))
	}
	sch := blk.plan.Schema()
	refs := make([]Expr, len(v.Columns))
	for i := range refs {
		refs[i] = &ColRef{Index: i, Col: sch[i]}
	}
	return newProject(blk.plan, refs, v.Columns), v.Columns, viewOrigins(blk, v.Temptable || materialized(node)), nil
}

// expandWildcards is sel with its * and t.* written out as the columns they
// stand for now, as MySQL stores a view: a column added to the table later
// is not one of the view's (CREATE VIEW v AS SELECT * FROM t; ALTER TABLE t
// ADD c: v keeps t's old columns). A column of an unqualified * is named
// alone (the view's names are distinct, so no two tables give one), one of
// t.* as t.c. The statement's own tree is left as it is.
func (b *binder) expandWildcards(sel *ast.SelectStmt) (*ast.SelectStmt, error) {
	if sel.Fields == nil || !slices.ContainsFunc(sel.Fields.Fields, func(f *ast.SelectField) bool { return f.WildCard != nil }) {
		return sel, nil
	}
	var fields []*ast.SelectField
	for _, f := range sel.Fields.Fields {
		if f.WildCard == nil {
			fields = append(fields, f)
			continue
		}
		// The columns one wildcard gives: those of SELECT <it> over the
		// same FROM.
		one := &ast.SelectStmt{Kind: sel.Kind, With: sel.With, From: sel.From, Fields: &ast.FieldList{Fields: []*ast.SelectField{f}}}
		blk, err := b.query(one, nil)
		if err != nil {
			return nil, err
		}
		for _, name := range blk.names {
			col := &ast.ColumnName{Name: ast.NewCIStr(name)}
			if f.WildCard.Table.O != "" {
				col.Table, col.Schema = f.WildCard.Table, f.WildCard.Schema
			}
			fields = append(fields, &ast.SelectField{Expr: &ast.ColumnNameExpr{Name: col}})
		}
	}
	out := *sel
	out.Fields = &ast.FieldList{Fields: fields}
	return &out, nil
}

// nameFields is sel with each expression that has no alias named as the
// SELECT named it (names), as MySQL stores a view (select 'a' like 'a' AS
// `'a' like 'a'`): the stored text is restored from the tree, which
// spells literals and calls its own way (_UTF8MB4'a' LIKE _UTF8MB4'a'),
// and a name taken from that text would not be the one MySQL gives.
// A column keeps its own name; the tree itself is left as it is.
func nameFields(sel *ast.SelectStmt, names []string) *ast.SelectStmt {
	if sel.Fields == nil || len(sel.Fields.Fields) != len(names) {
		return sel
	}
	fields := make([]*ast.SelectField, len(names))
	for i, f := range sel.Fields.Fields {
		fields[i] = f
		if _, col := f.Expr.(*ast.ColumnNameExpr); f.AsName.O == "" && f.WildCard == nil && !col {
			named := *f
			named.AsName = ast.NewCIStr(names[i])
			fields[i] = &named
		}
	}
	out := *sel
	out.Fields = &ast.FieldList{Fields: fields}
	return &out
}

// nameFirstFields is nameFields of a set operation's first SELECT, which
// names its columns.
func nameFirstFields(so *ast.SetOprStmt, names []string) *ast.SetOprStmt {
	if so.SelectList == nil || len(so.SelectList.Selects) == 0 {
		return so
	}
	first, ok := so.SelectList.Selects[0].(*ast.SelectStmt)
	if !ok {
		return so
	}
	list := *so.SelectList
	list.Selects = append([]ast.Node{nameFields(first, names)}, list.Selects[1:]...)
	out := *so
	out.SelectList = &list
	return &out
}

// viewOrigins are a view's columns' origins, none where MySQL
// materializes it (ALGORITHM=TEMPTABLE, or a query it cannot merge).
func viewOrigins(blk *block, materialized bool) []string {
	if materialized {
		return nil
	}
	return blk.origins
}
