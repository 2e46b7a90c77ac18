package engine

import (
	"sync"

	"gpusql/catalog"
	"gpusql/catalog/disk"
	"gpusql/sql"
)

// durable makes a database opened on a directory (Options.Path) keep its
// catalog on disk. Statements that may change the catalog run one at a
// time (readers still run alongside them); when one returns having changed
// the catalog, the new state is written and the manifest switched before
// the statement's result is handed back, so a statement is durable when it
// returns. A statement whose state cannot be written (disk full) fails and
// puts the last written state back in memory: nothing is half done, in
// memory or on disk.
type durable struct {
	mu    sync.Mutex
	store *disk.Store
	// last is the state on disk.
	last catalog.State
}

// openDurable opens (or creates) the database directory and fills cat
// from it; without remaps the remapped columns it keeps are not used (and
// leave the directory with the next write).
func openDurable(path string, noSync, remaps bool, cat *catalog.Catalog) (*durable, error) {
	store, state, err := disk.Open(path, noSync)
	if err != nil {
		return nil, err
	}
	if !remaps {
		state.Remaps = nil
	}
	cat.Restore(state)
	return &durable{store: store, last: cat.State()}, nil
}

// mayChange reports whether a statement can change the shared catalog
// (directly, or by committing a transaction).
func mayChange(stmt sql.Statement) bool {
	switch stmt.(type) {
	case *sql.Query, *sql.SelectIntoVars, *sql.Explain, *sql.ShowTables, *sql.ShowWarnings, *sql.ShowCatalogTable, *sql.Describe, *sql.ShowIndex,
		*sql.Rollback, *sql.Savepoint, *sql.RollbackTo, *sql.ReleaseSavepoint, *sql.AnalyzeTable, *sql.CheckDatabase,
		*sql.ExportDatabase, *sql.Checkpoint, *sql.ShowCreateTable, *sql.Use, *sql.ShowDatabases,
		*sql.ShowVariables, *sql.Kill, *sql.ShowProcessList, *sql.Copy, *sql.CreateUser, *sql.DropUser, *sql.Grant,
		*sql.Prepare, *sql.Execute, *sql.Deallocate, *sql.UnlockTables, *sql.KeysToggle, *sql.DatabaseNote: // EXECUTE's own statement takes the lock
		return false
	}
	return true
}

// settle writes the catalog's state when the statement that just ran (with
// d.mu held) changed it and succeeded, and puts the last written state
// back when it failed or cannot be written.
func (d *durable) settle(cat *catalog.Catalog, stmtErr error) error {
	if cat.Version() == d.last.Version && !cat.CountersMoved(d.last) && !cat.RemapsMoved(d.last) {
		return stmtErr
	}
	// A failing statement normally changes nothing; when it did change the
	// catalog (the implicit COMMIT before a failing CREATE TABLE), memory
	// holds a consistent state that the disk must hold too.
	st := cat.State()
	err := d.store.Commit(st)
	if err == nil {
		d.last = st
		return stmtErr
	}
	cat.Restore(d.last)
	d.last.Version = cat.Version()
	return err
}

// Persist writes the catalog's current state to the database directory
// (after changes made through Catalog() directly, as the bench command's
// generated data); a no-op for an in-memory database.
func (db *DB) Persist() error {
	if db.durable == nil {
		return nil
	}
	db.durable.mu.Lock()
	defer db.durable.mu.Unlock()
	return db.durable.settle(db.cat, nil)
}

// Path is the database directory, "" for an in-memory database.
func (db *DB) Path() string {
	if db.durable == nil {
		return ""
	}
	return db.durable.store.Dir()
}

// Close releases the database directory's lock; the DB must not be used
// afterwards. A no-op for an in-memory database.
func (db *DB) Close() error {
	if db.durable == nil {
		return nil
	}
	// AUTO_INCREMENT values taken by a ROLLBACK'ed transaction since the
	// last write are written now, so a reopened database does not hand
	// them out again (as MySQL 8 persists its counters).
	d := db.durable
	d.mu.Lock()
	err := d.settle(db.cat, nil)
	d.mu.Unlock()
	if cerr := d.store.Close(); err == nil {
		err = cerr
	}
	return err
}
