package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// SELECT ... INTO @a, @b stores the one row a query returns in user
// variables (MySQL: an error over more than one row, ER_TOO_MANY_ROWS 1172;
// over none the variables keep their values and the statement ends with
// warning 1329). The TiDB parser reads INTO OUTFILE only, so before parsing
// each INTO @name [, @name ...] at the top level of a statement is blanked
// (offsets and lines stay) and remembered with the statement, which the
// binder then binds as a SelectIntoVars. Both places MySQL accepts the
// clause — before FROM and at the end — work, since the blanked text is a
// plain SELECT either way.

// SelectIntoVars runs Query and assigns its single row's columns to the
// user variables Names, in order.
type SelectIntoVars struct {
	Query *Query
	Names []string // lower case, without '@'
	Vars  *UserVars
}

func (*SelectIntoVars) statement() {}

// intoVars is one INTO @... clause cut out of a script: the byte offset
// where it started and its variable names.
type intoVars struct {
	at    int
	names []string
}

// blankIntoVars blanks every top-level INTO @name list of text.
func blankIntoVars(text string) (string, []intoVars) {
	sc := wordScanner{s: text}
	var found []intoVars
	var spans [][2]int
	depth := 0
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
			depth = 0
		case depth == 0 && strings.EqualFold(w, "INTO"):
			if names, end, ok := scanVarList(&sc); ok {
				found = append(found, intoVars{at: start, names: names})
				spans = append(spans, [2]int{start, end})
			}
		}
	}
}

// scanVarList reads @name [, @name ...] after INTO; on anything else it
// leaves the scanner where it was and reports false.
func scanVarList(sc *wordScanner) (names []string, end int, ok bool) {
	saved := sc.pos
	for {
		if _, at := sc.next(); at != "@" {
			break
		}
		_, name := sc.next()
		if name == "" || name == "@" || name == "," || name == ";" {
			break
		}
		if q := name[0]; q == '`' || q == '\'' || q == '"' {
			name = strings.Trim(name, name[:1])
		}
		names = append(names, strings.ToLower(name))
		end = sc.pos
		next := sc.pos
		if _, comma := sc.next(); comma != "," {
			sc.pos = next
			return names, end, true
		}
	}
	sc.pos = saved
	return nil, 0, false
}

// blankSpans replaces the bytes of spans by blanks, line breaks kept.
func blankSpans(text string, spans [][2]int) string {
	b := []byte(text)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// withIntoVars gives each statement the INTO @... list cut from it and its
// text as written.
func withIntoVars(stmts []Parsed, text string, found []intoVars) []Parsed {
	for _, f := range found {
		for i := range stmts {
			p := &stmts[i]
			if f.at < p.start || f.at >= p.end {
				continue
			}
			p.into = append(p.into, f.names...)
			p.retext(text)
		}
	}
	return stmts
}

// selectIntoVars binds SELECT ... INTO @a, @b.
func (b *binder) selectIntoVars(n ast.StmtNode, names []string) (Statement, error) {
	switch s := n.(type) {
	case *ast.SelectStmt:
		if s.SelectIntoOpt != nil {
			return nil, b.errf(b.start, "a SELECT has one INTO clause (variables or OUTFILE, not both)")
		}
	case *ast.SetOprStmt:
	default:
		return nil, b.errf(b.start, "INTO @%s belongs to a SELECT", names[0])
	}
	if b.vars == nil {
		return nil, b.errf(b.start, "unsupported: user variables (@%s) outside a connection", names[0])
	}
	q, err := b.topQuery(n)
	if err != nil {
		return nil, err
	}
	if len(q.Names) != len(names) {
		return nil, b.errCode(b.start, ErWrongNumberOfColumns, "The used SELECT statements have a different number of columns")
	}
	return &SelectIntoVars{Query: q, Names: names, Vars: b.vars}, nil
}
