package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// JSON_TABLE over a column of the table before it in FROM (MySQL's
// lateral form: FROM t, JSON_TABLE(t.j, '$[*]' COLUMNS (...)) AS jt, or
// t [LEFT] JOIN JSON_TABLE(...) AS jt ON ...). A table snapshot does not
// change while a statement runs, so the binder evaluates the call once
// for each distinct document in the column and joins t to those rows on
// the document's text, kept in a hidden first column of the JSON table:
// each row of t meets exactly the rows its own document gives (none for
// NULL, so an inner join drops it and a LEFT JOIN keeps it with NULLs).
// The left side must be one table; a document computed from several is
// an error saying so.

// jsonTableDocColumn names the hidden column holding each row's document.
const jsonTableDocColumn = "__json_table_doc"

// lateralJSONTable binds join n when its right side is a JSON_TABLE over
// a column of the left side; handled is false for any other join.
func (b *binder) lateralJSONTable(n *ast.Join, lp Plan, lc []scopeCol) (p Plan, cols []scopeCol, handled bool, err error) {
	ts, ok := n.Right.(*ast.TableSource)
	if !ok {
		return nil, nil, false, nil
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok || !strings.HasPrefix(tn.Name.O, fileMarker) {
		return nil, nil, false, nil
	}
	idx, err := strconv.Atoi(strings.TrimPrefix(tn.Name.O, fileMarker))
	if err != nil || idx < 0 || idx >= len(b.files) || b.files[idx].fn != "json_table" {
		return nil, nil, false, nil
	}
	fs := b.files[idx]
	spec, err := parseJSONTable(fs.text)
	if err != nil || strings.HasPrefix(spec.doc, "@") || spec.doc == "" || spec.doc[0] == '\'' || spec.doc[0] == '"' {
		return nil, nil, false, nil // a constant document: jsonTable binds it
	}
	doc, err := b.lateralDocColumn(spec.doc, lp, lc, fs.pos)
	if err != nil {
		return nil, nil, true, err
	}
	alias := ts.AsName.O
	if alias == "" {
		return nil, nil, true, b.errf(fs.pos, "Every table function must have an alias.")
	}
	t, err := buildJSONTableDocs(spec, alias, doc.docs)
	if err != nil {
		return nil, nil, true, b.errf(fs.pos, "%v", err)
	}
	b.volatile("a JSON_TABLE in FROM")
	rp := newScan(t, alias)
	rc := qualify(scanNames(rp), alias)
	rc[0].hidden = true
	kind := JoinInner
	if n.Tp == ast.LeftJoin {
		kind = JoinLeft
	}
	j := &Join{Kind: kind, Left: lp, Right: rp}
	j.Out = joinSchema(lp.Schema(), rp.Schema(), kind)
	cols = append(append([]scopeCol(nil), lc...), rc...)
	sc := &scope{plan: j, cols: cols}
	key := castTo(sc.colRef(doc.index), columnar.TString) // the text, not JSON equality
	eq, err := b.compare(OpEQ, key, sc.colRef(len(lc)), fs.pos)
	if err != nil {
		return nil, nil, true, err
	}
	j.Residual = eq
	if n.On != nil {
		e, err := b.expr(n.On.Expr, sc)
		if err != nil {
			return nil, nil, true, err
		}
		if e, err = b.truthy(e, b.posOr(n.On.Expr, -1)); err != nil {
			return nil, nil, true, err
		}
		j.Residual = and(j.Residual, e)
	}
	return j, cols, true, nil
}

// lateralDoc is the left column a lateral JSON_TABLE reads: its index in
// the left plan's schema and its distinct documents.
type lateralDoc struct {
	index int
	docs  []string
}

// lateralDocColumn resolves the document text against the left side, which
// must be one table's scan.
func (b *binder) lateralDocColumn(text string, lp Plan, lc []scopeCol, pos int) (lateralDoc, error) {
	var d lateralDoc
	stmt, err := parser.New().ParseOneStmt("SELECT "+text, "", "")
	if err != nil {
		return d, b.errf(pos, "unsupported: JSON_TABLE over %s (a string literal, a user variable or a column of the table before it)", text)
	}
	sel := stmt.(*ast.SelectStmt)
	e, err := b.expr(sel.Fields.Fields[0].Expr, &scope{plan: lp, cols: lc})
	if err != nil {
		return d, err
	}
	ref, ok := e.(*ColRef)
	scan, isScan := lp.(*Scan)
	if !ok || !isScan || e.Type().ID != columnar.String {
		return d, b.errf(pos, "unsupported: JSON_TABLE over %s (a string literal, a user variable or a text or JSON column of the one table before it)", text)
	}
	d.index = ref.Index
	col := scan.Table.Columns[scan.Columns[ref.Index]]
	seen := map[string]bool{}
	for i := 0; i < scan.Table.Rows; i++ {
		if col.IsNull(i) {
			continue
		}
		if s := col.StringAt(i); !seen[s] {
			seen[s] = true
			d.docs = append(d.docs, s)
		}
	}
	return d, nil
}

func scanNames(s *Scan) []string {
	names := make([]string, len(s.Out))
	for i, c := range s.Out {
		names[i] = c.Name
	}
	return names
}
