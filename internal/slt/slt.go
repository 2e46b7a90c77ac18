// Package slt reads and writes SQL logic test files (the sqllogictest format
// of SQLite, as DuckDB and CockroachDB use it) and compares a query's rows
// with the expected ones. It knows nothing about gpusql: the engine's runner
// (engine/slt_test.go) and the SQLite oracle (oracle_test.go) both drive
// their database through it, so the two read a file the same way.
//
// The format is described in testdata/slt/README.md.
package slt

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Kind is what a record asks for.
type Kind uint8

const (
	Statement Kind = iota + 1 // run SQL; expect success or an error
	Query                     // run SQL; compare its rows
	Halt                      // stop reading the file
	// Invalid is a classic file's record of an unknown type, kept so a
	// runner counts it as a failure and stops there, as sqllogictest does
	// (a repository file with one does not parse).
	Invalid
)

// Record is one test: a statement or a query with its expectation.
type Record struct {
	Kind Kind
	// Line is the 1-based line of the record's header in the file.
	Line int
	SQL  string
	// SQLLine is the 1-based line where SQL starts in the file.
	SQLLine int
	// ExpectError with ErrorSubstr ("" = any error) for "statement error".
	ExpectError bool
	ErrorSubstr string
	// Types has one letter per result column: I integer, R real (printed
	// with 3 decimals), T text (printed as the engine prints it).
	Types string
	// Sort is "nosort", "rowsort" or "valuesort".
	Sort string
	// Expected are the lines after "----" (a query's rows).
	Expected []string
	// Label ties classic records that must give the same answer
	// ("label-12"); kept for messages only.
	Label string
	// HashThreshold is the file's "hash-threshold N" in effect at this
	// record: results of more than N values are written (and may be
	// expected) as "V values hashing to MD5". 0 = never.
	HashThreshold int
	// OneValuePerLine: the expected block lists one value per line, never
	// a row split by spaces (classic sqllogictest files, which say
	// hash-threshold; their text values may hold spaces).
	OneValuePerLine bool
	// SkipIf and OnlyIf name engines ("gpusql", "sqlite", "mysql", ...)
	// the record is skipped on / restricted to.
	SkipIf, OnlyIf []string
	// resultStart..resultEnd are the 0-based file lines of the expected
	// block, header "----" included (resultStart = -1: none), for rewriting.
	resultStart, resultEnd int
}

// File is a parsed test file.
type File struct {
	Path    string
	Records []*Record
	lines   []string
}

// Skipped reports whether the record does not apply to an engine known by
// the given names: gpusql answers to "gpusql" and "mysql" (it follows MySQL
// 8, so classic files' "onlyif mysql" records are its records), SQLite to
// "sqlite".
func (r *Record) Skipped(names ...string) bool {
	for _, e := range r.SkipIf {
		if slices.Contains(names, e) {
			return true
		}
	}
	if len(r.OnlyIf) == 0 {
		return false
	}
	for _, e := range r.OnlyIf {
		if slices.Contains(names, e) {
			return false
		}
	}
	return true
}

// ParseFile reads a test file.
func ParseFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, string(b))
}

// Parse reads a test file's text; records are separated by blank lines.
func Parse(path, text string) (*File, error) {
	f := &File{Path: path}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		f.lines = append(f.lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var skipIf, onlyIf []string
	threshold, classic := 0, false
	lines := f.lines
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch fields[0] {
		case "skipif", "onlyif":
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: %s needs an engine name", path, i+1, fields[0])
			}
			if fields[0] == "skipif" {
				skipIf = append(skipIf, fields[1])
			} else {
				onlyIf = append(onlyIf, fields[1])
			}
			continue
		case "hash-threshold":
			n, err := strconv.Atoi(strings.Join(fields[1:2], ""))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s:%d: hash-threshold needs a count", path, i+1)
			}
			threshold, classic = n, true
			continue
		case "mode":
			continue
		case "halt":
			f.Records = append(f.Records, &Record{Kind: Halt, Line: i + 1, SkipIf: skipIf, OnlyIf: onlyIf, resultStart: -1})
			skipIf, onlyIf = nil, nil
			continue
		case "statement", "query":
		default:
			if !classic {
				return nil, fmt.Errorf("%s:%d: unknown directive %q", path, i+1, fields[0])
			}
			f.Records = append(f.Records, &Record{Kind: Invalid, Line: i + 1, SQL: line,
				SkipIf: skipIf, OnlyIf: onlyIf, resultStart: -1})
			skipIf, onlyIf = nil, nil
			for ; i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != ""; i++ {
			}
			continue
		}
		r := &Record{Line: i + 1, SkipIf: skipIf, OnlyIf: onlyIf, Sort: "nosort", resultStart: -1,
			HashThreshold: threshold, OneValuePerLine: classic}
		skipIf, onlyIf = nil, nil
		if fields[0] == "statement" {
			r.Kind = Statement
			switch {
			case len(fields) >= 2 && fields[1] == "ok":
			case len(fields) >= 2 && fields[1] == "error":
				r.ExpectError = true
				r.ErrorSubstr = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line[len("statement"):]), "error"))
			default:
				return nil, fmt.Errorf("%s:%d: want 'statement ok' or 'statement error [text]'", path, i+1)
			}
		} else {
			r.Kind = Query
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: query needs column types (I, R, T)", path, i+1)
			}
			r.Types = fields[1]
			for _, c := range r.Types {
				if c != 'I' && c != 'R' && c != 'T' {
					return nil, fmt.Errorf("%s:%d: column type %q is not I, R or T", path, i+1, c)
				}
			}
			// Then an optional sort mode and an optional label (any word
			// after the sort mode, as sqllogictest reads its fourth
			// token); "#" starts a comment.
			words := fields[2:]
			for k, w := range words {
				if strings.HasPrefix(w, "#") {
					words = words[:k]
					break
				}
			}
			if len(words) > 0 && strings.HasPrefix(words[0], "label-") {
				words = append([]string{"nosort"}, words...)
			}
			if len(words) > 0 {
				switch words[0] {
				case "nosort", "rowsort", "valuesort":
					r.Sort = words[0]
				default:
					return nil, fmt.Errorf("%s:%d: unknown sort mode %q", path, i+1, words[0])
				}
			}
			if len(words) > 1 {
				r.Label = words[1]
			}
			if len(words) > 2 {
				return nil, fmt.Errorf("%s:%d: unexpected %q after the label", path, i+1, words[2])
			}
		}
		// SQL runs to a blank line or "----".
		var sqlLines []string
		i++
		r.SQLLine = i + 1
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----"; i++ {
			sqlLines = append(sqlLines, lines[i])
		}
		r.SQL = strings.Join(sqlLines, "\n")
		if r.SQL == "" {
			return nil, fmt.Errorf("%s:%d: record has no SQL", path, r.Line)
		}
		if i < len(lines) && lines[i] == "----" {
			r.resultStart = i
			i++
			for ; i < len(lines) && lines[i] != ""; i++ {
				r.Expected = append(r.Expected, lines[i])
			}
			r.resultEnd = i
			if r.Kind == Statement {
				// DuckDB style: the expected error text follows "----".
				if !r.ExpectError {
					return nil, fmt.Errorf("%s:%d: only 'statement error' takes a result block", path, r.Line)
				}
				r.ErrorSubstr = strings.TrimSpace(strings.Join(r.Expected, "\n"))
			}
		}
		f.Records = append(f.Records, r)
	}
	return f, nil
}

// Cell is one value as an engine returns it, in a form every column type
// letter can render: Text is the engine's own rendering, Num the value as a
// number when it is one.
type Cell struct {
	Null  bool
	Text  string
	Num   float64
	IsNum bool
}

// Render prints a cell for column type letter ty.
func Render(ty byte, c Cell) string {
	if c.Null {
		return "NULL"
	}
	switch ty {
	case 'I':
		if c.IsNum {
			if isInteger(c.Text) {
				return c.Text
			}
			return fmt.Sprintf("%d", int64(c.Num))
		}
	case 'R':
		if c.IsNum {
			return formatReal(c.Num)
		}
	}
	if c.Text == "" {
		return "(empty)"
	}
	return c.Text
}

func formatReal(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	if s == "-0.000" {
		s = "0.000"
	}
	return s
}

// RenderClassic prints a cell the way classic sqllogictest's drivers do
// (sqlite3_column_int/_double/_text, ODBC's SQL_C_SLONG/DOUBLE/CHAR): I and
// R convert text to the number its leading characters spell (0 when none),
// so '12abc' in an I column reads 12, and T prints bytes outside ' '..'~'
// as '@'. The repository's own files keep Render's stricter form, which
// shows a text value in an I column as it is.
func RenderClassic(ty byte, c Cell) string {
	switch {
	case c.Null || c.IsNum:
	case ty == 'I':
		return fmt.Sprintf("%d", int64(leadingNumber(c.Text, true)))
	case ty == 'R':
		return formatReal(leadingNumber(c.Text, false))
	case ty == 'T':
		return printable(Render(ty, c))
	}
	return Render(ty, c)
}

// leadingNumber reads the number at the start of s (after blanks), as C's
// atol (integer) or atof do; 0 when s does not start with one.
func leadingNumber(s string, integer bool) float64 {
	s = strings.TrimLeft(s, " \t\n\r")
	end := 0
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	digits := func() {
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
	}
	digits()
	if !integer {
		if end < len(s) && s[end] == '.' {
			end++
			digits()
		}
		if e := end; e < len(s) && (s[e] == 'e' || s[e] == 'E') {
			end++
			if end < len(s) && (s[end] == '+' || s[end] == '-') {
				end++
			}
			start := end
			digits()
			if end == start {
				end = e
			}
		}
	}
	for ; end > 0; end-- {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return f
		}
	}
	return 0
}

func isInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Format renders rows for a query record and orders them by its sort mode:
// the lines to compare with (or write as) the expected block.
func Format(r *Record, rows [][]Cell) ([]string, error) {
	var out [][]string
	for _, row := range rows {
		if len(row) != len(r.Types) {
			return nil, fmt.Errorf("query returned %d columns, the record declares %d (%s)", len(row), len(r.Types), r.Types)
		}
		vals := make([]string, len(row))
		for j, c := range row {
			if r.OneValuePerLine {
				vals[j] = RenderClassic(r.Types[j], c)
			} else {
				vals[j] = Render(r.Types[j], c)
			}
		}
		out = append(out, vals)
	}
	return order(r.Sort, out), nil
}

// printable replaces each byte outside ' '..'~' by '@', as classic
// sqllogictest prints text (so a file stays 7-bit and one value per line).
func printable(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < ' ' || c > '~' {
			b[i] = '@'
		}
	}
	return string(b)
}

// order applies a sort mode to rendered rows and joins each row by tabs.
func order(mode string, rows [][]string) []string {
	var lines []string
	switch mode {
	case "valuesort":
		for _, row := range rows {
			lines = append(lines, row...)
		}
		slices.Sort(lines)
		return lines
	case "rowsort":
		for _, row := range rows {
			lines = append(lines, strings.Join(row, "\t"))
		}
		slices.Sort(lines)
		return lines
	}
	for _, row := range rows {
		lines = append(lines, strings.Join(row, "\t"))
	}
	return lines
}

// ExpectedRows normalizes the expected block the way Format renders actual
// rows, so hand-written files may list one value per line (classic
// sqllogictest), one row per line with tabs (DuckDB), or one row per line
// with single spaces when no value holds a space.
func ExpectedRows(r *Record) []string {
	n := len(r.Types)
	var vals []string
	for _, line := range r.Expected {
		switch {
		case strings.Contains(line, "\t"):
			vals = append(vals, strings.Split(line, "\t")...)
		case n > 1 && !r.OneValuePerLine && len(strings.Fields(line)) == n:
			vals = append(vals, strings.Fields(line)...)
		default:
			vals = append(vals, line)
		}
	}
	if r.Sort == "valuesort" || n == 0 {
		return order("valuesort", [][]string{vals})
	}
	var rows [][]string
	for i := 0; i < len(vals); i += n {
		rows = append(rows, vals[i:min(i+n, len(vals))])
	}
	return order(r.Sort, rows)
}

// Diff compares actual lines (from Format) with the record's expectation and
// describes the first difference; "" when they agree.
func Diff(r *Record, actual []string) string {
	if n, hash, ok := expectedHash(r); ok {
		vals := values(r, actual)
		if got := HashValues(vals); len(vals) != n || got != hash {
			return fmt.Sprintf("%d values hashing to %s, want %d values hashing to %s; got %s",
				len(vals), got, n, hash, preview(vals))
		}
		return ""
	}
	want := ExpectedRows(r)
	for i := 0; i < max(len(want), len(actual)); i++ {
		switch {
		case i >= len(want):
			return fmt.Sprintf("%d rows, want %d; first extra row %d: %q", len(actual), len(want), i+1, actual[i])
		case i >= len(actual):
			return fmt.Sprintf("%d rows, want %d; first missing row %d: %q", len(actual), len(want), i+1, want[i])
		case want[i] != actual[i]:
			return fmt.Sprintf("row %d: got %q, want %q", i+1, actual[i], want[i])
		}
	}
	return ""
}

// SetResult replaces a query record's expected block (for -update), as a
// hash line where the result has more values than the record's threshold.
func (r *Record) SetResult(lines []string) {
	if vals := values(r, lines); r.HashThreshold > 0 && len(vals) > r.HashThreshold {
		lines = []string{fmt.Sprintf("%d values hashing to %s", len(vals), HashValues(vals))}
	}
	r.Expected = append([]string(nil), lines...)
}

// Write rewrites the file with every query record's current Expected block,
// keeping everything else as it was.
func (f *File) Write() error {
	var out []string
	next := 0
	for _, r := range f.Records {
		if r.Kind != Query {
			continue
		}
		start, end := r.resultStart, r.resultEnd
		if start < 0 {
			// No block yet: insert one after the SQL.
			start = r.SQLLine - 1 + strings.Count(r.SQL, "\n") + 1
			end = start
		}
		out = append(out, f.lines[next:start]...)
		out = append(out, "----")
		out = append(out, r.Expected...)
		next = end
	}
	out = append(out, f.lines[next:]...)
	text := strings.Join(out, "\n")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return os.WriteFile(f.Path, []byte(text), 0o644)
}
