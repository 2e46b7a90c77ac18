package sql

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// convertTo finds ALTER TABLE's CONVERT TO CHARACTER SET cs [COLLATE c]
// among a table option change: ok is false when there is none.
func convertTo(opts []*ast.TableOption) (cs, coll string, ok bool) {
	for _, o := range opts {
		switch {
		case o.Tp == ast.TableOptionCharset && o.UintValue == ast.TableOptionCharsetWithConvertTo:
			cs, ok = strings.ToLower(o.StrValue), true
			if o.Default {
				cs = "utf8mb4" // the database's, gpusql's one character set
			}
		case o.Tp == ast.TableOptionCollate:
			coll = strings.ToLower(o.StrValue)
		}
	}
	return cs, coll, ok
}

// defaultCollations are MySQL 8.0's default collations of the UTF-8
// character sets, which CONVERT TO CHARACTER SET without COLLATE gives.
var defaultCollations = map[string]string{"utf8mb4": "utf8mb4_0900_ai_ci", "utf8mb3": "utf8mb3_general_ci", "utf8": "utf8mb3_general_ci"}

// alterConvert is ALTER TABLE t CONVERT TO CHARACTER SET cs [COLLATE c]:
// every text column (CHAR, VARCHAR, TEXT, ENUM, SET; not BINARY, BLOB or
// JSON) takes collation c, by default cs's, as MySQL converts them. The
// values stay as they are: gpusql's text is UTF-8 whatever the character
// set, so only UTF-8 sets are taken.
func (b *binder) alterConvert(t *columnar.Table, cs, coll string) (Statement, error) {
	if cs == "utf8" {
		cs = "utf8mb3"
	}
	if _, ok := defaultCollations[cs]; !ok {
		return nil, b.errf(b.wordPos(cs, -1), "unsupported: CONVERT TO CHARACTER SET %s (gpusql's text is UTF-8: utf8mb4 or utf8mb3)", cs)
	}
	if coll == "" {
		coll = defaultCollations[cs]
	}
	if c, _, _ := strings.Cut(coll, "_"); c != cs && !(c == "utf8" && cs == "utf8mb3") {
		return nil, b.errCode(b.wordPos(coll, -1), ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET '%s'", coll, cs)
	}
	fields := slices.Clone(t.Fields)
	src := make([]int, len(fields))
	for i := range fields {
		src[i] = i
		if FieldCollation(fields[i]) == "" {
			continue // no text: numbers, dates, BINARY, BLOB, JSON
		}
		if err := b.columnCollation(&fields[i], coll, b.wordPos(coll, -1)); err != nil {
			return nil, err
		}
	}
	return b.rewriteTable(t, fields, src)
}
