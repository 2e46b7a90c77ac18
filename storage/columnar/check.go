package columnar

import "sync"

// A column mapped from a database file carries a deferred integrity check:
// opening a database must not read every byte (SELECT count(*) answers
// without touching a column), so each column's checksum is verified the
// first time a statement reads the column, and a mismatch is that
// statement's error instead of a wrong answer. Columns built in memory
// have no check.
type deferredCheck struct {
	once sync.Once
	fn   func() error
	err  error
}

// SetCheck makes fn the column's deferred integrity check (run once, by
// Verify).
func (c *Column) SetCheck(fn func() error) { c.check = &deferredCheck{fn: fn} }

// Verify runs the column's deferred integrity check the first time it is
// called and returns its result every time; nil for a column without one.
func (c *Column) Verify() error {
	if c == nil || c.check == nil {
		return nil
	}
	c.check.once.Do(func() { c.check.err = c.check.fn() })
	return c.check.err
}

// Recheck runs the column's integrity check again, ignoring an earlier
// result (CHECK DATABASE reads every byte afresh).
func (c *Column) Recheck() error {
	if c == nil || c.check == nil {
		return nil
	}
	return c.check.fn()
}

// Verify runs the deferred checks of every column of t, returning the first
// failure.
func (t *Table) Verify() error {
	for _, c := range t.Columns {
		if err := c.Verify(); err != nil {
			return err
		}
	}
	return nil
}
