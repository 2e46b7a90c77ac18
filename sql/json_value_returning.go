package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// JSON_VALUE(doc, path [RETURNING type] [NULL | DEFAULT v ON EMPTY]
// [NULL ON ERROR]) (MySQL 8.0.21, "Functions That Search JSON Values":
// JSON_VALUE('{"price": "49.95"}', '$.price' RETURNING DECIMAL(4,2)) is
// 49.95). The TiDB parser has no grammar for the clauses, so before
// parsing they are blanked (offsets and lines stay) and kept with their
// statement, and after parsing the call is rewritten in the AST as
//
//	CAST(JSON_VALUE(doc, path) AS type)
//	CASE JSON_CONTAINS_PATH(doc, 'one', path) WHEN 1 THEN CAST(JSON_VALUE(doc, path) AS type)
//	WHEN 0 THEN CAST(v AS type) END
//
// the second for DEFAULT v ON EMPTY (no value at the path; a JSON null
// is a value, NULL; a NULL document gives NULL), and with
// JSON_VALUE_MISSING(), MySQL's error 3966, for ERROR ON EMPTY. NULL ON
// EMPTY and NULL ON ERROR are the defaults and change nothing; ERROR ON
// ERROR and DEFAULT ... ON ERROR are left in the text, where the parser
// reports them as a syntax error at their place.

// jsonValueClause is the clause cut out of one JSON_VALUE call: the
// offset of the call's name, the RETURNING type's text and the literal
// of DEFAULT ... ON EMPTY ("" for none).
type jsonValueClause struct {
	at             int
	returning      string
	defaultOnEmpty string
	errorOnEmpty   bool   // ERROR ON EMPTY: json_value_missing()
	span           [2]int // the blanked bytes
}

// blankJSONValueClauses blanks the clauses of the JSON_VALUE calls of text.
func blankJSONValueClauses(text string) (string, []jsonValueClause) {
	if !strings.Contains(strings.ToUpper(text), "JSON_VALUE") {
		return text, nil
	}
	var found []jsonValueClause
	var spans [][2]int
	sc := wordScanner{s: text}
	for {
		start, w := sc.next()
		if w == "" {
			break
		}
		if !strings.EqualFold(w, "JSON_VALUE") {
			continue
		}
		call := wordScanner{s: text, pos: sc.pos}
		if c, from, end, ok := scanJSONValueClause(&call); ok {
			c.at, c.span = start, [2]int{from, end}
			found = append(found, c)
			spans = append(spans, [2]int{from, end})
		}
	}
	if len(found) == 0 {
		return text, nil
	}
	return blankSpans(text, spans), found
}

// scanJSONValueClause reads "(doc, 'path' clause)" and returns the clause
// and its span [from, end); ok is false without a clause or with one
// gpusql does not rewrite.
func scanJSONValueClause(sc *wordScanner) (c jsonValueClause, from, end int, ok bool) {
	if _, open := sc.next(); open != "(" {
		return c, 0, 0, false
	}
	depth := 1
	for depth > 1 || !ok { // to the first top-level comma
		_, t := sc.next()
		switch t {
		case "", ";":
			return c, 0, 0, false
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return c, 0, 0, false
			}
		case ",":
			ok = depth == 1
		}
	}
	if _, path := sc.next(); path == "" || path[0] != '\'' && path[0] != '"' {
		return c, 0, 0, false // MySQL's path is a string literal
	}
	var words []string
	var starts []int
	for depth = 1; ; {
		at, t := sc.next()
		switch t {
		case "", ";":
			return c, 0, 0, false
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth == 0 {
			end = at
			break
		}
		words, starts = append(words, t), append(starts, at)
	}
	if len(words) == 0 {
		return c, 0, 0, false
	}
	return parseJSONValueClause(sc.s, words, starts, end, c)
}

// parseJSONValueClause reads the clause's words.
func parseJSONValueClause(s string, words []string, starts []int, end int, c jsonValueClause) (jsonValueClause, int, int, bool) {
	from, i := starts[0], 0
	is := func(j int, w string) bool { return j < len(words) && strings.EqualFold(words[j], w) }
	if is(0, "RETURNING") {
		j := 1
		for j < len(words) && !is(j, "NULL") && !is(j, "ERROR") && !is(j, "DEFAULT") {
			j++
		}
		typeEnd := end
		if j < len(words) {
			typeEnd = starts[j]
		}
		if j == 1 {
			return c, 0, 0, false
		}
		c.returning = strings.TrimSpace(s[starts[1]:typeEnd])
		if _, err := parser.New().ParseOneStmt("SELECT CAST(NULL AS "+c.returning+")", "", ""); err != nil {
			return c, 0, 0, false
		}
		i = j
	}
	for i < len(words) {
		switch {
		case is(i, "NULL") && is(i+1, "ON") && (is(i+2, "EMPTY") || is(i+2, "ERROR")):
			i += 3
		case is(i, "ERROR") && is(i+1, "ON") && is(i+2, "EMPTY"):
			c.errorOnEmpty = true
			i += 3
		case is(i, "DEFAULT") && i+1 < len(words) && is(i+2, "ON") && is(i+3, "EMPTY"):
			c.defaultOnEmpty = words[i+1]
			i += 4
		default:
			return c, 0, 0, false
		}
	}
	return c, from, end, true
}

// withJSONValueClauses rewrites the JSON_VALUE calls of each statement
// whose clauses were cut out, and puts the clauses back in its text
// (orig: the text before they were blanked), which names its columns.
func withJSONValueClauses(stmts []Parsed, found []jsonValueClause, orig string) []Parsed {
	if len(found) == 0 {
		return stmts
	}
	for i := range stmts {
		p := &stmts[i]
		if p.Node == nil {
			continue
		}
		var mine []jsonValueClause
		for _, f := range found {
			if f.at >= p.start && f.at < p.end {
				mine = append(mine, f)
			}
		}
		if len(mine) == 0 || len(p.src) != len(orig) {
			continue
		}
		p.Node.Accept(&jsonValueRewriter{clauses: mine, orig: orig, blanked: p.src})
		src := []byte(p.src)
		for _, c := range mine {
			copy(src[c.span[0]:c.span[1]], orig[c.span[0]:c.span[1]])
		}
		p.src = string(src)
	}
	return stmts
}

// jsonValueRewriter replaces each JSON_VALUE call that had a clause, and
// gives the select fields their text as written (their column names).
type jsonValueRewriter struct {
	clauses       []jsonValueClause
	orig, blanked string
}

func (r *jsonValueRewriter) Enter(n ast.Node) (ast.Node, bool) {
	if f, ok := n.(*ast.SelectField); ok {
		from, to := f.Offset, f.Offset+len(f.Text())
		if from >= 0 && to <= len(r.blanked) && r.blanked[from:to] == f.Text() {
			f.SetText(nil, r.orig[from:to])
		}
	}
	return n, false
}

func (r *jsonValueRewriter) Leave(n ast.Node) (ast.Node, bool) {
	f, ok := n.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "json_value" || len(f.Args) != 2 {
		return n, true
	}
	for _, c := range r.clauses {
		if c.at == f.OriginTextPosition() {
			if e := c.rewrite(f); e != nil {
				return e, true
			}
		}
	}
	return n, true
}

// rewrite builds the call's replacement from a template whose
// placeholders (@d, @p, @v) become the call's document, path and value;
// the template's nodes take the call's offset, for error messages.
func (c jsonValueClause) rewrite(f *ast.FuncCallExpr) ast.ExprNode {
	value := "@v"
	if c.returning != "" {
		value = "CAST(@v AS " + c.returning + ")"
	}
	tmpl := value
	if c.defaultOnEmpty != "" || c.errorOnEmpty {
		dflt := c.defaultOnEmpty
		if c.errorOnEmpty {
			dflt = "JSON_VALUE_MISSING()" // raises MySQL's error 3966
		}
		if c.returning != "" {
			dflt = "CAST(" + dflt + " AS " + c.returning + ")"
		}
		tmpl = "CASE JSON_CONTAINS_PATH(@d, 'one', @p) WHEN 1 THEN " + value + " WHEN 0 THEN " + dflt + " END"
	}
	stmt, err := parser.New().ParseOneStmt("SELECT "+tmpl, "", "")
	if err != nil {
		return nil
	}
	sel, ok := stmt.(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 {
		return nil
	}
	fill := &placeholderFiller{at: f.OriginTextPosition(), by: map[string]ast.ExprNode{"d": f.Args[0], "p": f.Args[1], "v": f}}
	e, _ := sel.Fields.Fields[0].Expr.Accept(fill)
	return e.(ast.ExprNode)
}

// placeholderFiller puts the call's parts in for @d, @p and @v and gives
// the template's own nodes the call's offset.
type placeholderFiller struct {
	at int
	by map[string]ast.ExprNode
}

func (p *placeholderFiller) Enter(n ast.Node) (ast.Node, bool) {
	if v, ok := n.(*ast.VariableExpr); ok && !v.IsSystem {
		if e, ok := p.by[strings.ToLower(v.Name)]; ok {
			return e, true
		}
	}
	n.SetOriginTextPosition(p.at)
	return n, false
}

func (*placeholderFiller) Leave(n ast.Node) (ast.Node, bool) { return n, true }
