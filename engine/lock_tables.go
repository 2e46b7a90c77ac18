package engine

import (
	"strings"

	"gpusql/sql"
)

// The session's LOCK TABLES. gpusql's locks make no other session wait
// (sql/lock_tables.go), but MySQL also holds the locking session to what
// it locked, and scripts written for MySQL rely on its errors to find a
// statement that strays: while tables are locked, a table the list does
// not name is 1100 and a write to a table locked READ is 1099. UNLOCK
// TABLES, START TRANSACTION and the next LOCK TABLES release them.

// tableLockStatement records LOCK / UNLOCK TABLES and checks any other
// statement against the locks held; it runs before the statement does.
func (c *Conn) tableLockStatement(stmt sql.Statement) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch s := stmt.(type) {
	case *sql.LockTables:
		c.tableLocks = map[string]bool{}
		for i, name := range s.Tables {
			k := strings.ToLower(name)
			c.tableLocks[k] = c.tableLocks[k] || s.Write[i]
		}
		return nil
	case *sql.UnlockTables, *sql.Begin:
		c.tableLocks = nil
		return nil
	}
	if c.tableLocks == nil {
		return nil
	}
	if q, ok := stmt.(*sql.Query); ok {
		for name, t := range q.Reads.Tables {
			if _, ok := c.tableLocks[name]; !ok {
				return notLockedError(t.Name)
			}
		}
		return nil
	}
	for _, name := range writtenTables(stmt) {
		write, ok := c.tableLocks[strings.ToLower(name)]
		if !ok {
			return notLockedError(name)
		}
		if !write {
			return sql.Errorf(1099, "Table '%s' was locked with a READ lock and can't be updated", name)
		}
	}
	return nil
}

// holdsTableLocks reports whether LOCK TABLES holds tables.
func (c *Conn) holdsTableLocks() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tableLocks != nil
}

func notLockedError(name string) error {
	return sql.Errorf(1100, "Table '%s' was not locked with LOCK TABLES", name)
}

// writtenTables are the tables a statement changes.
func writtenTables(stmt sql.Statement) []string {
	switch s := stmt.(type) {
	case *sql.Insert:
		return []string{s.Table}
	case *sql.Load:
		return []string{s.Table}
	case *sql.Update:
		return []string{s.Table}
	case *sql.Delete:
		return []string{s.Table}
	case *sql.TruncateTable:
		return []string{s.Table}
	case *sql.AlterColumns:
		return []string{s.Table}
	case *sql.MultiUpdate:
		var out []string
		for _, t := range s.Targets {
			out = append(out, t.Table)
		}
		return out
	case *sql.MultiDelete:
		var out []string
		for _, t := range s.Targets {
			out = append(out, t.Table)
		}
		return out
	}
	return nil
}
