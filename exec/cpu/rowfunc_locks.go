package cpu

import (
	"context"
	"errors"
	"math"
	"time"

	"gpusql/exec"
	"gpusql/sql"
)

// GET_LOCK and its kin (sql/functions_locks.go) act for the session whose
// lock owner the query's context carries (exec.WithLockOwner; the engine
// puts each connection's there).

func init() {
	for n := range sql.LockFuncs {
		compiledBodies[n] = (*compiler).lockBody
		nullSafeRowFuncs[n] = true // a NULL name is MySQL's error, not NULL
	}
}

// errNoLockSession is raised where a statement runs outside a session
// (no lock owner in its context).
var errNoLockSession = errors.New("user-level locks need a session: GET_LOCK and its kin run in a connection's statements")

// lockBody makes the body of one lock function.
func (c *compiler) lockBody(e *sql.Func) func(f *rowFunc, a []val) val {
	ctx := context.Background()
	if c.x != nil {
		ctx = c.x.ctx
	}
	owner := exec.LockOwnerFrom(ctx)
	return func(f *rowFunc, a []val) val {
		if owner == nil {
			raise(errNoLockSession)
		}
		if e.Name == "release_all_locks" {
			return iv(owner.ReleaseAll())
		}
		key, err := exec.LockName(a[0].s, a[0].null)
		if err != nil {
			raise(err)
		}
		switch e.Name {
		case "get_lock":
			ok, err := owner.Get(ctx, key, lockTimeout(a[1]))
			if err != nil {
				raise(err)
			}
			return boolVal(ok)
		case "release_lock":
			released, held := owner.Release(key)
			if !held {
				return nullVal
			}
			return boolVal(released)
		case "is_free_lock":
			return boolVal(owner.Holder(key) == nil)
		default: // is_used_lock
			if h := owner.Holder(key); h != nil {
				return iv(h.ID)
			}
			return nullVal
		}
	}
}

// lockTimeout is GET_LOCK's timeout in seconds as MySQL reads it: rounded
// to whole seconds, negative meaning no limit, NULL as 0.
func lockTimeout(v val) time.Duration {
	if v.null || math.IsNaN(v.f) {
		return 0
	}
	s := math.Round(v.f)
	if s < 0 {
		return -1
	}
	return time.Duration(min(s, 1e9)) * time.Second
}
