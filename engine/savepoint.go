package engine

import (
	"context"
	"fmt"
	"strings"

	"gpusql/catalog"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Savepoints and autocommit, as in MySQL.
//
// SAVEPOINT name keeps the transaction's catalog state as it is (the table
// snapshots are immutable, so keeping them costs no copy); ROLLBACK TO
// name puts that state back and forgets the savepoints set after it;
// RELEASE SAVEPOINT name forgets it and those after it. COMMIT and
// ROLLBACK forget them all. Outside a transaction SAVEPOINT does nothing
// (there is nothing to roll back to) and the other two fail, as MySQL's do.
//
// SET autocommit = 0 makes every statement that reads or changes tables
// open a transaction when none is open; it lasts until COMMIT, ROLLBACK,
// BEGIN, a DDL statement (which commits it) or SET autocommit = 1 (which
// commits it too).

// savepoint is one SAVEPOINT of a transaction.
type savepoint struct {
	name  string
	state catalog.State
}

// SavepointError is ROLLBACK TO or RELEASE of a savepoint the transaction
// does not have (MySQL error 1305).
type SavepointError struct{ Name string }

func (e *SavepointError) Error() string {
	return fmt.Sprintf("SAVEPOINT %s does not exist", e.Name)
}

// MySQLError is the error's MySQL number (ER_SP_DOES_NOT_EXIST) and text,
// which the shell, SHOW ERRORS and the server give.
func (e *SavepointError) MySQLError() (uint16, string) { return 1305, e.Error() }

// savepointStatement runs SAVEPOINT, ROLLBACK TO and RELEASE SAVEPOINT.
func (c *Conn) savepointStatement(stmt sql.Statement) (*StatementResult, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tx := c.tx
	switch s := stmt.(type) {
	case *sql.Savepoint:
		if tx == nil {
			return message("no transaction open: savepoint %s not set (autocommit is on)", s.Name), true, nil
		}
		tx.dropSavepoint(s.Name) // a name set again moves to now
		tx.savepoints = append(tx.savepoints, savepoint{name: s.Name, state: tx.work.State()})
		return message("savepoint %s set", s.Name), true, nil
	case *sql.RollbackTo:
		i := tx.findSavepoint(s.Name)
		if i < 0 {
			return nil, true, &SavepointError{Name: s.Name}
		}
		tx.work.Restore(tx.savepoints[i].state)
		tx.savepoints = tx.savepoints[:i+1]
		return message("rolled back to savepoint %s", s.Name), true, nil
	case *sql.ReleaseSavepoint:
		i := tx.findSavepoint(s.Name)
		if i < 0 {
			return nil, true, &SavepointError{Name: s.Name}
		}
		tx.savepoints = tx.savepoints[:i]
		return message("released savepoint %s", s.Name), true, nil
	}
	return nil, false, nil
}

// findSavepoint is the index of the savepoint named name, or -1 (also
// outside a transaction).
func (tx *transaction) findSavepoint(name string) int {
	if tx == nil {
		return -1
	}
	for i, sp := range tx.savepoints {
		if sp.name == name {
			return i
		}
	}
	return -1
}

func (tx *transaction) dropSavepoint(name string) {
	if i := tx.findSavepoint(name); i >= 0 {
		tx.savepoints = append(tx.savepoints[:i], tx.savepoints[i+1:]...)
	}
}

// Autocommit reports the connection's @@autocommit.
func (c *Conn) Autocommit() bool { return c.vars.Autocommit() }

// checkAutocommit computes and checks the autocommit assignments of a
// SET; it returns the SET of the other assignments and how to apply the
// autocommit ones, which runs only after those succeed, so that SET
// autocommit = 0, @@sql_mode = 'bogus' changes nothing (MySQL's SET is all
// or nothing). SET autocommit = 1 commits the open transaction, as in
// MySQL; SET GLOBAL autocommit is the setting of the connections opened
// later.
func (c *Conn) checkAutocommit(ctx context.Context, s *sql.Set) (*sql.Set, func() error, error) {
	rest := &sql.Set{Vars: s.Vars}
	var applies []func() error
	for _, a := range s.Assignments {
		if a.User || a.Name != "autocommit" {
			rest.Assignments = append(rest.Assignments, a)
			continue
		}
		on := true
		if !a.Default {
			v, err := c.view().setValue(ctx, a)
			if err != nil {
				return nil, nil, err
			}
			if on, err = autocommitValue(v); err != nil {
				return nil, nil, err
			}
		}
		applies = append(applies, func() error { return c.applyAutocommit(on, a.Global) })
	}
	return rest, func() error {
		for _, apply := range applies {
			if err := apply(); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

func (c *Conn) applyAutocommit(on, global bool) error {
	if global {
		c.session.SetGlobalAutocommit(on) // this connection keeps its own
		return nil
	}
	if on {
		if err := c.Commit(); err != nil {
			return err
		}
	}
	c.vars.SetAutocommit(on)
	return nil
}

// autocommitValue reads SET autocommit's value: 0/1, ON/OFF, TRUE/FALSE.
func autocommitValue(v *sql.Const) (bool, error) { return switchValue("autocommit", v) }

// switchValue is the value of a MySQL boolean variable: 0 / 1, ON / OFF
// in any case; anything else is 1231.
func switchValue(name string, v *sql.Const) (bool, error) {
	switch {
	case v.Null:
	case v.T.IsInteger() && (v.I == 0 || v.I == 1):
		return v.I == 1, nil
	case v.T.ID == columnar.String && strings.EqualFold(v.S, "ON"):
		return true, nil
	case v.T.ID == columnar.String && strings.EqualFold(v.S, "OFF"):
		return false, nil
	}
	return false, wrongValueForVar(name, v)
}

// implicitBegin opens the transaction a statement that reads or changes
// tables, or sets a savepoint, runs in under autocommit = 0.
func (c *Conn) implicitBegin(stmt sql.Statement) error {
	if c.vars.Autocommit() || c.InTransaction() {
		return nil
	}
	switch stmt.(type) {
	case *sql.Query, *sql.Explain, *sql.Insert, *sql.Update, *sql.Delete, *sql.Load, *sql.Copy,
		*sql.Savepoint: // under autocommit = 0 a transaction is always under way
		return c.Begin(false)
	}
	return nil
}
