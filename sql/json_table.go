package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// JSON_TABLE(doc, path COLUMNS (column, ...)) AS alias in FROM ("JSON
// Table Functions" of the MySQL 8.0 manual), for a document given as a
// string literal:
//
//	column: name FOR ORDINALITY
//	      | name type PATH 'p' [NULL | ERROR | DEFAULT 'v' ON EMPTY] [NULL | ERROR | DEFAULT 'v' ON ERROR]
//	      | name type EXISTS PATH 'p'
//	      | NESTED [PATH] 'p' COLUMNS (column, ...)
//
// The TiDB parser has no table functions, so markFileSources puts a
// marker table name in the call's place (file_source.go); the binder
// evaluates the call then, with internal/mysqljson, into a temporary
// table of the declared column types, which both executors scan as any
// table. Each value the path reaches is a row; a NESTED path joins each
// row to the rows of its own matches (a row with NULLs when it has none),
// sibling NESTED paths one after the other. A value missing at a
// column's path is its ON EMPTY (NULL by default); one that the type
// cannot hold (an array or object in a scalar column, 'abc' in an INT)
// its ON ERROR (NULL). A document from a column of a table before it in
// FROM (MySQL's lateral form) is not supported.

// jtColumn is one column of the COLUMNS list, or a NESTED list.
type jtColumn struct {
	name, typ, path    string
	ordinality, exists bool
	onEmpty, onError   jtOnAction
	nested             []jtColumn
	isNested           bool
	first, width       int // layout: see jtLayout
}

// jtOnAction is an ON EMPTY / ON ERROR clause: "" (NULL), "error" or
// "default" with its value.
type jtOnAction struct {
	kind, value string
}

// jsonTableSpec is a parsed JSON_TABLE call.
type jsonTableSpec struct {
	doc, path string // the document and row path literals as written
	cols      []jtColumn
}

// parseJSONTable reads the text of a JSON_TABLE(...) call.
func parseJSONTable(text string) (jsonTableSpec, error) {
	var s jsonTableSpec
	sc := wordScanner{s: text}
	if _, w := sc.next(); !strings.EqualFold(w, "JSON_TABLE") {
		return s, fmt.Errorf("JSON_TABLE expected")
	}
	if _, w := sc.next(); w != "(" {
		return s, fmt.Errorf("JSON_TABLE wants (doc, path COLUMNS (...))")
	}
	from, depth := sc.pos, 0
	for {
		at, w := sc.next()
		if w == "" || w == ")" && depth == 0 {
			return s, fmt.Errorf("JSON_TABLE wants (doc, path COLUMNS (...))")
		}
		if w == "," && depth == 0 {
			s.doc = strings.TrimSpace(text[from:at])
			break
		}
		depth += map[string]int{"(": 1, ")": -1}[w]
	}
	_, s.path = sc.next()
	cols, err := parseJTColumns(&sc, text)
	if err != nil {
		return s, err
	}
	s.cols = cols
	if _, w := sc.next(); w != ")" {
		return s, fmt.Errorf("JSON_TABLE: ')' expected after COLUMNS (...)")
	}
	return s, nil
}

// parseJTColumns reads COLUMNS (column, ...).
func parseJTColumns(sc *wordScanner, text string) ([]jtColumn, error) {
	if _, w := sc.next(); !strings.EqualFold(w, "COLUMNS") {
		return nil, fmt.Errorf("JSON_TABLE: COLUMNS expected, got %q", w)
	}
	if _, w := sc.next(); w != "(" {
		return nil, fmt.Errorf("JSON_TABLE: '(' expected after COLUMNS")
	}
	var cols []jtColumn
	for {
		c, err := parseJTColumn(sc, text)
		if err != nil {
			return nil, err
		}
		cols = append(cols, c)
		switch _, w := sc.next(); w {
		case ",":
		case ")":
			return cols, nil
		default:
			return nil, fmt.Errorf("JSON_TABLE: ',' or ')' expected after column %s, got %q", c.name, w)
		}
	}
}

// parseJTColumn reads one column definition.
func parseJTColumn(sc *wordScanner, text string) (jtColumn, error) {
	var c jtColumn
	_, name := sc.next()
	if strings.EqualFold(name, "NESTED") {
		save := sc.pos
		if _, w := sc.next(); !strings.EqualFold(w, "PATH") {
			sc.pos = save
		}
		_, c.path = sc.next()
		nested, err := parseJTColumns(sc, text)
		c.isNested, c.nested = true, nested
		return c, err
	}
	c.name = unquoteIdent(name)
	typeFrom := sc.pos
	for depth := 0; ; {
		at, w := sc.next()
		switch {
		case w == "" || w == "," && depth == 0:
			return c, fmt.Errorf("JSON_TABLE: column %s needs PATH, EXISTS PATH or FOR ORDINALITY", c.name)
		case w == "(":
			depth++
		case w == ")":
			depth--
		case depth == 0 && strings.EqualFold(w, "FOR"):
			if _, o := sc.next(); !strings.EqualFold(o, "ORDINALITY") {
				return c, fmt.Errorf("JSON_TABLE: FOR ORDINALITY expected for column %s", c.name)
			}
			c.ordinality, c.typ = true, "INT UNSIGNED"
			return c, nil
		case depth == 0 && (strings.EqualFold(w, "PATH") || strings.EqualFold(w, "EXISTS")):
			c.typ = strings.TrimSpace(text[typeFrom:at])
			if strings.EqualFold(w, "EXISTS") {
				c.exists = true
				if _, p := sc.next(); !strings.EqualFold(p, "PATH") {
					return c, fmt.Errorf("JSON_TABLE: EXISTS PATH expected for column %s", c.name)
				}
			}
			_, c.path = sc.next()
			return c, parseJTOnClauses(sc, &c)
		}
	}
}

// parseJTOnClauses reads the ON EMPTY / ON ERROR clauses of column c.
func parseJTOnClauses(sc *wordScanner, c *jtColumn) error {
	for {
		save := sc.pos
		_, w := sc.next()
		var act jtOnAction
		switch strings.ToUpper(w) {
		case "NULL":
		case "ERROR":
			act.kind = "error"
		case "DEFAULT":
			_, v := sc.next()
			s, ok := literalString(v)
			if !ok {
				return fmt.Errorf("JSON_TABLE: DEFAULT of column %s must be a string literal", c.name)
			}
			act = jtOnAction{kind: "default", value: s}
		default:
			sc.pos = save
			return nil
		}
		_, on := sc.next()
		_, which := sc.next()
		switch {
		case !strings.EqualFold(on, "ON"):
			return fmt.Errorf("JSON_TABLE: ON EMPTY or ON ERROR expected for column %s", c.name)
		case strings.EqualFold(which, "EMPTY"):
			c.onEmpty = act
		case strings.EqualFold(which, "ERROR"):
			c.onError = act
		default:
			return fmt.Errorf("JSON_TABLE: ON EMPTY or ON ERROR expected for column %s", c.name)
		}
	}
}

// literalString is the value of a string literal token, read with
// MySQL's escapes.
func literalString(tok string) (string, bool) {
	if tok == "" || tok[0] != '\'' && tok[0] != '"' {
		return "", false
	}
	stmt, err := parser.New().ParseOneStmt("SELECT "+tok, "", "")
	if err != nil {
		return "", false
	}
	sel, ok := stmt.(*ast.SelectStmt)
	if !ok || len(sel.Fields.Fields) != 1 {
		return "", false
	}
	v, ok := sel.Fields.Fields[0].Expr.(*driver.ValueExpr)
	if !ok {
		return "", false
	}
	return v.GetString(), true
}

// balancedCall moves sc past "( ... )" after a function name; end is the
// offset after the closing parenthesis. On anything else it leaves sc
// where it was.
func balancedCall(sc *wordScanner) (end int, ok bool) {
	save := sc.pos
	if _, w := sc.next(); w != "(" {
		sc.pos = save
		return 0, false
	}
	for depth := 1; depth > 0; {
		_, w := sc.next()
		switch w {
		case "", ";":
			sc.pos = save
			return 0, false
		case "(":
			depth++
		case ")":
			depth--
		}
	}
	return sc.pos, true
}
