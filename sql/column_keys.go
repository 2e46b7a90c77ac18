package sql

import "gpusql/catalog"

// ColumnKeys is each column's Key in DESCRIBE and COLUMN_KEY in
// information_schema.COLUMNS, as MySQL documents it: PRI for a column of
// the primary key, UNI for the column of a one-column UNIQUE index, MUL
// for the first column of any other index (a non-unique one, or a
// composite UNIQUE one, whose first column may repeat); the first of these
// that applies, in that order.
func ColumnKeys(n int, indexes []catalog.Index) []string {
	rank := map[string]int{"": 0, "MUL": 1, "UNI": 2, "PRI": 3}
	keys := make([]string, n)
	set := func(c int, k string) {
		if rank[k] > rank[keys[c]] {
			keys[c] = k
		}
	}
	for _, ix := range indexes {
		switch {
		case ix.Primary:
			for _, c := range ix.Columns {
				set(c, "PRI")
			}
		case ix.Unique && len(ix.Columns) == 1:
			set(ix.Columns[0], "UNI")
		default:
			set(ix.Columns[0], "MUL")
		}
	}
	return keys
}
