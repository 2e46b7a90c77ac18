package engine

import (
	"fmt"
	"os"
	"strings"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Operators past the memory limit spill to temporary files (exec.Spill):
// under tmpdir (Options.TmpDir, --tmpdir, SET tmpdir; default the
// system's temporary directory), at most max_spill_bytes on disk per
// query (Options.MaxSpill, --max-spill, SET max_spill_bytes; 0 is no
// limit). Each query makes its own directory there, removed when it ends.

// initSpill sets the variables' first values from the options.
func (db *DB) initSpill() {
	dir := db.opts.TmpDir
	if dir == "" {
		dir = os.TempDir()
	}
	db.session.SetEngineVariable("tmpdir", &sql.Const{T: columnar.TString, S: dir})
	db.session.SetEngineVariable("max_spill_bytes", &sql.Const{T: columnar.TInt64, I: max(db.opts.MaxSpill, 0)})
}

// spillOptions are the current values, for a query starting now.
func (db *DB) spillOptions() exec.SpillOptions {
	var o exec.SpillOptions
	if v, ok := db.session.Variable("tmpdir"); ok && !v.Null {
		o.Dir = v.S
	}
	if v, ok := db.session.Variable("max_spill_bytes"); ok && !v.Null {
		o.MaxBytes = v.I
	}
	return o
}

// ParseMaxSpill reads a disk limit as --max-spill and SET take it: a byte
// size ("10GB", "512MiB"), or "0" / "unlimited" for none.
func ParseMaxSpill(s string) (int64, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "0", "unlimited", "none", "default":
		return 0, nil
	}
	n, err := exec.ParseBytes(s)
	if err != nil {
		return 0, fmt.Errorf("max spill: %w", err)
	}
	return n, nil
}

// setMaxSpill applies SET max_spill_bytes = v: a size string or a number
// of bytes, 0 for no limit.
func (db *DB) setMaxSpill(v *sql.Const) error {
	var n int64
	switch {
	case v.Null:
		return fmt.Errorf("variable 'max_spill_bytes' can't be set to the value of 'NULL'")
	case v.T.ID == columnar.String:
		var err error
		if n, err = ParseMaxSpill(v.S); err != nil {
			return fmt.Errorf("variable 'max_spill_bytes' can't be set to the value of '%s': %v", v.S, err)
		}
	case !v.T.IsInteger() || v.I < 0:
		return fmt.Errorf("variable 'max_spill_bytes' takes a byte count or a size as '10GB', got %s", v)
	default:
		n = v.I
	}
	db.session.SetEngineVariable("max_spill_bytes", &sql.Const{T: columnar.TInt64, I: n})
	return nil
}

// setTmpdir applies SET tmpdir = 'path': an existing directory.
func (db *DB) setTmpdir(v *sql.Const) error {
	if v.Null || v.T.ID != columnar.String || v.S == "" {
		return fmt.Errorf("variable 'tmpdir' takes a directory path, got %s", v)
	}
	st, err := os.Stat(v.S)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("variable 'tmpdir' can't be set to '%s': not a directory", v.S)
	}
	db.session.SetEngineVariable("tmpdir", &sql.Const{T: columnar.TString, S: v.S})
	return nil
}
