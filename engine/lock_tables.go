package engine

import (
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The session's LOCK TABLES. gpusql's locks make no other session wait
// (sql/lock_tables.go), but MySQL also holds the locking session to what
// it locked, and scripts written for MySQL rely on its errors to find a
// statement that strays: while tables are locked, a table the list does
// not name is 1100 and a write to a table locked READ is 1099. UNLOCK
// TABLES, START TRANSACTION and the next LOCK TABLES release them. As
// of MySQL 8.0.13 RENAME TABLE may rename a table locked WRITE (or one an
// earlier pair of the same statement made), and the lock follows it to
// its new name (WL#9826).

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
	if rn, ok := stmt.(*sql.RenameTable); ok {
		return checkRenameLocks(c.tableLocks, rn)
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
	if r, ok := stmt.(interface {
		ReadTables() map[string]*columnar.Table
	}); ok {
		for name, t := range r.ReadTables() {
			if _, ok := c.tableLocks[name]; !ok {
				return notLockedError(t.Name) // INSERT ... SELECT FROM lo
			}
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

// checkRenameLocks is MySQL's check of RENAME TABLE under LOCK TABLES:
// each source must be locked WRITE, or be the target of an earlier pair
// (RENAME TABLE a TO b, b TO c), else 1100 or, locked READ, 1099.
func checkRenameLocks(locks map[string]bool, rn *sql.RenameTable) error {
	renamed := map[string]bool{}
	for i, from := range rn.From {
		k := strings.ToLower(from)
		write, ok := locks[k]
		if renamed[k] {
			write, ok = true, true
		}
		switch {
		case !ok:
			return notLockedError(from)
		case !write:
			return sql.Errorf(1099, "Table '%s' was locked with a READ lock and can't be updated", from)
		}
		delete(renamed, k)
		renamed[strings.ToLower(rn.To[i])] = true
	}
	return nil
}

// renameTableLocks moves the WRITE locks of tables RENAME TABLE renamed
// to their new names, as MySQL keeps them locked.
func (c *Conn) renameTableLocks(rn *sql.RenameTable) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tableLocks == nil {
		return
	}
	for i, from := range rn.From {
		k := strings.ToLower(from)
		if write, ok := c.tableLocks[k]; ok {
			delete(c.tableLocks, k)
			c.tableLocks[strings.ToLower(rn.To[i])] = write
		}
	}
}
