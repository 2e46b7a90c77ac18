package sql

import (
	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// ColumnKeys is each column's Key in DESCRIBE and COLUMN_KEY in
// information_schema.COLUMNS, as MySQL documents it: PRI for a column of
// the primary key (or of the UNIQUE key that stands for it, PrimaryIndex),
// UNI for the column of a one-column UNIQUE index, MUL for the first
// column of any other index (a non-unique one, or a composite UNIQUE one,
// whose first column may repeat); the first of these that applies, in
// that order.
func ColumnKeys(fields []columnar.Field, indexes []catalog.Index) []string {
	rank := map[string]int{"": 0, "MUL": 1, "UNI": 2, "PRI": 3}
	keys := make([]string, len(fields))
	set := func(c int, k string) {
		if rank[k] > rank[keys[c]] {
			keys[c] = k
		}
	}
	primary := PrimaryIndex(fields, indexes)
	for i, ix := range indexes {
		switch {
		case i == primary:
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

// PrimaryIndex is the position in indexes of the table's primary key, -1
// where it has none. A table without PRIMARY KEY has its first UNIQUE key
// over NOT NULL whole columns as one (MySQL's TABLE_SHARE setup, "If a
// UNIQUE index cannot contain NULL values and there is no PRIMARY KEY,
// DESCRIBE shows it as PRI"): its columns carry PRI and PRI_KEY_FLAG. A
// key with a nullable or prefix part cannot identify a row alone, so it
// is passed over.
func PrimaryIndex(fields []columnar.Field, indexes []catalog.Index) int {
	for i, ix := range indexes {
		if ix.Primary {
			return i
		}
	}
	for i, ix := range indexes {
		if ix.Unique && wholeNotNull(fields, ix) {
			return i
		}
	}
	return -1
}

func wholeNotNull(fields []columnar.Field, ix catalog.Index) bool {
	for k, c := range ix.Columns {
		if c < 0 || c >= len(fields) || fields[c].Nullable || ix.Prefix(k) != 0 {
			return false
		}
	}
	return len(ix.Columns) > 0
}
