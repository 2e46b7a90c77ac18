package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// multiUpdateOrder turns the TiDB parser's syntax error at ORDER BY or LIMIT
// of a multi-table UPDATE into MySQL's answer: its grammar takes both
// clauses there and then refuses them with error 1221 (Incorrect usage of
// UPDATE and ORDER BY). Multi-table DELETE has neither in MySQL's grammar
// either, so its syntax error stays one. before holds the statements that
// parsed ahead of the failing one.
func multiUpdateOrder(p *parser.Parser, src string, before []Parsed, perr *Error) *Error {
	if perr.Code != ErParse {
		return perr
	}
	off := offsetOf(src, perr.Line, perr.Col)
	word := strings.ToUpper(leadingWord(src[off:]))
	clause := map[string]string{"ORDER": "ORDER BY", "LIMIT": "LIMIT"}[word]
	if clause == "" {
		return perr
	}
	start := 0
	if len(before) > 0 {
		start = before[len(before)-1].end
	}
	nodes, err := parseSQL(p, src[start:off])
	if err != nil || len(nodes) != 1 {
		return perr
	}
	if u, ok := nodes[0].(*ast.UpdateStmt); !ok || !(u.MultipleTable || joinsTables(u.TableRefs)) {
		return perr
	}
	return &Error{Line: perr.Line, Col: perr.Col, Code: ErWrongUsage,
		Msg: "Incorrect usage of UPDATE and " + clause, Detail: "a multi-table UPDATE takes neither"}
}

// leadingWord is the run of letters that s starts with.
func leadingWord(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}
