package ssbcheck

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// ssbQuery is one query of testdata/queries.sql or testdata/variants.sql.
type ssbQuery struct {
	Name string // "Q1.1", or "Q3.3w" for a variant
	SQL  string // the statement, without its trailing ';'
	// Order are the ORDER BY keys, by output column name.
	Order []sortKey
}

type sortKey struct {
	Name string
	Desc bool
}

var (
	queryHeadRE = regexp.MustCompile(`(?m)^--\s*(Q\d+\.\d+\w*)\s*$`)
	orderByRE   = regexp.MustCompile(`(?is)\border\s+by\s+(.*)$`)
)

// readQueries reads a query file and splits it on its "-- Qx.y" lines.
func readQueries(path string) ([]ssbQuery, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseQueries(path, string(data))
}

// parseQueries splits text on its "-- Qx.y" lines and reads each query's
// ORDER BY keys.
func parseQueries(path, text string) ([]ssbQuery, error) {
	heads := queryHeadRE.FindAllStringSubmatchIndex(text, -1)
	if len(heads) == 0 {
		return nil, fmt.Errorf("%s: no \"-- Qx.y\" lines", path)
	}
	var out []ssbQuery
	for i, h := range heads {
		end := len(text)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		body := strings.TrimSpace(text[h[1]:end])
		body = strings.TrimSpace(strings.TrimSuffix(body, ";"))
		q := ssbQuery{Name: text[h[2]:h[3]], SQL: body}
		if m := orderByRE.FindStringSubmatch(body); m != nil {
			for _, item := range strings.Split(m[1], ",") {
				f := strings.Fields(strings.ToLower(item))
				if len(f) == 0 || len(f) > 2 || (len(f) == 2 && f[1] != "asc" && f[1] != "desc") {
					return nil, fmt.Errorf("%s: %s: ORDER BY item %q is not \"column [asc|desc]\"", path, q.Name, item)
				}
				q.Order = append(q.Order, sortKey{Name: f[0], Desc: len(f) == 2 && f[1] == "desc"})
			}
		}
		out = append(out, q)
	}
	return out, nil
}

// dateTableRE matches the table name date: d_date and d_datekey do not
// match, since '_' is a word character.
var dateTableRE = regexp.MustCompile(`(?i)\bdate\b`)

// forSQLite quotes the table name date, which is a function name in SQLite
// and a type name in both dialects; every other bare "date" in the SSB
// scripts is that table.
func forSQLite(s string) string { return dateTableRE.ReplaceAllString(s, `"date"`) }
