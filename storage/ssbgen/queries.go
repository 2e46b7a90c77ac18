package ssbgen

import (
	_ "embed"
	"strings"
)

// QueriesSQL is the standard SSB query set (a copy of the shared
// ssb/queries.sql): the 13 queries Q1.1-Q4.3, each after a "-- Qx.y" line.
//
//go:embed queries.sql
var QueriesSQL string

// Query is one named SSB query, without its trailing ';'.
type Query struct {
	Name string
	SQL  string
}

// Queries returns the 13 SSB queries in order.
func Queries() []Query {
	var out []Query
	for _, part := range strings.Split(QueriesSQL, "-- ")[1:] {
		name, body, _ := strings.Cut(part, "\n")
		body = strings.TrimSpace(body)
		if body == "" {
			continue
		}
		out = append(out, Query{Name: strings.TrimSpace(name), SQL: strings.TrimSuffix(body, ";")})
	}
	return out
}
