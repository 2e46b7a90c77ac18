package sql

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	// The parser needs a driver for literal values; the test driver keeps
	// literals as plain Go values, which is all the binder reads.
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// Parsed is one statement of a script.
type Parsed struct {
	Node ast.StmtNode
	// Text is the statement as written, without surrounding whitespace,
	// leading comments or the terminating ';'.
	Text string
	// Line is the 1-based line of the statement's first token in the text
	// given to Parse.
	Line int

	// src is the whole text given to Parse: AST offsets are positions in it,
	// so errors can name absolute lines and columns.
	src string
	// start is the byte offset of Text in src; end is where the statement
	// ends in src, its ';' and blanks included (Text may stop earlier: a
	// file source's marker is followed by blanks).
	start, end int
	// routine names a stored-program statement (CREATE TRIGGER, ...) that
	// was cut out of the script unparsed (routines.go); Node is nil.
	routine string
	// Dir is the folder relative file names in the statement resolve
	// against (read_csv('f.csv')); the engine sets it to the script's.
	Dir string
	// ExactDecimals binds SUM and AVG of integers and narrow DECIMALs,
	// and arithmetic on narrow DECIMALs, as MySQL types them (wideSumType,
	// wideArith): what the engine rebinds a statement with when a value
	// overflowed the engine's int64 types (exec.ErrExactOverflow).
	ExactDecimals bool
	// files are the script's file sources (file_source.go), which marker
	// table names in Node index.
	files []fileSource
	// copy is the COPY statement this one is (copy.go); Node is its inner
	// query, or nil.
	copy *copyStmt
	// soundsLike marks a statement whose ILIKE are SOUNDS LIKE
	// (sounds_like.go).
	soundsLike bool
	// likeEscapes are the multibyte LIKE escape characters by the byte
	// that stands for each in the parsed text (like_escape_multibyte.go).
	likeEscapes map[byte]string
	// into are the user variables of its SELECT ... INTO @a, @b, cut out
	// of the text before parsing (select_into_vars.go).
	into []string
	// rowAlias is its INSERT ... AS new ON DUPLICATE KEY UPDATE's row
	// alias, cut out of the text before parsing (insert_row_alias.go).
	rowAlias *rowAlias
	// derivedCols are its derived tables' column lists, cut out of the
	// text before parsing (derived_columns.go).
	derivedCols []derivedColumns
}

// Parse splits text into statements and parses them with the TiDB parser
// (MySQL dialect). A syntax error is an *Error at the offending token; the
// statements before the failing one are returned with it, so a script runner
// can choose to run them first (as the mysql client does) or not at all.
func Parse(text string) (stmts []Parsed, err error) {
	defer func() {
		if r := recover(); r != nil {
			stmts, err = nil, &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("internal parser error: %v", r)}
		}
	}()
	return parse(text)
}

func parse(text string) ([]Parsed, error) {
	blanked, routines := blankRoutines(text)
	blanked, copies := blankCopies(blanked)
	blanked, into := blankIntoVars(blanked)
	blanked, aliases := blankRowAliases(blanked)
	blanked, derived := blankDerivedColumns(blanked)
	beforeJSONValues := blanked
	blanked, jsonValues := blankJSONValueClauses(blanked)
	blanked, files := markFileSources(blanked)
	unmarked := blanked
	blanked, sounds := markSoundsLike(blanked)
	blanked, escapes := markLikeEscapes(blanked)
	blanked, tree := markExplainTree(blanked)
	blanked, showLimits := blankShowLimits(blanked)
	// restore gives the parsed statements (those before limit) what the
	// passes above cut out or marked, and their text as written.
	restore := func(stmts []Parsed, limit int) []Parsed {
		stmts = withRoutines(withCopies(stmts, text, copies, limit), text, routines, limit)
		stmts = withIntoVars(withFiles(stmts, text, files), text, into)
		stmts = withLikeEscapes(withSoundsLike(stmts, text, unmarked, sounds), text, unmarked, escapes)
		stmts = withJSONValueClauses(withDerivedColumns(withRowAliases(stmts, aliases), derived), jsonValues, beforeJSONValues)
		return withShowLimits(withExplainTree(stmts, text, tree), text, showLimits)
	}
	p := parser.New()
	nodes, err := parseSQL(p, blanked)
	if perr, ok := err.(*Error); ok {
		return nil, perr
	}
	if err != nil {
		perr := syntaxError(blanked, err)
		before := parsedPrefix(p, blanked, perr)
		perr = multiUpdateOrder(p, blanked, before, perr)
		limit := offsetOf(blanked, perr.Line, perr.Col)
		return restore(before, limit), perr
	}
	return restore(splitParsed(blanked, nodes), len(text)), nil
}

// withFiles gives every statement the script's file sources, and those
// that read files their text as written rather than with markers.
func withFiles(stmts []Parsed, text string, files []fileSource) []Parsed {
	if len(files) == 0 {
		return stmts
	}
	for i := range stmts {
		p := &stmts[i]
		p.files = files
		p.retext(text)
	}
	return stmts
}

// retext sets p's Text to its statement cut from text, a form of the
// source (markers put in or taken out) that holds it at p's offsets.
func (p *Parsed) retext(text string) {
	if p.end > p.start && p.end <= len(text) {
		p.Text = statementBody(text[p.start:p.end])
	}
}

// statementBody is a statement's text without its trailing blanks and ';'.
func statementBody(s string) string {
	return strings.TrimRightFunc(strings.TrimSuffix(strings.TrimRightFunc(s, isSpace), ";"), isSpace)
}

// parseSQL runs the TiDB parser, turning its one known panic into an
// error: the test driver panics on integer literals too long for its decimal
// type (about 80 digits).
func parseSQL(p *parser.Parser, text string) (nodes []ast.StmtNode, err error) {
	defer func() {
		if r := recover(); r != nil {
			nodes = nil
			off := longDigitRun(text)
			line, col := lineCol(text, off)
			err = &Error{Line: line, Col: col, Msg: "unsupported: numeric literal too long"}
		}
	}()
	nodes, _, err = p.ParseSQL(text)
	return nodes, err
}

func longDigitRun(s string) int {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			run++
			if run > 60 {
				return i - run + 1
			}
		} else {
			run = 0
		}
	}
	return 0
}

// splitParsed locates each statement's text in src. The parser hands each
// statement the text from the end of the previous one (leading comments and
// whitespace included), so the texts appear in src in order.
func splitParsed(src string, nodes []ast.StmtNode) []Parsed {
	out := make([]Parsed, 0, len(nodes))
	cursor := 0
	for _, n := range nodes {
		txt := n.Text()
		start := cursor
		if i := strings.Index(src[cursor:], txt); i >= 0 && txt != "" {
			start = cursor + i
			cursor = start + len(txt)
		}
		lead := skipSpaceAndComments(txt)
		body := statementBody(txt[lead:])
		line, _ := lineCol(src, start+lead)
		out = append(out, Parsed{Node: n, Text: body, Line: line, src: src, start: start + lead, end: start + len(txt)})
	}
	return out
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
}

// skipSpaceAndComments returns the offset of the first token of s.
func skipSpaceAndComments(s string) int {
	i := 0
	for i < len(s) {
		switch {
		case isSpace(rune(s[i])):
			i++
		case strings.HasPrefix(s[i:], "-- ") || strings.HasPrefix(s[i:], "--\t") || s[i:] == "--" ||
			strings.HasPrefix(s[i:], "--\n") || s[i] == '#':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return len(s)
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "/*") && !strings.HasPrefix(s[i:], "/*!") && !strings.HasPrefix(s[i:], "/*+"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return len(s)
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

var tidbErrRE = regexp.MustCompile(`^line (\d+) column (\d+) near "`)
var totalLenRE = regexp.MustCompile(`\(total length (\d+)\)\s*$`)

// syntaxError turns a TiDB parser error into an *Error at the token where
// parsing stopped. The parser reports the rest of the input from that token
// ("near ..."), from which the token's offset is recovered exactly; its own
// line/column point past the token.
func syntaxError(src string, err error) *Error {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i > 0 {
		msg = msg[i:]
	}
	m := tidbErrRE.FindStringSubmatch(msg)
	if m == nil {
		if _, rest, ok := strings.Cut(msg, "[ddl:1273]"); ok {
			return &Error{Line: 1, Col: 1, Code: ErUnknownCollation, Msg: rest} // Unknown collation: 'x'
		}
		if _, rest, ok := strings.Cut(msg, "[parser:1115]"); ok {
			// CHARSET = foo in a table or column definition: MySQL's 1115.
			return &Error{Line: 1, Col: 1, Code: ErUnknownCharacterSet, Msg: rest}
		}
		if _, rest, ok := strings.Cut(msg, "[parser:1210]"); ok {
			// ESCAPE 'ab': MySQL's 1210, not a syntax error.
			return &Error{Line: 1, Col: 1, Code: ErWrongArguments, Msg: rest}
		}
		return &Error{Line: 1, Col: 1, Msg: "syntax error: " + msg}
	}
	rest := msg[len(m[0]):]
	off := -1
	if t := totalLenRE.FindStringSubmatch(rest); t != nil {
		if n, e := strconv.Atoi(t[1]); e == nil && n <= len(src) {
			off = len(src) - n
		}
	} else if j := strings.LastIndex(rest, `"`); j >= 0 {
		near := rest[:j]
		if strings.HasSuffix(src, near) {
			off = len(src) - len(near)
		}
	}
	if off < 0 {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		return &Error{Line: line, Col: col, Code: ErParse, Msg: parseErrorText("", line)}
	}
	line, col := lineCol(src, off)
	if distinctWindowCall(src, off) {
		return &Error{Line: line, Col: col, Code: ErNotSupportedYet, Msg: errDistinctWindow}
	}
	// MySQL counts the line within the statement, which starts after the
	// previous ';'.
	start := strings.LastIndexByte(src[:off], ';') + 1
	start += skipSpaceAndComments(src[start:off])
	first, _ := lineCol(src, start)
	return &Error{Line: line, Col: col, Code: ErParse, Msg: parseErrorText(src[off:], line-first+1)}
}

// parseErrorText is MySQL's message for error 1064: the statement's text
// from the token where parsing stopped, at most 80 characters (MySQL's
// "near '%-.80s'"), up to the ';' that ends it (a MySQL client sends one
// statement without its ';').
func parseErrorText(near string, line int) string {
	if k := strings.IndexByte(near, ';'); k >= 0 {
		near = near[:k]
	}
	if r := []rune(near); len(r) > 80 {
		near = string(r[:80])
	}
	return fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line %d", near, line)
}

// parsedPrefix parses the statements that end before the syntax error, by
// re-parsing the text up to the last ';' that precedes it (trying a few
// candidates: a ';' inside a string literal does not end a statement).
func parsedPrefix(p *parser.Parser, src string, perr *Error) []Parsed {
	end := offsetOf(src, perr.Line, perr.Col)
	for tries := 0; tries < 4; tries++ {
		k := strings.LastIndexByte(src[:end], ';')
		if k < 0 {
			return nil
		}
		nodes, err := parseSQL(p, src[:k+1])
		if err == nil {
			return splitParsed(src, nodes)
		}
		end = k
	}
	return nil
}

// offsetOf is the inverse of lineCol.
func offsetOf(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(src); c++ {
		_, size := utf8.DecodeRuneInString(src[off:])
		off += size
	}
	return off
}
