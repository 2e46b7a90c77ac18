package sql

import "strings"

// A derived table may name its columns: SELECT * FROM (SELECT 1, 2) AS dt
// (a, b), and (VALUES ROW(1, 'x')) AS v (n, s) (MySQL 8.0.19; "Derived
// Tables" in the MySQL 8.0 manual). The TiDB parser has no grammar for
// the list, so before parsing every ") AS name (col, ...)" whose list
// holds only identifiers is blanked (offsets and lines stay) and kept
// with its statement; the binder then names the derived table's columns
// by it. Only the AS form is read: without AS, ") name (" is too close
// to other SQL to tell apart by its words.

// derivedColumns is one such list: the byte offset of its AS, the alias
// (lower case) and the names.
type derivedColumns struct {
	at    int
	alias string
	cols  []string
}

// blankDerivedColumns blanks the column lists of derived tables in text.
func blankDerivedColumns(text string) (string, []derivedColumns) {
	sc := wordScanner{s: text}
	var found []derivedColumns
	var spans [][2]int
	prev := ""
	for {
		start, w := sc.next()
		if w == "" {
			if len(found) == 0 {
				return text, nil
			}
			return blankSpans(text, spans), found
		}
		if prev == ")" && strings.EqualFold(w, "AS") {
			if dc, from, end, ok := scanDerivedColumns(&sc); ok {
				dc.at = start
				found = append(found, dc)
				spans = append(spans, [2]int{from, end})
			}
		}
		prev = w
	}
}

// scanDerivedColumns reads name (col, ...) after AS; on anything else it
// leaves the scanner where it was and reports false. [from, end) is the
// list, parentheses included.
func scanDerivedColumns(sc *wordScanner) (dc derivedColumns, from, end int, ok bool) {
	saved := sc.pos
	defer func() {
		if !ok {
			sc.pos = saved
		}
	}()
	_, name := sc.next()
	if name == "" || !isWordByte(name[0]) && name[0] != '`' || isDigitByte(name[0]) || notAlias[strings.ToUpper(name)] {
		return dc, 0, 0, false
	}
	dc.alias = strings.ToLower(unquoteIdent(name))
	from, open := sc.next()
	if open != "(" {
		return dc, 0, 0, false
	}
	for {
		_, c := sc.next()
		if c == "" || !isWordByte(c[0]) && c[0] != '`' || isDigitByte(c[0]) {
			return dc, 0, 0, false
		}
		dc.cols = append(dc.cols, unquoteIdent(c))
		_, sep := sc.next()
		if sep == ")" {
			return dc, from, sc.pos, true
		}
		if sep != "," {
			return dc, 0, 0, false
		}
	}
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// notAlias are the words after ") AS" that start a query or a type, not
// an alias: CREATE VIEW v (c) AS SELECT (a) FROM t keeps its (a).
var notAlias = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true, "ROW": true}

// withDerivedColumns gives each statement the column lists cut out of it.
func withDerivedColumns(stmts []Parsed, found []derivedColumns) []Parsed {
	for _, f := range found {
		for i := range stmts {
			if p := &stmts[i]; f.at >= p.start && f.at < p.end {
				p.derivedCols = append(p.derivedCols, f)
			}
		}
	}
	return stmts
}

// derivedNames are the column names of derived table alias: its list
// when the statement gave one, else names as they are. A list of another
// length is MySQL's error 1353.
func (b *binder) derivedNames(alias string, names []string) ([]string, error) {
	for _, dc := range b.derivedCols {
		if dc.alias != strings.ToLower(alias) {
			continue
		}
		if len(dc.cols) != len(names) {
			return nil, b.errCode(-1, ErViewWrongList, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
		}
		return dc.cols, nil
	}
	return names, nil
}

// uniqueDerivedNames is MySQL's error 1060 for a derived table or common
// table expression two of whose columns share a name, compared without
// case (SELECT * FROM (SELECT a, a FROM t) AS d, or (SELECT 1, 1) AS d):
// MySQL refuses the definition even where no query reads the column,
// as it does a view's (view.go).
func (b *binder) uniqueDerivedNames(alias string, names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		k := strings.ToLower(n)
		if seen[k] {
			return b.errCode(b.wordPos(alias, -1), ErDupFieldName, "Duplicate column name '%s'", n)
		}
		seen[k] = true
	}
	return nil
}
