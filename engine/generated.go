package engine

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Generated columns are computed on the whole snapshot a statement commits
// (the catalog's Finisher runs this before the CHECK constraints and the
// unique keys are checked, so both see the computed values): one query per
// generated column, in column order, so a column reads the generated ones
// before it as already computed. The values are converted into the
// column's type as INSERT converts them (a value that does not fit fails
// the statement). The cost is one scan of the table per statement on a
// table with generated columns, none on a table without.

// computeGenerated returns t with its generated columns computed for its
// rows from first on (the rows before are old rows, computed already).
func (db *DB) computeGenerated(t *columnar.Table, first int) (*columnar.Table, error) {
	if first >= t.Rows {
		return t, nil
	}
	var out *columnar.Table
	for j, f := range t.Fields {
		if f.Generated == "" {
			continue
		}
		if out == nil {
			out = &columnar.Table{Name: t.Name, Fields: t.Fields, Rows: t.Rows, Columns: append([]*columnar.Column(nil), t.Columns...)}
		}
		col, err := db.generatedColumn(out, j, first)
		if err != nil {
			return nil, err
		}
		out.Columns[j] = col
	}
	if out == nil {
		return t, nil
	}
	columnar.ComputeStats(out)
	return out, nil
}

// generatedColumn computes column j of t for the rows from first on.
func (db *DB) generatedColumn(t *columnar.Table, j, first int) (*columnar.Column, error) {
	f := t.Fields[j]
	text := fmt.Sprintf("SELECT `%s`, %s FROM `%s`", sql.RowIDColumn, f.Generated, t.Name)
	res, err := querySnapshot(db, sql.WithRowID(rowsFrom(t, first)), text)
	if err != nil {
		return nil, fmt.Errorf("generated column %s.%s: %w", t.Name, f.Name, err)
	}
	if !f.Nullable && hasNull(res.Columns[1], res.Rows) {
		return nil, fmt.Errorf("Column '%s' cannot be null", f.Name)
	}
	// The query's rows need not come in table order: row ids place them.
	ids := make([]int, res.Rows)
	for i := range ids {
		ids[i] = first + int(res.Columns[0].Int64At(i))
	}
	col, err := setColumn(t.Columns[j], ids, res.Columns[1], f, make([]bool, len(ids)))
	if err != nil {
		return nil, fmt.Errorf("generated column %s.%s: %w", t.Name, f.Name, err)
	}
	return col, nil
}

// generatedClause is a generated column's definition after its type, as
// SHOW CREATE TABLE prints it: GENERATED ALWAYS AS ((`a` * 2)) VIRTUAL.
func generatedClause(f columnar.Field) string {
	kind := "VIRTUAL"
	if f.GeneratedStored {
		kind = "STORED"
	}
	s := " GENERATED ALWAYS AS (" + f.Generated + ") " + kind
	if !f.Nullable {
		s += " NOT NULL"
	}
	return s
}

// rowsFrom is t's rows from first on (t itself for 0), for computing or
// checking only the rows a statement appended.
func rowsFrom(t *columnar.Table, first int) *columnar.Table {
	if first <= 0 {
		return t
	}
	keep := make([]int, 0, t.Rows-first)
	for r := first; r < t.Rows; r++ {
		keep = append(keep, r)
	}
	return gatherTable(t, keep)
}
