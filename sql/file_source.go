package sql

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Files in FROM, as in DuckDB:
//
//	SELECT ... FROM read_csv('f.csv' [, header=false, delim='|', quote='"',
//	                nullstr='NA', columns={'a': 'INT', 'b': 'VARCHAR(10)'}])
//	SELECT ... FROM read_parquet('data/*.parquet')
//	SELECT ... FROM 'f.csv'          -- or "f.parquet": by the extension
//
// TiDB's parser has no table functions and no string in FROM, so before
// parsing each such source — the word read_csv / read_parquet with its
// argument list, or a quoted string, right after FROM, JOIN or a ',' of a
// FROM list — is replaced in place by a backquoted marker name,
// `\x01N`, padded with blanks (line breaks kept, so every position after
// it stays where it was). No table can be named so by accident: the name
// starts with a control character. The binder turns the marker back into
// the N-th source and binds it to a temporary table loaded through the
// ordinary loaders (columnar.ReadCSV / ReadParquet), so the planner and
// both executors see a plain table scan.

// fileMarker starts the name of a file-source marker.
const fileMarker = "\x01"

// fileSource is one file read in a FROM clause.
type fileSource struct {
	fn   string // "read_csv", "read_parquet" or "" for a bare path
	path string
	// text is the source as written (a view stores it in place of the
	// marker).
	text string
	pos  int // offset of the source in the script
	opts []copyOption
	// columns are the name/type pairs of columns={...}, in order.
	columns [][2]string
	errPos  int
	errMsg  string
}

// fromKeywords start or continue a FROM list (the next token may be a
// source); clauseKeywords end it.
var (
	fromKeywords   = map[string]bool{"FROM": true, "JOIN": true}
	clauseKeywords = map[string]bool{"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true,
		"LIMIT": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "SET": true, "VALUES": true, "ON": true,
		"USING": true, "WINDOW": true, "INTO": true, "WITH": true}
)

// fromState is what markFileSources knows of one parenthesis level: a
// SELECT was seen (so FROM starts a FROM list: in EXTRACT(YEAR FROM 'd')
// or TRIM(x FROM 's') it does not), and whether a FROM list is open.
type fromState struct{ sel, inFrom bool }

// markFileSources replaces the file sources of text by marker names.
func markFileSources(text string) (string, []fileSource) {
	var out []fileSource
	var b []byte
	sc := wordScanner{s: text}
	st := []fromState{{}}
	prev := ""
	for {
		pos, w := sc.next()
		if w == "" {
			break
		}
		u := strings.ToUpper(w)
		top := &st[len(st)-1]
		atSource := top.sel && (fromKeywords[prev] || prev == "," && top.inFrom)
		switch {
		case atSource && (w[0] == '\'' || w[0] == '"'):
			path, _ := unquoteStandard(w)
			out = append(out, fileSource{path: path, pos: pos, text: text[pos:sc.pos]})
			b = markSource(b, text, pos, sc.pos, len(out)-1)
		case atSource && u == "JSON_TABLE":
			if end, ok := balancedCall(&sc); ok {
				out = append(out, fileSource{fn: "json_table", pos: pos, text: text[pos:end]})
				b = markSource(b, text, pos, end, len(out)-1)
			}
		case atSource && isFileFunction(u):
			save := sc.pos
			if _, p := sc.next(); p == "(" {
				fs := readFileArgs(&sc, strings.ToLower(w), pos)
				fs.text = text[pos:sc.pos]
				out = append(out, fs)
				b = markSource(b, text, pos, sc.pos, len(out)-1)
			} else {
				sc.pos = save
			}
		case w == "(":
			st = append(st, fromState{})
		case w == ")" && len(st) > 1:
			st = st[:len(st)-1]
		case w == ";":
			st = []fromState{{}}
		case u == "SELECT":
			top.sel, top.inFrom = true, false
		case fromKeywords[u]:
			top.inFrom = true
		case clauseKeywords[u]:
			top.inFrom = false
		}
		prev = u
	}
	if b == nil {
		return text, out
	}
	return string(b), out
}

func isFileFunction(u string) bool {
	switch u {
	case "READ_CSV", "READ_CSV_AUTO", "READ_PARQUET", "PARQUET_SCAN":
		return true
	}
	return false
}

// markSource writes the marker of source n over text[start:end] in b (a
// copy of text made on first use). A source too short for its marker is
// left as written; the parser then reports it.
func markSource(b []byte, text string, start, end, n int) []byte {
	marker := "`" + fileMarker + strconv.Itoa(n) + "`"
	if end-start < len(marker) {
		return b
	}
	if b == nil {
		b = []byte(text)
	}
	for i := start; i < end; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	copy(b[start:], marker)
	return b
}

// readFileArgs reads ('path' [, name = value]...) after the '('.
func readFileArgs(sc *wordScanner, fn string, start int) fileSource {
	fs := fileSource{fn: fn, pos: start}
	if fn == "read_csv_auto" {
		fs.fn = "read_csv"
	}
	if fn == "parquet_scan" {
		fs.fn = "read_parquet"
	}
	fail := func(pos int, format string, args ...any) fileSource {
		fs.errPos, fs.errMsg = pos, fmt.Sprintf(format, args...)
		sc.matchParen()
		return fs
	}
	pos, w := sc.next()
	path, ok := unquoteStandard(w)
	if !ok {
		return fail(pos, "%s wants a quoted file name first ('f.csv')", fn)
	}
	fs.path = path
	for {
		pos, w = sc.next()
		switch w {
		case ")":
			return fs
		case ",":
		default:
			return fail(pos, "%s: expected ',' or ')'", fn)
		}
		npos, name := sc.next()
		if name == "" || !isWordByte(name[0]) {
			return fail(npos, "%s wants name = value options", fn)
		}
		if _, eq := sc.next(); eq != "=" {
			return fail(npos, "%s option %s wants = value", fn, name)
		}
		o := copyOption{name: strings.ToUpper(name), pos: npos}
		vpos, v := sc.next()
		switch {
		case v == "{":
			cols, msg := readColumnsStruct(sc)
			if msg != "" {
				return fail(vpos, "%s", msg)
			}
			fs.columns = cols
			o.value = "{...}"
		case v != "" && (v[0] == '\'' || v[0] == '"'):
			o.value, _ = unquoteStandard(v)
			o.quoted = true
		case v != "" && isWordByte(v[0]):
			o.value = v
		default:
			return fail(vpos, "%s option %s has no value", fn, name)
		}
		fs.opts = append(fs.opts, o)
	}
}

// readColumnsStruct reads 'name': 'TYPE', ... } after the '{'.
func readColumnsStruct(sc *wordScanner) ([][2]string, string) {
	var cols [][2]string
	for {
		_, n := sc.next()
		if n == "}" && len(cols) == 0 {
			return cols, ""
		}
		name, ok := unquoteStandard(n)
		if !ok {
			return nil, "columns wants {'name': 'TYPE', ...}"
		}
		if _, colon := sc.next(); colon != ":" {
			return nil, "columns wants {'name': 'TYPE', ...}"
		}
		_, t := sc.next()
		typ, ok := unquoteStandard(t)
		if !ok {
			return nil, "columns wants {'name': 'TYPE', ...} with quoted types"
		}
		cols = append(cols, [2]string{name, typ})
		switch _, sep := sc.next(); sep {
		case ",":
		case "}":
			return cols, ""
		default:
			return nil, "columns wants {'name': 'TYPE', ...}"
		}
	}
}

// fileTable binds marker name to its file source: it reads the files into
// a temporary table (not in the catalog) and scans it.
func (b *binder) fileTable(name, alias string) (Plan, []scopeCol, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(name, fileMarker))
	if err != nil || n < 0 || n >= len(b.files) {
		return nil, nil, b.errf(-1, "unknown file source")
	}
	fs := b.files[n]
	if fs.fn == "json_table" {
		return b.jsonTable(fs, alias) // json_table_bind.go
	}
	if fs.errMsg != "" {
		return nil, nil, b.errf(fs.errPos, "%s", fs.errMsg)
	}
	path := fs.path
	if !filepath.IsAbs(path) && b.dir != "" {
		path = filepath.Join(b.dir, path)
	}
	fn := fs.fn
	if fn == "" {
		fn = "read_csv"
		if strings.HasSuffix(strings.ToLower(fs.path), ".parquet") {
			fn = "read_parquet"
		}
	}
	tableName := filepath.Base(fs.path)
	var t *columnar.Table
	if fn == "read_parquet" {
		if len(fs.opts) > 0 {
			return nil, nil, b.errf(fs.opts[0].pos, "read_parquet takes no options")
		}
		t, err = columnar.ReadParquet(tableName, path)
	} else {
		var opts columnar.SniffOptions
		if opts, err = b.sniffOptions(fs); err != nil {
			return nil, nil, err
		}
		t, err = columnar.ReadCSV(tableName, path, opts)
	}
	if err != nil {
		return nil, nil, b.errf(fs.pos, "%v", err)
	}
	if alias == "" {
		alias = fs.fn
		if alias == "" {
			alias = strings.TrimSuffix(tableName, filepath.Ext(tableName))
		}
	}
	scan := newScan(t, alias)
	names := make([]string, len(scan.Out))
	for i, c := range scan.Out {
		names[i] = c.Name
	}
	return scan, qualify(names, alias), nil
}

// sniffOptions turns read_csv's options into the sniffer's overrides.
func (b *binder) sniffOptions(fs fileSource) (columnar.SniffOptions, error) {
	var so columnar.SniffOptions
	var err error
	for _, o := range fs.opts {
		switch o.name {
		case "HEADER":
			var v bool
			switch strings.ToLower(o.value) {
			case "true", "1":
				v = true
			case "false", "0":
			default:
				return so, b.errf(o.pos, "read_csv option header wants true or false, got '%s'", o.value)
			}
			so.Header = &v
		case "DELIM", "DELIMITER", "SEP":
			so.Delimiter, err = b.oneChar(o.value, "read_csv option "+strings.ToLower(o.name))
		case "QUOTE":
			so.Quote, err = b.oneChar(o.value, "read_csv option quote")
		case "COLUMNS":
			so.Columns, err = b.columnsOption(fs.columns, o.pos)
		case "NULLSTR", "NULL":
			if o.value == "" {
				return so, b.errf(o.pos, "read_csv option nullstr wants a non-empty string")
			}
			so.Null = o.value
		default:
			return so, b.errf(o.pos, "unsupported: read_csv option %s (header, delim, quote, nullstr and columns are supported)", strings.ToLower(o.name))
		}
		if err != nil {
			return so, err
		}
	}
	return so, nil
}

// columnsOption types columns={'a': 'INT', ...} with the CREATE TABLE type
// rules, by parsing the types as a column list.
func (b *binder) columnsOption(cols [][2]string, pos int) ([]columnar.Field, error) {
	if len(cols) == 0 {
		return nil, b.errf(pos, "read_csv columns names no column")
	}
	var defs []string
	for _, c := range cols {
		defs = append(defs, "`"+strings.ReplaceAll(c[0], "`", "``")+"` "+c[1])
	}
	nodes, _, err := parser.New().ParseSQL("CREATE TABLE t (" + strings.Join(defs, ", ") + ")")
	if err != nil || len(nodes) != 1 {
		return nil, b.errf(pos, "read_csv columns: bad type in %v", cols)
	}
	ct := nodes[0].(*ast.CreateTableStmt)
	fields := make([]columnar.Field, len(ct.Cols))
	for i, cd := range ct.Cols {
		t, bad := columnType(cd.Tp)
		if bad != "" {
			return nil, b.errf(pos, "read_csv columns: column %s: unsupported type %s", cols[i][0], bad)
		}
		fields[i] = columnar.Field{Name: cols[i][0], Type: t, Nullable: true}
	}
	return fields, nil
}

// unmarkFiles puts the file sources back in place of their markers in SQL
// restored from an AST (a view's text), so that parsing it again reads the
// same files.
func (b *binder) unmarkFiles(sql string) string {
	for n := len(b.files) - 1; n >= 0; n-- {
		sql = strings.ReplaceAll(sql, "`"+fileMarker+strconv.Itoa(n)+"`", b.files[n].text)
	}
	return sql
}
