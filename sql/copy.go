package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// COPY ... TO is DuckDB's and PostgreSQL's way to write a result to a file:
//
//	COPY (SELECT ...) TO 'out.csv' [[WITH] (FORMAT csv|parquet, HEADER [bool],
//	     DELIMITER 'c', NULL 'str', QUOTE 'c')]
//	COPY table TO 'out.parquet'
//
// TiDB's parser has no COPY statement (COPY is a keyword only in ALTER TABLE
// ... ALGORITHM=COPY), so it is recognized here before parsing, the way
// stored programs are cut out (routines.go): the scanner finds each
// statement starting with the word COPY and blanks the COPY wrapper —
// "COPY (", the closing ")" and "TO 'f' WITH (...)" — but keeps the inner
// query's text where it was, so the TiDB parser parses the query in place
// and its errors keep their lines and columns. COPY table has no query
// text: the statement is blanked whole and binds to SELECT * FROM table.
// The path and option values are SQL-standard string literals ('' is a
// quote; a backslash is an ordinary character, so NULL '\N' means \N).

// copyStmt is one COPY statement found in a script.
type copyStmt struct {
	start, end int // [start, end) of the whole statement, ';' included
	// [query, queryEnd) is the kept inner query's text (query -1 for COPY
	// table).
	query, queryEnd int
	table           string
	// tablePos is the offset of the table name.
	tablePos int
	path     string
	opts     []copyOption
	// errPos and errMsg describe a statement that is not a COPY this
	// recognizer understands; binding it reports the error.
	errPos int
	errMsg string
}

// copyOption is one NAME [value] of the WITH list, value as written
// (string literals unquoted).
type copyOption struct {
	name, value string
	pos         int
	quoted      bool
}

// Copy writes a query's rows to a file: COPY ... TO (Format "csv" or
// "parquet") or MySQL's SELECT ... INTO OUTFILE (Outfile, which refuses to
// overwrite a file). Path is as written; the engine resolves it against the
// script's folder.
type Copy struct {
	Query  *Query
	Path   string
	Format string
	// CSV only: Header writes the column names first; Delimiter separates
	// fields; Quote encloses fields that need it (0: never; a value that
	// would need it is an error); QuoteAll encloses every non-NULL field
	// (MySQL's ENCLOSED BY without OPTIONALLY); Null is the spelling of NULL,
	// written unquoted (a string equal to it is quoted).
	Header    bool
	Delimiter rune
	Quote     rune
	QuoteAll  bool
	Null      string
	Outfile   bool
}

func (*Copy) statement() {}

// blankCopies returns text with each COPY statement blanked except for its
// inner query, and those statements.
func blankCopies(text string) (string, []copyStmt) {
	var out []copyStmt
	sc := wordScanner{s: text}
	for {
		start, w := sc.next()
		if w == "" {
			break
		}
		if w == ";" {
			continue
		}
		if !strings.EqualFold(w, "COPY") {
			sc.statementEnd(false)
			continue
		}
		out = append(out, recognizeCopy(&sc, start))
	}
	if len(out) == 0 {
		return text, nil
	}
	b := []byte(text)
	for _, c := range out {
		for i := c.start; i < c.end; i++ {
			// The kept query keeps the ';' that ends it.
			if c.query >= 0 && (i >= c.query && i < c.queryEnd || i == c.end-1 && b[i] == ';') {
				continue
			}
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b), out
}

// recognizeCopy reads a COPY statement after its first word, leaving sc after
// its ';'.
func recognizeCopy(sc *wordScanner, start int) copyStmt {
	c := copyStmt{start: start, query: -1}
	fail := func(pos int, msg string) copyStmt {
		c.errPos, c.errMsg, c.query = pos, msg, -1
		c.end, _ = sc.statementEnd(false)
		return c
	}
	pos, w := sc.next()
	switch {
	case w == "(":
		c.query = pos + 1
		close := sc.matchParen()
		if close < 0 {
			return fail(pos, "COPY ( query ) is missing its closing parenthesis")
		}
		c.queryEnd = close
	case w != "" && (isWordByte(w[0]) || w[0] == '`'):
		c.table, c.tablePos = strings.Trim(w, "`"), pos
	default:
		return fail(pos, "COPY wants ( query ) or a table name, then TO 'file'")
	}
	pos, w = sc.next()
	if strings.EqualFold(w, "FROM") {
		return fail(pos, "unsupported: COPY ... FROM (use LOAD DATA INFILE, IMPORT INTO or INSERT ... SELECT FROM read_csv(...))")
	}
	if !strings.EqualFold(w, "TO") {
		return fail(pos, "COPY wants TO 'file' after the query or table")
	}
	pos, w = sc.next()
	path, ok := unquoteStandard(w)
	if !ok {
		return fail(pos, "COPY ... TO wants a quoted file name ('out.csv')")
	}
	c.path = path
	save := sc.pos
	_, w = sc.next()
	if strings.EqualFold(w, "WITH") {
		save = sc.pos
		_, w = sc.next()
	}
	if w == "(" {
		opts, epos, msg := readCopyOptions(sc)
		if msg != "" {
			return fail(epos, msg)
		}
		c.opts = opts
	} else {
		sc.pos = save
	}
	endPos, end := sc.next()
	if end != ";" && end != "" {
		return fail(endPos, "unexpected text after COPY ... TO 'file' (options go in parentheses: WITH (FORMAT csv, HEADER))")
	}
	c.end = sc.pos
	return c
}

// matchParen moves past the ')' matching an already read '(' and returns
// its offset, or -1 at the end of the text or a ';' outside parentheses.
func (sc *wordScanner) matchParen() int {
	depth := 1
	for {
		pos, w := sc.next()
		switch w {
		case "":
			return -1
		case ";":
			sc.pos = pos
			return -1
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return pos
			}
		}
	}
}

// readCopyOptions reads NAME [value] {, NAME [value]} ) after '('.
func readCopyOptions(sc *wordScanner) ([]copyOption, int, string) {
	var opts []copyOption
	for {
		pos, w := sc.next()
		if w == ")" && len(opts) == 0 {
			return opts, 0, ""
		}
		if w == "" || !isWordByte(w[0]) {
			return nil, pos, "COPY option list wants NAME [value], ... )"
		}
		o := copyOption{name: strings.ToUpper(w), pos: pos}
		_, v := sc.next()
		if v != "," && v != ")" {
			if s, ok := unquoteStandard(v); ok {
				o.value, o.quoted = s, true
			} else if v != "" && (isWordByte(v[0])) {
				o.value = v
			} else {
				return nil, pos, "COPY option " + o.name + " has a value that is not a word, number or quoted string"
			}
			_, v = sc.next()
		}
		opts = append(opts, o)
		switch v {
		case ",":
		case ")":
			return opts, 0, ""
		default:
			return nil, pos, "COPY option list wants ',' or ')' after " + o.name
		}
	}
}

// unquoteStandard reads a '...' (or "...") literal with SQL-standard
// rules: a doubled quote is one quote, backslashes are ordinary.
func unquoteStandard(w string) (string, bool) {
	if len(w) < 2 || (w[0] != '\'' && w[0] != '"') || w[len(w)-1] != w[0] {
		return "", false
	}
	q := string(w[0])
	return strings.ReplaceAll(w[1:len(w)-1], q+q, q), true
}

// withCopies ties the parsed inner queries to their COPY statements and
// inserts a Parsed for each COPY without one (COPY table, or a COPY the
// recognizer rejected), for those that start before limit.
func withCopies(stmts []Parsed, text string, copies []copyStmt, limit int) []Parsed {
	if len(copies) == 0 {
		return stmts
	}
	out := make([]Parsed, 0, len(stmts)+len(copies))
	k := 0
	for i := range copies {
		c := &copies[i]
		if c.end > limit {
			break // the syntax error is in or before it
		}
		for k < len(stmts) && stmts[k].start < c.start {
			out = append(out, stmts[k])
			k++
		}
		body := strings.TrimRightFunc(strings.TrimSuffix(strings.TrimRightFunc(text[c.start:c.end], isSpace), ";"), isSpace)
		line, _ := lineCol(text, c.start)
		p := Parsed{Text: body, Line: line, src: text, start: c.start, copy: c}
		if c.query >= 0 && k < len(stmts) && stmts[k].start < c.end {
			p.Node = stmts[k].Node
			k++
		}
		out = append(out, p)
	}
	return append(out, stmts[k:]...)
}

// copyStatement binds a recognized COPY statement.
func (b *binder) copyStatement(p Parsed) (Statement, error) {
	c := p.copy
	if c.errMsg != "" {
		return nil, b.errf(c.errPos, "%s", c.errMsg)
	}
	var q *Query
	var err error
	switch {
	case c.query >= 0:
		switch p.Node.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt:
		default:
			return nil, b.errf(c.query, "COPY ( ... ) takes a query (SELECT, TABLE or a set operation)")
		}
		q, err = b.topQuery(p.Node)
	default:
		q, err = b.copyTable(c)
	}
	if err != nil {
		return nil, err
	}
	st := &Copy{Query: q, Path: c.path, Format: "csv", Header: true, Delimiter: ',', Quote: '"', Null: `\N`}
	if strings.HasSuffix(strings.ToLower(c.path), ".parquet") {
		st.Format = "parquet"
	}
	for _, o := range c.opts {
		if err := b.copyOption(st, o); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// copyTable binds COPY table as SELECT * FROM table.
func (b *binder) copyTable(c *copyStmt) (*Query, error) {
	_, isTable := b.cat.Table(c.table)
	_, isView := b.cat.View(c.table)
	if !isTable && !isView {
		return nil, b.errCode(c.tablePos, ErNoSuchTable, "Table '%s.%s' doesn't exist", DatabaseName, c.table)
	}
	nodes, _, err := parser.New().ParseSQL("SELECT * FROM `" + strings.ReplaceAll(c.table, "`", "``") + "`")
	if err != nil || len(nodes) != 1 {
		return nil, b.errCode(c.tablePos, ErWrongTableName, "Incorrect table name '%s'", c.table)
	}
	return b.topQuery(nodes[0])
}

func (b *binder) copyOption(st *Copy, o copyOption) error {
	boolValue := func() (bool, error) {
		switch strings.ToLower(o.value) {
		case "", "true", "1", "on":
			return true, nil
		case "false", "0", "off":
			return false, nil
		}
		return false, b.errf(o.pos, "COPY option %s wants true or false, got '%s'", o.name, o.value)
	}
	oneChar := func() (rune, error) { return b.oneChar(o.value, "COPY option "+o.name) }
	var err error
	switch o.name {
	case "FORMAT":
		switch f := strings.ToLower(o.value); f {
		case "csv", "parquet":
			st.Format = f
		default:
			return b.errf(o.pos, "unsupported: COPY FORMAT '%s' (csv and parquet are supported)", o.value)
		}
	case "HEADER":
		st.Header, err = boolValue()
	case "DELIMITER", "DELIM", "SEP":
		st.Delimiter, err = oneChar()
	case "QUOTE":
		if o.value == "" && o.quoted {
			st.Quote = 0
		} else {
			st.Quote, err = oneChar()
		}
	case "NULL", "NULLSTR":
		if !o.quoted {
			return b.errf(o.pos, "COPY option %s wants a quoted string (NULL '\\N')", o.name)
		}
		st.Null = o.value
	case "COMPRESSION":
		// Parquet pages are Snappy-compressed; other codecs are not offered.
		if !strings.EqualFold(o.value, "snappy") {
			return b.errf(o.pos, "unsupported: COPY COMPRESSION '%s' (snappy is supported)", o.value)
		}
	default:
		return b.errf(o.pos, "unsupported: COPY option %s (FORMAT, HEADER, DELIMITER, NULL, QUOTE and COMPRESSION are supported)", o.name)
	}
	return err
}

// intoOutfile binds SELECT ... INTO OUTFILE 'f' [FIELDS [TERMINATED BY 'c']
// [[OPTIONALLY] ENCLOSED BY 'q']] [LINES TERMINATED BY '\n'] with MySQL's
// defaults: tab-separated, no header, nothing enclosed, NULL as \N. MySQL
// backslash-escapes a tab or line break inside a value; LOAD DATA here does
// not read escapes back, so such a value is an error naming its row and
// column unless the fields are ENCLOSED BY a quote, which round-trips.
func (b *binder) intoOutfile(s *ast.SelectStmt) (Statement, error) {
	into := s.SelectIntoOpt
	if into.Tp != ast.SelectIntoOutfile {
		return nil, b.errf(-1, "unsupported: SELECT ... INTO DUMPFILE (INTO OUTFILE and INTO @var are supported)")
	}
	st := &Copy{Path: into.FileName, Format: "csv", Delimiter: '\t', Null: `\N`, Outfile: true}
	var err error
	if fi := into.FieldsInfo; fi != nil {
		if fi.Terminated != nil {
			if st.Delimiter, err = b.oneChar(*fi.Terminated, "FIELDS TERMINATED BY"); err != nil {
				return nil, err
			}
		}
		if fi.Enclosed != nil && *fi.Enclosed != "" {
			if st.Quote, err = b.oneChar(*fi.Enclosed, "ENCLOSED BY"); err != nil {
				return nil, err
			}
			st.QuoteAll = !fi.OptEnclosed
		}
		if fi.Escaped != nil && *fi.Escaped != "\\" && *fi.Escaped != "" {
			return nil, b.errf(-1, "unsupported: FIELDS ESCAPED BY '%s'", *fi.Escaped)
		}
		if fi.DefinedNullBy != nil {
			st.Null = *fi.DefinedNullBy
		}
	}
	if li := into.LinesInfo; li != nil {
		if li.Starting != nil && *li.Starting != "" {
			return nil, b.errf(-1, "unsupported: LINES STARTING BY")
		}
		if li.Terminated != nil && *li.Terminated != "\n" {
			return nil, b.errf(-1, "unsupported: LINES TERMINATED BY other than '\\n'")
		}
	}
	s.SelectIntoOpt = nil
	q, err := b.topQuery(s)
	s.SelectIntoOpt = into
	if err != nil {
		return nil, err
	}
	st.Query = q
	return st, nil
}
