package engine

import (
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// showCatalogTable answers SHOW CHARACTER SET, SHOW COLLATION and SHOW
// ENGINES in MySQL's columns with what gpusql has: UTF-8 text compared by
// its bytes (utf8mb4_bin) and binary strings, in one engine. Connectors and
// GUI tools ask on connect.
func showCatalogTable(s *sql.ShowCatalogTable) *StatementResult {
	var names []string
	var rows [][]any
	switch s.What {
	case "charset":
		names = []string{"Charset", "Description", "Default collation", "Maxlen"}
		rows = [][]any{{"binary", "Binary pseudo charset", "binary", int64(1)}, {"utf8mb4", "UTF-8 Unicode", "utf8mb4_bin", int64(4)}}
	case "collation":
		names = []string{"Collation", "Charset", "Id", "Default", "Compiled", "Sortlen", "Pad_attribute"}
		// The case-insensitive ones a column or COLLATE may name, with
		// MySQL's ids, sort lengths and pad attributes.
		rows = [][]any{{"binary", "binary", int64(63), "Yes", "Yes", int64(1), "NO PAD"},
			{"utf8mb4_0900_ai_ci", "utf8mb4", int64(255), "", "Yes", int64(0), "NO PAD"},
			{"utf8mb4_bin", "utf8mb4", int64(46), "Yes", "Yes", int64(1), "PAD SPACE"},
			{"utf8mb4_general_ci", "utf8mb4", int64(45), "", "Yes", int64(1), "PAD SPACE"},
			{"utf8mb4_unicode_ci", "utf8mb4", int64(224), "", "Yes", int64(8), "PAD SPACE"}}
	default:
		names = []string{"Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"}
		rows = [][]any{{"gpusql", "DEFAULT", "columnar tables, queries on the GPU or the CPU", "YES", "NO", "YES"}}
	}
	if s.Like != nil {
		kept := rows[:0]
		for _, r := range rows {
			if sql.LikeMatch(r[0].(string), *s.Like) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	res := &exec.Result{Names: names, Rows: len(rows)}
	for c := range names {
		if _, isInt := firstOr(rows, c).(int64); isInt {
			col := columnar.NewColumn(columnar.TInt64, len(rows), false)
			for i, r := range rows {
				col.I64[i] = r[c].(int64)
			}
			res.Columns = append(res.Columns, col)
			continue
		}
		vals := make([]string, len(rows))
		for i, r := range rows {
			vals[i] = r[c].(string)
		}
		res.Columns = append(res.Columns, stringColumn(vals))
	}
	return &StatementResult{Kind: KindRows, Result: res}
}

// firstOr is column c of the first row, "" when there is none.
func firstOr(rows [][]any, c int) any {
	if len(rows) == 0 {
		return ""
	}
	return rows[0][c]
}
