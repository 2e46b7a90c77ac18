package engine

import (
	"context"
	"fmt"
	"strings"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A database has one memory accountant (exec.Memory) under its limit; each
// query gets a child accountant, so the queries running at once share the
// limit, and everything a query reserved is given back when it ends, error
// or not. The limit is Options.MemoryLimit, changed later by SetMemoryLimit
// or SET memory_limit, and read by SELECT @@memory_limit.

// resolveMemoryLimit turns an Options / SetMemoryLimit value into the
// accountant's: 0 is the default (75% of RAM), negative is unlimited (0 in
// the accountant).
func resolveMemoryLimit(n int64) int64 {
	switch {
	case n == 0:
		return exec.DefaultMemoryLimit()
	case n < 0:
		return 0
	}
	return n
}

// SetMemoryLimit sets the bytes the database's queries may hold at once:
// 0 restores the default (75% of the machine's RAM), a negative value
// removes the limit. Queries running now keep what they hold.
func (db *DB) SetMemoryLimit(n int64) {
	db.mem.SetLimit(resolveMemoryLimit(n))
	db.session.SetEngineVariable("memory_limit", &sql.Const{T: columnar.TInt64, I: db.mem.Limit()})
}

// MemoryLimit is the limit in bytes (0: unlimited).
func (db *DB) MemoryLimit() int64 { return db.mem.Limit() }

// ParseMemoryLimit reads a memory limit as the flag, the DSN and SET take
// it: a byte size ("2GB", "512MiB", "1.5 GiB"), "0" or "unlimited" for no
// limit, "default" for 75% of RAM. The result is as SetMemoryLimit takes
// it.
func ParseMemoryLimit(s string) (int64, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "default":
		return 0, nil
	case "0", "unlimited", "none":
		return -1, nil
	}
	n, err := exec.ParseBytes(s)
	if err != nil {
		return 0, fmt.Errorf("memory limit: %w", err)
	}
	if n == 0 {
		return -1, nil
	}
	return n, nil
}

// queryMemory gives a query its own accountant under the database's (and
// the spill options of the moment, spill.go); the
// returned function ends it, giving back whatever the query still holds.
func (db *DB) queryMemory(ctx context.Context) (context.Context, func()) {
	m := exec.NewMemory(0, db.mem)
	ctx = exec.WithSpillOptions(ctx, db.spillOptions())
	return exec.WithMemory(ctx, m), m.Close
}

// setMemoryLimit applies SET memory_limit = v: a byte-size string, a
// number of bytes, 0 for no limit.
func (db *DB) setMemoryLimit(v *sql.Const) error {
	switch {
	case v.Null:
		return fmt.Errorf("variable 'memory_limit' can't be set to the value of 'NULL'")
	case v.T.ID == columnar.String:
		n, err := ParseMemoryLimit(v.S)
		if err != nil {
			return fmt.Errorf("variable 'memory_limit' can't be set to the value of '%s': %v", v.S, err)
		}
		db.SetMemoryLimit(n)
	case v.T.Physical() == columnar.PhysFloat64 || v.T.Scale > 0:
		return fmt.Errorf("variable 'memory_limit' takes a byte count or a size as '2GB', got %s", v)
	case v.I < 0:
		return fmt.Errorf("variable 'memory_limit' can't be set to the value of '%d'", v.I)
	case v.I == 0:
		db.SetMemoryLimit(-1)
	default:
		db.SetMemoryLimit(v.I)
	}
	return nil
}
