package catalog

import (
	"fmt"
	"strings"

	"gpusql/storage/columnar"
)

// CHECK constraints. Like indexes they live beside the table snapshots, by
// table: a constraint is metadata, and the rows it admits are whatever
// snapshot Update commits. The catalog cannot evaluate SQL (it must not
// parse it), so the engine installs a Finisher that computes a snapshot's
// generated columns and runs the enforced constraints over it before
// Update, UpdateTables and Alter commit it; a snapshot a constraint rejects
// is not committed, so a failing statement leaves its table exactly as it
// was (MySQL's statement rollback).

// Check is one CHECK constraint of a table.
type Check struct {
	Name string
	// Clause is the condition as MySQL prints it in
	// information_schema.CHECK_CONSTRAINTS.CHECK_CLAUSE: names in backquotes,
	// the whole in parentheses ("(`a` > 0)"). The validator binds it again
	// over each snapshot it checks.
	Clause   string
	Enforced bool
	// Columns are the lower-cased column names the clause reads (ALTER
	// TABLE refuses to drop or rename them, as MySQL does).
	Columns []string `json:",omitempty"`
}

// ConstraintError is a constraint failure that carries MySQL's error code
// (3819 for a violated CHECK, 1451/1452 for foreign keys, ...), so the
// MySQL front end answers with the code MySQL gives.
type ConstraintError struct {
	Code uint16
	Msg  string
	// Detail, where set, follows Msg in gpusql's text only, as
	// sql.Error's does: the client of a MySQL server sees Msg.
	Detail string
}

func (e *ConstraintError) Error() string {
	if e.Detail != "" {
		return e.Msg + " (" + e.Detail + ")"
	}
	return e.Msg
}

// TableExistsError is MySQL's error 1050 for a table or view name that a
// table or view already has (they share one namespace).
func TableExistsError(name string) error {
	return &ConstraintError{Code: 1050, Msg: fmt.Sprintf("Table '%s' already exists", name)} // ER_TABLE_EXISTS_ERROR
}

// CheckViolated is MySQL's error 3819 for the named constraint.
func CheckViolated(name string) error {
	return &ConstraintError{Code: 3819, Msg: fmt.Sprintf("Check constraint '%s' is violated.", name)}
}

// Checks returns the named table's CHECK constraints in definition order.
func (c *Catalog) Checks(table string) []Check {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]Check(nil), c.checks[key(table)]...)
}

// CheckNamed finds a table's constraint by name (case-insensitive).
func (c *Catalog) CheckNamed(table, name string) (Check, bool) {
	for _, ck := range c.Checks(table) {
		if strings.EqualFold(ck.Name, name) {
			return ck, true
		}
	}
	return Check{}, false
}

// CheckNameTaken reports whether any table holds a CHECK constraint of
// that name: MySQL's check constraint names are unique in a schema.
func (c *Catalog) CheckNameTaken(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, list := range c.checks {
		for _, ck := range list {
			if strings.EqualFold(ck.Name, name) {
				return true
			}
		}
	}
	return false
}

// AddCheck adds a constraint to a table. An enforced one must hold on
// every row already there (error 3819 otherwise, adding nothing).
func (c *Catalog) AddCheck(table string, ck Check) error {
	return c.withWriter(table, func() error {
		t, ok := c.Table(table)
		if !ok {
			return fmt.Errorf("table %s does not exist", table)
		}
		if c.CheckNameTaken(ck.Name) {
			return &ConstraintError{Code: 3822, Msg: fmt.Sprintf("Duplicate check constraint name '%s'.", ck.Name)}
		}
		if err := c.setChecks(table, t, append(c.Checks(table), ck)); err != nil {
			return err
		}
		return nil
	})
}

// DropCheck removes a table's constraint by name (error 3821 when the
// table has none of that name).
func (c *Catalog) DropCheck(table, name string) error {
	return c.withWriter(table, func() error {
		list := c.Checks(table)
		for i, ck := range list {
			if strings.EqualFold(ck.Name, name) {
				c.mu.Lock()
				defer c.mu.Unlock()
				c.checks[key(table)] = append(list[:i:i], list[i+1:]...)
				c.version++
				return nil
			}
		}
		return CheckNotFound(name)
	})
}

// CheckNotFound is MySQL's error 3821.
func CheckNotFound(name string) error {
	return &ConstraintError{Code: 3821, Msg: fmt.Sprintf("Check constraint '%s' is not found in the table.", name)}
}

// SetCheckEnforced is ALTER TABLE ... ALTER CHECK name [NOT] ENFORCED;
// turning enforcement on checks the rows already there, as MySQL does.
func (c *Catalog) SetCheckEnforced(table, name string, enforced bool) error {
	return c.withWriter(table, func() error {
		t, ok := c.Table(table)
		if !ok {
			return fmt.Errorf("table %s does not exist", table)
		}
		list := c.Checks(table)
		for i, ck := range list {
			if strings.EqualFold(ck.Name, name) {
				list[i].Enforced = enforced
				return c.setChecks(table, t, list)
			}
		}
		return CheckNotFound(name)
	})
}

// setChecks replaces a table's constraints after validating snapshot t
// under them; the caller holds the table's writer lock.
func (c *Catalog) setChecks(table string, t *columnar.Table, list []Check) error {
	c.mu.Lock()
	before := c.checks[key(table)]
	c.checks[key(table)] = list
	c.mu.Unlock()
	if _, _, err := c.finish(FinishOptions{}, t, t); err != nil {
		c.mu.Lock()
		c.checks[key(table)] = before
		c.mu.Unlock()
		return err
	}
	c.mu.Lock()
	c.version++
	c.mu.Unlock()
	return nil
}
