package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// INSERT INTO t VALUES (...) AS new [(m, n, ...)] ON DUPLICATE KEY UPDATE
// b = new.b + m: MySQL 8.0.19's row alias names the proposed row, which
// VALUES(col) names too ("INSERT ... ON DUPLICATE KEY UPDATE Statement" in
// the MySQL 8.0 manual). The TiDB parser has no grammar for it, so before
// parsing the alias clause is blanked (offsets and lines stay) and kept
// with the statement; the binder then reads new.col, and a column alias
// m, in the UPDATE list as VALUES(col). Only INSERT ... VALUES and
// INSERT ... SET take a row alias: in INSERT ... SELECT ... AS dt ON
// DUPLICATE KEY UPDATE the AS names a derived table, which stays.

// rowAlias is one row alias cut out of a script: the byte offset of its
// AS, the alias and its column aliases (nil without a list).
type rowAlias struct {
	at   int
	name string
	cols []string
}

// blankRowAliases blanks every row alias of an INSERT in text.
func blankRowAliases(text string) (string, []rowAlias) {
	sc := wordScanner{s: text}
	var found []rowAlias
	var spans [][2]int
	depth, first, insert, query := 0, true, false, false
	for {
		start, w := sc.next()
		switch {
		case w == "":
			if len(found) == 0 {
				return text, nil
			}
			return blankSpans(text, spans), found
		case w == "(":
			depth++
		case w == ")":
			depth = max(0, depth-1)
		case w == ";":
			depth, first, insert, query = 0, true, false, false
			continue
		case first:
			insert = strings.EqualFold(w, "INSERT")
		case depth == 0 && (strings.EqualFold(w, "SELECT") || strings.EqualFold(w, "TABLE")):
			query = true
		case depth == 0 && insert && !query && strings.EqualFold(w, "AS"):
			if ra, end, ok := scanRowAlias(&sc); ok {
				ra.at = start
				found = append(found, ra)
				spans = append(spans, [2]int{start, end})
			}
		}
		first = false
	}
}

// scanRowAlias reads name [(col, ...)] ON DUPLICATE KEY after AS; on
// anything else it leaves the scanner where it was and reports false. end
// is where the blanked clause ends (before ON).
func scanRowAlias(sc *wordScanner) (ra rowAlias, end int, ok bool) {
	saved := sc.pos
	defer func() {
		if !ok {
			sc.pos = saved
		}
	}()
	_, name := sc.next()
	if name == "" || !isWordByte(name[0]) && name[0] != '`' {
		return ra, 0, false
	}
	ra.name = unquoteIdent(name)
	end = sc.pos
	_, w := sc.next()
	if w == "(" {
		for {
			_, c := sc.next()
			if c == "" || c == ";" || c == "(" || c == ")" || c == "," {
				return ra, 0, false
			}
			ra.cols = append(ra.cols, unquoteIdent(c))
			_, sep := sc.next()
			if sep == ")" {
				break
			}
			if sep != "," {
				return ra, 0, false
			}
		}
		end = sc.pos
		_, w = sc.next()
	}
	_, dup := sc.next()
	_, key := sc.next()
	if !strings.EqualFold(w, "ON") || !strings.EqualFold(dup, "DUPLICATE") || !strings.EqualFold(key, "KEY") {
		return ra, 0, false
	}
	sc.pos = end
	return ra, end, true
}

func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

// withRowAliases gives each statement the row alias cut out of it.
func withRowAliases(stmts []Parsed, found []rowAlias) []Parsed {
	for _, f := range found {
		for i := range stmts {
			if p := &stmts[i]; f.at >= p.start && f.at < p.end {
				ra := f
				p.rowAlias = &ra
			}
		}
	}
	return stmts
}

// applyRowAlias rewrites the ON DUPLICATE KEY UPDATE list of n, an INSERT
// into a table of the given columns, reading the row alias ra as
// VALUES(col): alias.col, alias.m and a bare column alias m.
func (b *binder) applyRowAlias(n *ast.InsertStmt, ra *rowAlias) error {
	if len(n.OnDuplicate) == 0 {
		return b.errf(b.start, "a row alias needs ON DUPLICATE KEY UPDATE")
	}
	var targets []string
	switch {
	case len(n.Columns) > 0: // INSERT ... (a, b) VALUES and INSERT ... SET a = 1, b = 2
		for _, c := range n.Columns {
			targets = append(targets, c.Name.O)
		}
	default:
		if tn := insertTableName(n); tn != nil {
			if t, ok := b.cat.Table(tn.Name.O); ok {
				for _, f := range t.Fields {
					targets = append(targets, f.Name)
				}
			}
		}
	}
	if ra.cols != nil && len(ra.cols) != len(targets) {
		return b.errCode(b.start, ErViewWrongList, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
	}
	rw := &rowAliasRewriter{alias: strings.ToLower(ra.name), cols: map[string]string{}, named: map[string]bool{}}
	for i, c := range ra.cols {
		rw.cols[strings.ToLower(c)] = targets[i]
	}
	if ra.cols == nil {
		for _, c := range targets {
			rw.named[strings.ToLower(c)] = true
		}
	}
	for _, a := range n.OnDuplicate {
		e, _ := a.Expr.Accept(rw)
		a.Expr = e.(ast.ExprNode)
	}
	return nil
}

// insertTableName is the table an INSERT writes.
func insertTableName(n *ast.InsertStmt) *ast.TableName {
	if n.Table == nil || n.Table.TableRefs == nil {
		return nil
	}
	if ts, ok := n.Table.TableRefs.Left.(*ast.TableSource); ok {
		tn, _ := ts.Source.(*ast.TableName)
		return tn
	}
	return nil
}

// rowAliasRewriter turns the row alias's references into VALUES(col).
type rowAliasRewriter struct {
	alias string
	cols  map[string]string // column alias (lower case) -> table column
	// named are the columns alias.col may name without column aliases
	// (the INSERT's); another alias.col is left to be MySQL's 1054
	// Unknown column 'new.q' in 'field list'.
	named map[string]bool
}

func (r *rowAliasRewriter) Enter(n ast.Node) (ast.Node, bool) {
	_, skip := n.(*ast.ValuesExpr)
	return n, skip
}

func (r *rowAliasRewriter) Leave(n ast.Node) (ast.Node, bool) {
	c, ok := n.(*ast.ColumnNameExpr)
	if !ok || c.Name.Schema.L != "" {
		return n, true
	}
	col, mapped := r.cols[c.Name.Name.L]
	switch {
	case c.Name.Table.L == r.alias && mapped:
	case c.Name.Table.L == r.alias && r.named[c.Name.Name.L]:
		col = c.Name.Name.O
	case c.Name.Table.L == "" && mapped:
	default:
		return n, true
	}
	return &ast.ValuesExpr{Column: &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(col)}}}, true
}
