package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gpusql/catalog"
	"gpusql/sql"
)

// erDupIndex is MySQL's warning 1831 for an index that repeats another's
// key parts (sql_table.cc check_duplicate_key): allowed, but deprecated.
const erDupIndex = 1831

// warnDuplicateIndexes adds warning 1831 for each of the named indexes of
// table that repeats an index before it: the same kind (KEY or UNIQUE),
// columns, prefixes and directions. A PRIMARY KEY is not compared.
func (db *DB) warnDuplicateIndexes(ctx context.Context, table string, names []string) {
	w := sql.WarningsFrom(ctx)
	if w == nil {
		return
	}
	all := db.cat.Indexes(table)
	for _, name := range names {
		i := slices.IndexFunc(all, func(ix catalog.Index) bool { return strings.EqualFold(ix.Name, name) })
		if i < 0 || all[i].Primary {
			continue
		}
		for j, other := range all {
			if j != i && !other.Primary && sameKey(all[i], other) && (j < i || !slices.Contains(names, other.Name)) {
				w.Add(erDupIndex, fmt.Sprintf("Duplicate index '%s' defined on the table '%s.%s'. This is deprecated and will be disallowed in a future release.", all[i].Name, sql.DatabaseName, table))
				break
			}
		}
	}
}

func sameKey(a, b catalog.Index) bool {
	return a.Unique == b.Unique && slices.Equal(a.Columns, b.Columns) &&
		slices.Equal(a.SubPart, b.SubPart) && slices.Equal(a.Desc, b.Desc)
}

func indexNames(ixs []catalog.Index) []string {
	names := make([]string, len(ixs))
	for i, ix := range ixs {
		names[i] = ix.Name
	}
	return names
}
