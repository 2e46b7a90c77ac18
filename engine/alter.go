package engine

import (
	"context"

	"gpusql/catalog"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// alterColumns rewrites a table into its new columns (sql.AlterColumns):
// the query casts every value, appendResult enforces NOT NULL, and the
// catalog swaps the snapshot and moves the indexes in one step, so a
// failure anywhere leaves the table as it was.
func (db *DB) alterColumns(ctx context.Context, s *sql.AlterColumns) (*StatementResult, error) {
	res, _, err := db.query(ctx, s.Query)
	if err != nil {
		return nil, err
	}
	targets := make([]int, len(s.Fields))
	for i := range targets {
		targets[i] = i
	}
	// A string column turned into a number column is read as INSERT ...
	// SELECT reads text, strictly: MySQL's strict ALTER fails on the
	// first value that is no number, naming column and row (store_text.go).
	if res, err = storeResultTexts(res, s.Fields, targets, nil); err != nil {
		return nil, err
	}
	// Without strict mode MySQL stores what each column can hold, noting
	// each change (1264 out of range, 1265 data truncated, a NULL in a
	// NOT NULL column too).
	if db.lenientWrites(false) {
		res.Columns = lenientValuesAs(ctx, res.Columns, s.Fields, func(i int) int { return i + 1 }, nil, sql.WarnDataTruncated, false)
	}
	// A NULL left in a column made NOT NULL is MySQL's strict ALTER
	// error 1138, not INSERT's 1048 (Column 'c' cannot be null).
	for i, f := range s.Fields {
		if !f.Nullable && f.Generated == "" && hasNull(res.Columns[i], res.Rows) {
			return nil, sql.Errorf(sql.ErInvalidUseOfNull, "Invalid use of NULL value")
		}
	}
	next, err := appendResult(columnar.NewEmptyTable(s.Snapshot.Name, s.Fields), targets, res)
	if err != nil {
		return nil, err
	}
	if err := db.cat.Alter(s.Table, s.Snapshot, next, s.ColMap, catalog.IndexChanges{Add: s.AddIndexes, Drop: s.DropIndexes}, s.Checks...); err != nil {
		return nil, err
	}
	if s.Options != nil {
		if err := db.cat.SetOptions(s.Table, *s.Options); err != nil {
			return nil, err
		}
	}
	return message("altered table %s", s.Table), nil
}

// truncate empties a table, keeping its schema and indexes.
func (db *DB) truncate(s *sql.TruncateTable) (*StatementResult, error) {
	if err := db.checkTruncateReferenced(s.Table); err != nil {
		return nil, err
	}
	err := db.cat.UpdateWith(s.Table, db.finishOptions(), func(old *columnar.Table) (*columnar.Table, error) {
		return columnar.NewEmptyTable(old.Name, old.Fields), nil
	})
	if err != nil {
		return nil, err
	}
	db.cat.Counter(s.Table).Reset() // MySQL starts AUTO_INCREMENT over
	return message("truncated table %s", s.Table), nil
}

func (db *DB) renameTables(s *sql.RenameTable) (*StatementResult, error) {
	if err := db.cat.Rename(s.From, s.To); err != nil {
		return nil, err
	}
	if len(s.From) == 1 {
		return message("renamed table %s to %s", s.From[0], s.To[0]), nil
	}
	return message("renamed %d tables", len(s.From)), nil
}
