package engine

import (
	"context"
	"sync"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Conn is one connection (session) to a DB: what its statements see
// depends on whether it has a transaction open. The REPL and scripts use
// the DB's own connection (DB.Exec); each database/sql connection has one.
//
// Transactions: BEGIN (or START TRANSACTION) clones the catalog's table
// snapshots; the transaction's statements read and write the clone, so
// other sessions see none of its changes and it sees none of theirs
// (snapshot isolation). ROLLBACK drops the clone. COMMIT publishes the
// tables it changed, all at once; if another session committed a change to
// one of those tables since BEGIN, COMMIT fails with a conflict error and
// nothing is applied (first committer wins), and the transaction ends. As
// in MySQL, CREATE and DROP TABLE commit the open transaction first, BEGIN
// inside a transaction commits it, and a failing statement changes nothing
// but leaves the transaction open.
type Conn struct {
	db *DB
	mu sync.Mutex
	tx *transaction
	// vars are the connection's user variables (@name).
	vars *sql.UserVars
	// prepared are the statements PREPAREd on the connection (prepare.go).
	prepared preparedStatements

	// A session connection's own variables, memory accountant and
	// options (session.go); nil / zero on the DB's shared ones.
	session *sql.Session
	mem     *exec.Memory
	opts    SessionOptions

	// locks is the connection's side of the user-level lock table
	// (user_locks.go), made on first use.
	locksOnce sync.Once
	locks     *exec.LockOwner
	// id is connID's, drawn once.
	idOnce sync.Once
	id     int64

	// status counts the connection's statements (SHOW SESSION STATUS).
	status statusCounters
	// tableLocks are the tables LOCK TABLES holds, by lower-cased name,
	// true for WRITE; nil when none are locked (lock_tables.go).
	tableLocks map[string]bool
	// foundRows: the client asked for CLIENT_FOUND_ROWS (row_count.go).
	foundRows bool
}

type transaction struct {
	base       map[string]*columnar.Table
	work       *catalog.Catalog
	readOnly   bool
	savepoints []savepoint // oldest first (savepoint.go)
	// locked are the tables read FOR UPDATE or FOR SHARE (lower-cased):
	// COMMIT fails if another session changed one (sql.QueryReads).
	locked map[string]bool
}

// Conn returns a new connection to db, with no transaction open.
func (db *DB) Conn() *Conn {
	c := &Conn{db: db, vars: sql.NewUserVars()}
	c.vars.SetEvaluator(db.evalConst)
	c.vars.SetConnectionID(c.connID)
	return c
}

// ErrReadOnlyTransaction is a write inside START TRANSACTION READ ONLY.
// It is MySQL's 1792, whose text ends with a period.
var ErrReadOnlyTransaction error = sql.Errorf(1792, "Cannot execute statement in a READ ONLY transaction.")

// InTransaction reports whether c has a transaction open.
func (c *Conn) InTransaction() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tx != nil
}

// Begin opens a transaction, committing the open one first (MySQL).
func (c *Conn) Begin(readOnly bool) error {
	if err := c.Commit(); err != nil {
		return err
	}
	base := c.db.cat.Tables()
	c.mu.Lock()
	work := catalog.Clone(base)
	work.CopyIndexes(c.db.cat)
	work.ShareCounters(c.db.cat)
	c.tx = &transaction{base: base, work: work, readOnly: readOnly}
	c.mu.Unlock()
	return nil
}

// Commit publishes the open transaction's changes and ends it (also when
// publishing fails on a conflict). Without a transaction it does nothing.
func (c *Conn) Commit() error {
	c.mu.Lock()
	tx := c.tx
	c.tx = nil
	c.mu.Unlock()
	if tx == nil {
		return nil
	}
	return c.db.cat.Publish(tx.base, tx.work, tx.locked)
}

// Rollback discards the open transaction, if any.
func (c *Conn) Rollback() {
	c.mu.Lock()
	c.tx = nil
	c.mu.Unlock()
}

// view is the DB the connection's next statement runs against: the DB
// itself, or inside a transaction the same DB over the transaction's
// catalog.
func (c *Conn) view() *DB {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx == nil && c.session == nil {
		return c.db
	}
	v := *c.db
	if c.tx != nil {
		v.cat = c.tx.work
	}
	if c.session != nil {
		v.session, v.mem, v.fileRoot, v.noFiles = c.session, c.mem, c.opts.FileRoot, c.opts.NoFiles
	}
	return &v
}

// transactionStatement runs BEGIN, COMMIT, ROLLBACK and the savepoint
// statements; for any other statement it applies the transaction rules
// first (DDL commits, READ ONLY refuses writes, autocommit = 0 opens a
// transaction) and reports handled false.
func (c *Conn) transactionStatement(stmt sql.Statement) (r *StatementResult, handled bool, err error) {
	if err := c.tableLockStatement(stmt); err != nil {
		return nil, true, err
	}
	switch s := stmt.(type) {
	case *sql.Begin:
		if err := c.Begin(s.ReadOnly); err != nil {
			return nil, true, err
		}
		return message("transaction started"), true, nil
	case *sql.Commit:
		if err := c.Commit(); err != nil {
			return nil, true, err
		}
		return message("committed"), true, nil
	case *sql.Rollback:
		c.Rollback()
		return message("rolled back"), true, nil
	case *sql.Savepoint, *sql.RollbackTo, *sql.ReleaseSavepoint:
		if err := c.implicitBegin(stmt); err != nil {
			return nil, true, err
		}
		return c.savepointStatement(stmt)
	case *sql.LockTables, *sql.CreateTable, *sql.CreateTableAs, *sql.DropTable, *sql.AlterColumns, *sql.AlterAutoIncrement, *sql.AlterTableOptions, *sql.TruncateTable, *sql.RenameTable, *sql.ImportDatabase:
		return nil, false, c.Commit()
	case *sql.Insert, *sql.Load, *sql.Update, *sql.Delete, *sql.MultiUpdate, *sql.MultiDelete:
		c.mu.Lock()
		ro := c.tx != nil && c.tx.readOnly
		c.mu.Unlock()
		if ro {
			return nil, false, ErrReadOnlyTransaction
		}
	}
	if err := c.implicitBegin(stmt); err != nil {
		return nil, false, err
	}
	if q, ok := stmt.(*sql.Query); ok && q.Reads.Locking {
		c.lockTables(q.Reads.Tables)
	}
	return nil, false, nil
}

// lockTables adds the tables a locking read reads to the open
// transaction's locked tables; outside a transaction it does nothing.
func (c *Conn) lockTables(tables map[string]*columnar.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx == nil {
		return
	}
	if c.tx.locked == nil {
		c.tx.locked = map[string]bool{}
	}
	for k := range tables {
		c.tx.locked[k] = true
	}
}

// Exec is DB.Exec on this connection.
func (c *Conn) Exec(ctx context.Context, text, baseDir string) ([]*StatementResult, error) {
	var out []*StatementResult
	err := c.ExecStream(ctx, text, baseDir, func(r *StatementResult) error {
		out = append(out, r)
		return nil
	})
	return out, err
}
