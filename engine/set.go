package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"

	"gpusql/exec/cpu"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// set applies SET assignments. As MySQL's sql_set_variables does, it
// computes every value first (each may read the variable it replaces, as
// in REPLACE(@@sql_mode, ...), and sees the values from before the SET),
// then checks every assignment, and applies them only when all pass: SET
// @a = 1, @@sql_mode = 'bogus' is 1231 and leaves @a as it was.
func (db *DB) set(ctx context.Context, s *sql.Set) (*StatementResult, error) {
	values := make([]*sql.Const, len(s.Assignments))
	for i, a := range s.Assignments {
		v, err := db.setValue(ctx, a)
		if err != nil {
			return nil, err
		}
		values[i] = v
	}
	// engine holds the setters of gpusql's own variables, which check
	// as they apply; they run before the checked ones so that a failure
	// among them leaves MySQL's variables unchanged.
	var engine []engineApply
	var checked []func() error
	for i, a := range s.Assignments {
		apply, ok, err := db.checkAssignment(ctx, s, a, values[i])
		switch {
		case err != nil:
			return nil, err
		case ok:
			checked = append(checked, apply)
		default:
			engine = append(engine, engineApply{apply, db.engineUndo(a.Name)})
		}
	}
	if err := db.applyAll(engine, checked); err != nil {
		return nil, err
	}
	return message("variables set"), nil
}

// checkAssignment checks one assignment of a SET and returns how to
// apply it; checked reports that the check is complete (apply cannot
// fail), false for gpusql's own variables, whose setters check.
func (db *DB) checkAssignment(ctx context.Context, s *sql.Set, a sql.Assignment, v *sql.Const) (apply func() error, checked bool, err error) {
	if a.User {
		if v.T.ID == columnar.String && !v.Null {
			v.Collation = a.Collation
		}
		return func() error { s.Vars.Set(a.Name, v); return nil }, true, nil
	}
	if apply, ok, err := checkLimit(db.session, a.Name, v, a.Global, sql.WarningsFrom(ctx)); ok {
		return apply, true, err
	}
	switch a.Name {
	case "sql_mode":
		apply, err := db.checkSQLMode(v, a.Global)
		return apply, true, err
	case "time_zone":
		apply, err := db.checkTimeZone(v, a.Global)
		return apply, true, err
	case "sql_log_bin":
		apply, err := db.checkLogBin(v, a.Global)
		return apply, true, err
	}
	if setter, ok := db.engineSetters()[a.Name]; ok {
		return func() error { return setter(v) }, false, nil
	}
	// A connect-time variable: SetFixed only checks, there is nothing to apply.
	if handled, err := sql.SetFixed(a.Name, v); handled {
		return func() error { return nil }, true, err
	}
	return nil, true, db.unsettable(a.Name)
}

// engineSetters are the setters of gpusql's own variables by name.
func (db *DB) engineSetters() map[string]func(*sql.Const) error {
	return map[string]func(*sql.Const) error{
		"memory_limit":    db.setMemoryLimit,
		"tmpdir":          db.setTmpdir,
		"max_spill_bytes": db.setMaxSpill,
		"join_algorithm":  db.setJoinAlgorithm,
		"gpu_memory":      db.setGPUMemory,
		"epsilon_join":    db.setEpsilonJoin,
		"gpus":            db.setGPUsVar,
		"plan_cache":      db.setPlanCache,
		"gpu_packing":     db.setGPUPacking,
	}
}

// checkSQLMode checks SET [GLOBAL] sql_mode = v: NULL and an unknown
// mode name are 1231.
func (db *DB) checkSQLMode(v *sql.Const, global bool) (func() error, error) {
	if v.Null {
		return nil, sql.Errorf(sql.ErWrongValueForVar, "Variable 'sql_mode' can't be set to the value of 'NULL'")
	}
	text := v.S
	if v.T.ID != columnar.String {
		var err error
		if text, err = sql.SQLModeOfBits(v); err != nil {
			return nil, err
		}
	}
	if err := sql.CheckSQLMode(text); err != nil {
		return nil, err
	}
	set := db.session.SetSQLMode
	if global {
		set = db.session.SetGlobalSQLMode
	}
	return func() error { return set(text) }, nil
}

// settableVariables names the variables SET changes, for its errors.
const settableVariables = "gpusql's settable variables: sql_mode, memory_limit, tmpdir, max_spill_bytes, gpu_memory, gpus, join_algorithm, epsilon_join, plan_cache, gpu_packing, cte_max_recursion_depth, group_concat_max_len, max_execution_time, autocommit, time_zone"

// unsettable is the error of SET name for one of MySQL's variables that
// gpusql does not have (SET max_connections): a MySQL server would take
// it, so it is no 1193; the binder gave that for names MySQL lacks.
func (db *DB) unsettable(name string) error {
	return fmt.Errorf("unsupported: SET %s (%s)", name, settableVariables)
}

// setValue computes an assignment's new value; DEFAULT is the variable's
// initial one.
func (db *DB) setValue(ctx context.Context, a sql.Assignment) (*sql.Const, error) {
	if a.Default {
		switch a.Name {
		case "sql_mode":
			if a.Global {
				return &sql.Const{T: columnar.TString, S: sql.DefaultSQLMode}, nil
			}
			return &sql.Const{T: columnar.TString, S: db.session.GlobalSQLMode()}, nil // MySQL's session DEFAULT
		case "memory_limit", "gpu_memory":
			return &sql.Const{T: columnar.TString, S: "default"}, nil
		case "tmpdir":
			return &sql.Const{T: columnar.TString, S: cmp.Or(db.opts.TmpDir, os.TempDir())}, nil
		case "max_spill_bytes":
			return &sql.Const{T: columnar.TInt64, I: max(db.opts.MaxSpill, 0)}, nil
		case "join_algorithm":
			return &sql.Const{T: columnar.TString, S: defaultJoinAlgorithm(db.opts.Join)}, nil
		case "epsilon_join":
			return &sql.Const{T: columnar.TString, S: "on"}, nil
		case "gpus":
			return &sql.Const{T: columnar.TString, S: "all"}, nil
		case "plan_cache":
			return &sql.Const{T: columnar.TString, S: defaultPlanCache(db.opts.PlanCache)}, nil
		case "gpu_packing":
			return &sql.Const{T: columnar.TString, S: defaultGPUPacking(db.opts.Packing)}, nil
		case "time_zone":
			if a.Global {
				return &sql.Const{T: columnar.TString, S: sql.UTCZone.Name}, nil
			}
			return &sql.Const{T: columnar.TString, S: db.session.GlobalTimeZone().Name}, nil
		}
		if d, ok := sql.LimitDefault(a.Name); ok {
			if !a.Global {
				d = db.session.GlobalLimit(a.Name) // MySQL's session DEFAULT
			}
			return &sql.Const{T: columnar.TInt64, I: d}, nil
		}
		if v, ok := db.session.Variable(a.Name); ok {
			return v, nil // a connect-time variable: its one value
		}
		return nil, fmt.Errorf("unsupported: SET %s = DEFAULT", a.Name)
	}
	return db.runConst(ctx, a.Value)
}

// evalConst computes q, a one-row query of no tables, on the CPU: the
// binder's way to a value it must know as it binds (sql.UserVars.SetEvaluator).
func (db *DB) evalConst(q *sql.Query) (*sql.Const, error) {
	return db.runConst(context.Background(), q)
}

// runConst runs q, a query of one row and column at most, on the CPU: its
// value, NULL when it has no row.
func (db *DB) runConst(ctx context.Context, q *sql.Query) (*sql.Const, error) {
	p, err := db.plan(q)
	if err != nil {
		return nil, err
	}
	ctx, done := db.queryMemory(ctx)
	defer done()
	res, err := cpu.Run(ctx, p)
	if err != nil {
		return nil, err
	}
	if res.Rows == 0 {
		return &sql.Const{T: res.Columns[0].Type, Null: true}, nil
	}
	return cellConst(res.Columns[0], 0), nil
}

// cellConst is row r of column c as a constant of c's type.
func cellConst(c *columnar.Column, r int) *sql.Const {
	k := &sql.Const{T: c.Type}
	switch {
	case c.IsNull(r):
		k.Null = true
	case c.Type.ID == columnar.String:
		k.S = c.StringAt(r)
	case c.Type.ID == columnar.Vector:
		k.V = append([]float32{}, c.VectorAt(r)...)
	case c.W != nil:
		k.W = c.W[r]
	case c.F64 != nil:
		k.F = c.F64[r]
	default:
		k.I = c.Int64At(r)
	}
	return k
}

// checkLimit checks SET [GLOBAL] of an integer limit variable and returns
// how to apply it; it reports whether name is one. A value under the least is raised to it with
// MySQL's warning 1292 (SET group_concat_max_len = 1 stores 4).
func checkLimit(s *sql.Session, name string, v *sql.Const, global bool, w *sql.Warnings) (func() error, bool, error) {
	if _, ok := sql.LimitDefault(name); !ok {
		return nil, false, nil
	}
	if name == "foreign_key_checks" && !v.Null && (v.T.ID == columnar.String || v.T.IsInteger()) {
		// A switch: 0 / 1 / OFF / ON; another value is 1231, as in MySQL.
		on, err := switchValue(name, v)
		if err != nil {
			return nil, true, err
		}
		v = &sql.Const{T: columnar.TInt64}
		if on {
			v.I = 1
		}
	}
	// MySQL's errors: NULL is no value of the variable (1231), a string
	// or a fraction no value of its type (1232).
	if v.Null {
		return nil, true, wrongValueForVar(name, v)
	}
	if !v.T.IsInteger() {
		return nil, true, sql.Errorf(sql.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", name)
	}
	if v.T.Unsigned && v.I < 0 {
		// Past BIGINT (SET sql_select_limit = 18446744073709551615,
		// MySQL's "no limit"): the largest limit there is.
		v = &sql.Const{T: columnar.TInt64, I: math.MaxInt64}
	}
	n := v.I
	if name == "max_allowed_packet" {
		n = sql.PacketFit(n)
	}
	if name != "foreign_key_checks" && (v.I < sql.LimitLeast(name) || n != v.I) {
		w.Add(sql.ErTruncatedWrongValue, fmt.Sprintf("Truncated incorrect %s value: '%d'", name, v.I))
	}
	return func() error {
		if global {
			s.SetGlobalLimit(name, n)
		} else {
			s.SetLimit(name, n)
		}
		return nil
	}, true, nil
}

// wrongValueForVar is MySQL's 1231 for SET name = v: the value as MySQL
// quotes it, a string's text without SQL quotes, NULL as the word.
func wrongValueForVar(name string, v *sql.Const) error {
	text := v.String()
	switch {
	case v.Null:
		text = "NULL"
	case v.T.ID == columnar.String:
		text = v.S
	}
	return sql.Errorf(sql.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", name, text)
}

// checkTimeZone checks SET [GLOBAL] time_zone (sql/time_zone.go): an
// unknown zone is MySQL's error 1298.
func (db *DB) checkTimeZone(v *sql.Const, global bool) (func() error, error) {
	if v.Null {
		return nil, fmt.Errorf("variable 'time_zone' can't be set to the value of 'NULL'")
	}
	if v.T.ID != columnar.String {
		return nil, &sql.UnknownTimeZoneError{Name: v.String()}
	}
	z, err := sql.ParseTimeZone(v.S)
	if err != nil {
		return nil, err
	}
	return func() error {
		if global {
			db.session.SetGlobalTimeZone(z)
		} else {
			db.session.SetTimeZone(z)
		}
		return nil
	}, nil
}

// checkLogBin checks SET sql_log_bin, a session-only switch in MySQL 8
// (SET GLOBAL is its 1228).
func (db *DB) checkLogBin(v *sql.Const, global bool) (func() error, error) {
	if global {
		return nil, sql.Errorf(sql.ErLocalVariable, "Variable 'sql_log_bin' is a SESSION variable and can't be used with SET GLOBAL")
	}
	on, err := switchValue("sql_log_bin", v)
	if err != nil {
		return nil, err
	}
	bit := int64(0)
	if on {
		bit = 1
	}
	return func() error {
		db.session.SetEngineVariable("sql_log_bin", &sql.Const{T: columnar.TInt64, I: bit})
		return nil
	}, nil
}
