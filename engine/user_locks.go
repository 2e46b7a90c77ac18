package engine

import (
	"context"
	"sync/atomic"

	"gpusql/exec"
	"gpusql/exec/cpu"
)

// Each connection holds its own user-level locks (GET_LOCK; the table is
// exec.UserLocks, one per database). The engine puts the connection's lock
// owner into the context of every statement it runs, and Close gives the
// connection's locks back: a server session when its client goes, a
// database/sql connection when the pool closes it.

// lockIDs numbers the connections that have no server connection id
// (the REPL, scripts, database/sql): IS_USED_LOCK names them by it. They
// start past the 32-bit server ids so the two never meet.
var lockIDs atomic.Int64

func init() { lockIDs.Store(1 << 32) }

// lockOwner returns the connection's owner in the database's lock table,
// made on first use.
func (c *Conn) lockOwner() *exec.LockOwner {
	c.locksOnce.Do(func() { c.locks = c.db.userLocks.Owner(c.connID()) })
	return c.locks
}

// connID is the connection's id: a server session's (pseudo_thread_id on
// its own session), else one drawn from lockIDs on first use. A Conn
// without a session of its own (database/sql) shares the database's
// session, so that session's id cannot name it.
func (c *Conn) connID() int64 {
	c.idOnce.Do(func() {
		if c.session != nil {
			if v, ok := c.view().session.Variable("pseudo_thread_id"); ok && v.I != 0 {
				c.id = v.I
				return
			}
		}
		c.id = lockIDs.Add(1)
	})
	return c.id
}

// withLocks is ctx carrying the connection's lock owner, and its user
// variables for the statements that assign them row by row.
func (c *Conn) withLocks(ctx context.Context) context.Context {
	return cpu.WithUserVars(exec.WithLockOwner(ctx, c.lockOwner()), c.vars)
}

// Close ends the connection: an open transaction rolls back and the
// user-level locks it holds are released. The connection may not be used
// afterwards.
func (c *Conn) Close() {
	c.Rollback()
	c.locksOnce.Do(func() {}) // no owner made now: nothing was locked
	if c.locks != nil {
		c.locks.ReleaseAll()
	}
}
