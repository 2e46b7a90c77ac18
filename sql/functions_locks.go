package sql

import "gpusql/storage/columnar"

// MySQL's user-level lock functions (exec/user_locks.go keeps the locks;
// exec/cpu/rowfunc_locks.go calls it). Each call acts on the session's
// locks when the row is computed, so binding one marks the statement
// volatile: the plan cache never replays it, and the planner keeps the
// plan on the CPU (planner/volatile_refusal.go), which calls the function
// once per row as MySQL does.
//
//	name               args                       result
//	get_lock           name, timeout DOUBLE       1 taken, 0 timed out (negative timeout: no limit)
//	release_lock       name                       1 released, 0 held by another session, NULL not held
//	is_free_lock       name                       1 free, 0 held
//	is_used_lock       name                       the holder's connection id, NULL when free
//	release_all_locks  -                          how many holds were released
func init() {
	for n := range LockFuncs {
		moreFuncs[n] = true
		VolatileFuncs[n] = true
	}
}

// LockFuncs are the user-level lock functions.
var LockFuncs = map[string]bool{"get_lock": true, "release_lock": true, "is_free_lock": true, "is_used_lock": true, "release_all_locks": true}

// lockFunc binds the functions above.
func (c *call) lockFunc() (Expr, bool, error) {
	switch c.name {
	case "get_lock":
		if err := c.nativeArity(2, 2); err != nil {
			return nil, true, err
		}
		timeout := c.args[1]
		if _, ok := numericType(timeout.Type()); !ok && !isNullConst(timeout) && timeout.Type().ID != columnar.String {
			return nil, true, c.b.errf(c.pos, "type mismatch: get_lock() timeout of %s (a number of seconds is required)", timeout.Type())
		}
		c.b.volatile("GET_LOCK()")
		return c.fn(columnar.TInt64, c.str(c.args[0]), castTo(timeout, columnar.TFloat64))
	case "release_lock", "is_free_lock", "is_used_lock":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		c.b.volatile(c.name + "()")
		t := columnar.TInt64
		if c.name == "is_used_lock" {
			t = columnar.TUint64
		}
		return c.fn(t, c.str(c.args[0]))
	case "release_all_locks":
		if err := c.nativeArity(0, 0); err != nil {
			return nil, true, err
		}
		c.b.volatile("RELEASE_ALL_LOCKS()")
		return c.fn(columnar.TUint64)
	}
	return nil, false, nil
}
