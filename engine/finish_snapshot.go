package engine

import (
	"context"
	"fmt"
	"strings"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Every snapshot a statement commits passes finishSnapshot (the catalog's
// Finisher, catalog/finish.go): generated columns (generated.go), CHECK
// constraints (check_constraints.go), foreign keys (foreign_keys.go).

// finishSnapshot is the catalog's Finisher: generated columns computed,
// the CHECK constraints checked, then the foreign keys (foreign_keys.go),
// unless the statement runs with foreign_key_checks = 0.
func (db *DB) finishSnapshot(cat *catalog.Catalog, opts catalog.FinishOptions, old, next *columnar.Table) (*columnar.Table, []catalog.Cascade, error) {
	first := 0
	if opts.Appended && old != nil && len(old.Fields) == len(next.Fields) && old.Rows <= next.Rows {
		first = old.Rows
	}
	next, err := db.computeGenerated(next, first)
	if err != nil {
		return nil, nil, err
	}
	// The rows before first are old rows, which satisfy the constraints.
	if err := db.validateChecks(cat, rowsFrom(next, first)); err != nil {
		return nil, nil, err
	}
	if opts.NoForeignKeyChecks {
		return next, nil, nil
	}
	var deleted []int
	if opts.Deleted != nil {
		deleted = opts.Deleted()
	}
	return enforceForeignKeys(cat, fkChange{name: next.Name, old: old, new: next, inPlace: opts.InPlace, deleted: deleted, from: first})
}

// finishOptions are the session's settings for the Finisher.
func (db *DB) finishOptions() catalog.FinishOptions {
	return catalog.FinishOptions{NoForeignKeyChecks: db.session.Limit("foreign_key_checks") == 0}
}

// inPlaceOptions are finishOptions for a statement that changes rows where
// they are (UPDATE, ON DUPLICATE KEY UPDATE).
func (db *DB) inPlaceOptions() catalog.FinishOptions {
	o := db.finishOptions()
	o.InPlace = true
	return o
}

// querySnapshot runs a query over snapshot t (named by its table's name)
// on the CPU, through a catalog that holds only t, planned without the
// catalog's remaps (they belong to committed snapshots): what the engine
// computes over a statement's own rows before committing them.
func querySnapshot(db *DB, t *columnar.Table, text string) (*exec.Result, error) {
	parsed, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	if len(parsed) != 1 {
		return nil, fmt.Errorf("internal error: %d statements in %q", len(parsed), text)
	}
	one := catalog.Clone(map[string]*columnar.Table{strings.ToLower(t.Name): t})
	st, err := sql.Bind(one, parsed[0])
	if err != nil {
		return nil, err
	}
	q, ok := st.(*sql.Query)
	if !ok {
		return nil, fmt.Errorf("internal error: %q is not a query", text)
	}
	p, err := planner.Plan(q, planner.Options{})
	if err != nil {
		return nil, err
	}
	ctx, done := db.queryMemory(context.Background())
	defer done()
	return cpu.Run(ctx, p)
}
