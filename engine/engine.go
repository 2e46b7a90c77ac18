// Package engine runs SQL text against a database: it parses a script, binds
// each statement against the catalog, plans queries, runs them on the CPU or
// GPU executor and applies DDL, INSERT and LOAD to the catalog. The REPL, the
// database/sql driver, the bench command and the SQL logic tests all go
// through (*DB).Exec, so they see the same behaviour.
package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Options configure a database.
type Options struct {
	// Executor is "cpu", "gpu" or "auto" ("" = auto: the GPU when this build
	// has CUDA support and a device answers, else the CPU).
	Executor string
	// Check runs every query on both executors and fails the statement when
	// their results differ.
	Check bool
	// Join and GroupBy force the planner's algorithm choices ("" = cost
	// based; Join "hash" | "merge"; GroupBy "dense" | "hash").
	Join, GroupBy string
	// MemoryLimit bounds the bytes the database's queries hold at once
	// (hash tables, sorts, intermediate results): 0 is 75% of the
	// machine's RAM, negative is no limit. A query that would pass it
	// stops with an error naming the operator.
	MemoryLimit int64
	// TmpDir is where queries past the memory limit spill to temporary
	// files ("": the system's temporary directory); MaxSpill bounds the
	// bytes a query's files hold (0: no limit). See spill.go.
	TmpDir   string
	MaxSpill int64
	// Path is the database directory (created when absent); "" keeps the
	// database in memory. See persist.go and docs/storage-format.md.
	Path string
	// NoSync skips fsync when writing the database: statements then
	// survive the process being killed but not a power loss (tests).
	NoSync bool
	// GPUProfile names the GPU to plan for ("h100", "h200"; "" = the
	// device's own profile when a GPU is used). With it, executor "gpu"
	// opens without a GPU: EXPLAIN shows the GPU plan, queries say they
	// need a GPU.
	GPUProfile string
	// Remap says when columns get a replica-remapped twin (remap.go):
	// "" or "analyze" on ANALYZE TABLE, "load" also after each LOAD and
	// when a database directory opens, "off" never. RemapMinRows is the
	// least rows of a table whose columns are remapped (0: 1 Mi rows).
	Remap        string
	RemapMinRows int
	// GPUMemory is the device memory budget of a query's plan in bytes
	// (0: most of the device's free memory); see gpu_memory.go.
	GPUMemory int64
	// PlanCache is "on" (or "") to reuse the plans of repeated SELECTs,
	// "off" to plan every statement anew (plan_cache.go); SET plan_cache
	// changes it for a session.
	PlanCache string
	// Packing is "transfer" (or "", the default) to send the fused star
	// kernel's resident fact columns to the GPU bit-packed and unpack them
	// there, "on" to keep them bit-packed on the GPU, "off" to copy them 4
	// bytes a value (gpu_packing.go); SET gpu_packing changes it for a
	// session.
	Packing string
	// GPUs are the device indices plans may use (nil: every visible GPU);
	// see gpu_devices.go.
	GPUs []int
	// TimeZone is @@global.time_zone, the zone sessions start in ("":
	// SYSTEM, which is UTC): an offset '+02:00' or a zone name
	// (sql/time_zone.go). MySQL's --default-time-zone.
	TimeZone string
	// SplitEveryStar, for tests, splits every star query over the GPUs
	// whatever its size (planner.GPUProfile.ForceSplit).
	SplitEveryStar bool
	// SetOpAlgorithm, for tests, runs every DISTINCT and set operation on
	// the GPU by "sort" or "hash" whatever the cost says ("": the planner
	// chooses; planner.GPUProfile.ForceSetOp).
	SetOpAlgorithm string
}

// DB is one database: a catalog of tables and the options queries run with.
// It is safe for concurrent use; statements that change the same table are
// serialized by the catalog.
type DB struct {
	opts Options
	cat  *catalog.Catalog
	// session holds the system variables statements bind under.
	session *sql.Session
	// executor is the resolved executor, "cpu" or "gpu".
	executor string
	// conn is the connection Exec runs on (the REPL's, a script's).
	conn *Conn
	// mem accounts the memory of every query under the limit.
	mem *exec.Memory
	// durable keeps the catalog in the directory of Options.Path; nil
	// for an in-memory database.
	durable *durable
	// users are the server's accounts (users.go).
	users *users
	// fileRoot, when set, is the folder files must lie under (a server
	// session's; load.go).
	fileRoot string
	noFiles  bool
	// gpuProfile is the GPU plans are made for (nil: plans for the CPU
	// executor only).
	gpuProfile *planner.GPUProfile
	// gpuMem is the GPU memory budget (gpu_memory.go); gpus the devices
	// plans may use (gpu_devices.go).
	gpuMem *gpuBudget
	gpus   *gpuSet
	// plans are the cached plans of repeated queries (plan_cache.go).
	plans *planCache
	// userLocks are the named locks of GET_LOCK (user_locks.go).
	userLocks *exec.UserLocks
	// opened is when Open returned (Uptime); status counts every
	// connection's statements (SHOW GLOBAL STATUS, status.go).
	opened time.Time
	status *statusCounters
}

// Open returns an empty database. Asking for the GPU (or --check) where none
// can be used fails here, naming the reason.
func Open(opts Options) (*DB, error) {
	db := &DB{opts: opts, cat: catalog.New(), session: sql.NewSession(), mem: exec.NewMemory(0, nil), users: &users{}, gpuMem: &gpuBudget{}, gpus: &gpuSet{}, userLocks: exec.NewUserLocks(),
		opened: time.Now(), status: &statusCounters{}}
	db.SetMemoryLimit(opts.MemoryLimit)
	db.initSpill()
	db.plans = newPlanCache(db.cat)
	db.cat.SetFinisher(db.finishSnapshot)
	if !packingModes[opts.Packing] {
		return nil, fmt.Errorf("unknown packing mode %q (want transfer, on or off)", opts.Packing)
	}
	if !planCacheModes[opts.PlanCache] {
		return nil, fmt.Errorf("unknown plan cache mode %q (want on or off)", opts.PlanCache)
	}
	if opts.TimeZone != "" {
		z, err := sql.ParseTimeZone(opts.TimeZone)
		if err != nil {
			return nil, err
		}
		db.session.SetGlobalTimeZone(z)
		db.session.SetTimeZone(z)
	}
	db.session.SetEngineVariable("plan_cache", &sql.Const{T: columnar.TString, S: defaultPlanCache(opts.PlanCache)})
	db.session.SetEngineVariable("gpu_packing", &sql.Const{T: columnar.TString, S: defaultGPUPacking(opts.Packing)})
	db.conn = db.Conn()
	// The REPL's and scripts' CONNECTION_ID() (MySQL's is never 0): the
	// id their user-level locks are held under.
	db.session.SetEngineVariable("pseudo_thread_id", &sql.Const{T: columnar.TInt64, I: db.conn.connID()})
	switch opts.Executor {
	case "", "auto":
		db.opts.Executor = "auto"
		db.executor = "cpu"
		if gpuStatus() == nil {
			db.executor = "gpu"
		}
	case "cpu":
		db.executor = "cpu"
	case "gpu":
		if err := gpuStatus(); err != nil && opts.GPUProfile == "" {
			return nil, err
		}
		db.executor = "gpu"
	default:
		return nil, fmt.Errorf("unknown executor %q (want cpu, gpu or auto)", opts.Executor)
	}
	if opts.Check {
		if err := gpuStatus(); err != nil {
			return nil, fmt.Errorf("check compares the GPU executor with the CPU one: %w", err)
		}
	}
	if err := checkJoinAlgorithm(opts.Join); err != nil {
		return nil, err
	}
	switch opts.GroupBy {
	case "", "dense", "hash":
	default:
		return nil, fmt.Errorf("unknown group-by strategy %q (want dense or hash)", opts.GroupBy)
	}
	switch planner.SetAlgorithm(opts.SetOpAlgorithm) {
	case planner.SetAuto, planner.SetSort, planner.SetHash:
	default:
		return nil, fmt.Errorf("unknown set operation algorithm %q (want sort or hash)", opts.SetOpAlgorithm)
	}
	if !remapModes[opts.Remap] {
		return nil, fmt.Errorf("unknown remap mode %q (want analyze, load or off)", opts.Remap)
	}
	if err := db.chooseGPUProfile(); err != nil {
		return nil, err
	}
	db.SetGPUMemory(opts.GPUMemory)
	if err := db.SetGPUs(opts.GPUs); err != nil {
		return nil, err
	}
	if (db.executor == "gpu" || opts.Check) && gpuStatus() == nil {
		usePinnedMemory()
	}
	if opts.Path != "" {
		d, err := openDurable(opts.Path, opts.NoSync, opts.Remap != "off", db.cat)
		if err != nil {
			return nil, err
		}
		db.durable = d
		if opts.Remap == "load" {
			for _, name := range db.cat.Names() {
				db.buildRemaps(name)
			}
			if err := db.Persist(); err != nil {
				return nil, err
			}
		}
	}
	return db, nil
}

// Catalog is the database's catalog.
func (db *DB) Catalog() *catalog.Catalog { return db.cat }

// Executor is the executor queries run on: "cpu" or "gpu".
func (db *DB) Executor() string { return db.executor }

// Options are the options the database was opened with (Executor resolved
// to "auto" when it was empty).
func (db *DB) Options() Options { return db.opts }

// Kind says whether a statement returned rows or a message.
type Kind uint8

const (
	KindRows    Kind = iota + 1 // a result set (queries, EXPLAIN, SHOW TABLES, DESCRIBE)
	KindMessage                 // DDL, INSERT, LOAD: a line saying what happened
)

// StatementResult is what one statement produced.
type StatementResult struct {
	Kind Kind
	// Result holds the rows of a KindRows statement.
	Result *exec.Result
	// Message says what a KindMessage statement did ("loaded 6001171 rows
	// into lineorder", "created table t", "inserted 3 rows").
	Message string
	// RowsAffected counts the rows inserted or loaded.
	RowsAffected int64
	// RowsFound, where Found is set, is what a client that asked for
	// CLIENT_FOUND_ROWS gets instead of RowsAffected: UPDATE's matched
	// rows, ON DUPLICATE KEY UPDATE's rows updated with no change as 1.
	RowsFound int64
	Found     bool
	// Warnings is the statement's @@warning_count (the OK packet's
	// warnings, SHOW WARNINGS lists them).
	Warnings int64
	// LastInsertID is the MySQL OK packet's insert id: the first
	// AUTO_INCREMENT value the statement generated (AutoGenerated, which
	// also makes it the connection's LAST_INSERT_ID()), else the value its
	// last row stored into the AUTO_INCREMENT column, else 0.
	LastInsertID  uint64
	AutoGenerated bool
	// Elapsed is the statement's time from binding to its last row.
	Elapsed time.Duration
	// Explain is the plan text of EXPLAIN [ANALYZE] (also in Result, one
	// line per row), to print as it is.
	Explain string
	// Line is the 1-based line of the statement in the text given to Exec.
	Line int
	// Executor is the executor that ran a query ("cpu" or "gpu").
	Executor string
}

// StatementError is the error of a statement in a script, naming the line
// the statement starts on.
type StatementError struct {
	Line int
	Err  error
}

func (e *StatementError) Error() string {
	return fmt.Sprintf("statement at line %d: %v", e.Line, e.Err)
}

func (e *StatementError) Unwrap() error { return e.Err }

// Exec runs the statements of text in order on the DB's own connection;
// later statements see the tables earlier ones created or changed.
// Relative file paths (LOAD DATA) resolve against baseDir. On the first
// failure it returns the results of the statements before it and a
// *StatementError. Cancelling ctx stops the running statement.
func (db *DB) Exec(ctx context.Context, text, baseDir string) ([]*StatementResult, error) {
	return db.conn.Exec(ctx, text, baseDir)
}

// ExecStream is Exec handing each statement's result to emit as soon as the
// statement finishes (a script's output appears as it runs). An error from
// emit stops the script and is returned as it is.
func (db *DB) ExecStream(ctx context.Context, text, baseDir string, emit func(*StatementResult) error) error {
	return db.conn.ExecStream(ctx, text, baseDir, emit)
}

// ExecStream is DB.ExecStream on this connection.
func (c *Conn) ExecStream(ctx context.Context, text, baseDir string, emit func(*StatementResult) error) error {
	if r, line, hit, err := c.execScriptCached(ctx, text); hit {
		if err != nil {
			return &StatementError{Line: line, Err: err}
		}
		return emit(r)
	}
	// A syntax error comes with the statements before it, which run first,
	// as the mysql client runs a script up to its broken statement.
	stmts, perr := sql.Parse(text)
	for _, p := range stmts {
		if err := ctx.Err(); err != nil {
			return &StatementError{Line: p.Line, Err: cancelled(err)}
		}
		prog := progressOf(ctx)
		prog.begin(p.Line, taskOf(p))
		r, err := c.execParsed(ctx, p, baseDir)
		prog.end()
		if err != nil {
			if ctx.Err() != nil {
				err = cancelled(ctx.Err())
			}
			return &StatementError{Line: p.Line, Err: err}
		}
		if err := emit(r); err != nil {
			return err
		}
	}
	if perr != nil {
		// The broken statement is the last one run: SHOW WARNINGS and
		// @@error_count read its 1064, as MySQL's do.
		c.NoteError(perr)
		line := 1
		var se *sql.Error
		if errors.As(perr, &se) {
			line = se.Line
		}
		return &StatementError{Line: line, Err: perr}
	}
	return nil
}

// taskOf names a statement for progress reports by its first word.
func taskOf(p sql.Parsed) string {
	w, _, _ := strings.Cut(strings.TrimSpace(p.Text), " ")
	return strings.ToLower(w)
}

// ErrCancelled is the error of a statement stopped by its context (Ctrl-C).
var ErrCancelled = errors.New("query cancelled")

func cancelled(err error) error {
	if errors.Is(err, context.Canceled) {
		return ErrCancelled
	}
	return err
}

// execParsed binds and runs one parsed statement, inside the connection's
// transaction when one is open.
func (c *Conn) execParsed(ctx context.Context, p sql.Parsed, baseDir string) (*StatementResult, error) {
	p.Dir = baseDir
	ctx = c.withLocks(ctx)
	c.countStatement(p.Node)
	warnings := c.vars.BeginWarnings()
	ctx = sql.WithWarnings(ctx, warnings)
	diagnostic := false
	defer func() { c.vars.EndWarnings(diagnostic) }()
	r, err := c.execWarned(ctx, p, baseDir, &diagnostic)
	if err != nil {
		c.noteError(warnings, err)
	}
	if r != nil {
		r.Warnings = warnings.Count()
	}
	return r, err
}

// execWarned is execParsed under the statement's warnings; it reports
// whether the statement was diagnostic (SHOW WARNINGS, which leaves the
// last statement's list as it was).
func (c *Conn) execWarned(ctx context.Context, p sql.Parsed, baseDir string, diagnostic *bool) (*StatementResult, error) {
	mark := sql.WarningsFrom(ctx).Mark()
	r, err := c.execOnce(ctx, p, baseDir, diagnostic)
	if errors.Is(err, exec.ErrExactOverflow) && !p.ExactDecimals {
		// A SUM or AVG left its engine type (BIGINT, DECIMAL(18,s)):
		// bind it as MySQL does, a wide DECIMAL summed exactly on the
		// CPU, and run the statement again (it changed nothing, but
		// the warnings its rows noted, which the second run notes again).
		sql.WarningsFrom(ctx).Rewind(mark)
		p.ExactDecimals = true
		return c.execOnce(ctx, p, baseDir, diagnostic)
	}
	return r, err
}

// execOnce is execWarned's single attempt. A statement bound with exact
// sums neither reads nor fills the plan cache: its types are not the
// ones the text binds to.
func (c *Conn) execOnce(ctx context.Context, p sql.Parsed, baseDir string, diagnostic *bool) (*StatementResult, error) {
	start := time.Now()
	if e, view := c.cachedPlan(p.Text); e != nil && !p.ExactDecimals {
		r, err := view.runCached(ctx, e)
		if err != nil {
			return nil, err
		}
		r.Elapsed, r.Line = time.Since(start), p.Line
		c.recordCounts(ctx, p, r, baseDir)
		return r, nil
	}
	db := c.view()
	var settings string
	if db.planCacheOn() {
		settings = db.planSettings()
	}
	stmt, err := sql.BindConn(db.cat, db.session, c.vars, p)
	if err != nil {
		return nil, err
	}
	_, *diagnostic = stmt.(*sql.ShowWarnings)
	if err := c.checkRights(stmt); err != nil {
		return nil, err
	}
	var r *StatementResult
	if q, ok := db.cacheable(stmt); ok && !p.ExactDecimals {
		r, err = c.execQueryCaching(ctx, p.Text, settings, q)
	} else if d := c.db.durable; d != nil && mayChange(stmt) {
		d.mu.Lock()
		r, err = c.execBound(ctx, stmt, baseDir)
		err = d.settle(c.db.cat, err)
		d.mu.Unlock()
	} else {
		r, err = c.execBound(ctx, stmt, baseDir)
	}
	if _, ok := stmt.(*sql.Query); !ok {
		// Plans of the snapshots a write replaced go now, not at the
		// next query, so their memory goes with them.
		c.db.plans.sweep()
	}
	if err != nil {
		return nil, err
	}
	if r.AutoGenerated {
		c.vars.SetLastInsertID(r.LastInsertID)
	}
	c.recordCounts(ctx, p, r, baseDir)
	r.Elapsed = time.Since(start)
	r.Line = p.Line
	return r, nil
}

// execBound runs a bound statement: a transaction statement, or any other
// inside the connection's transaction when one is open.
func (c *Conn) execBound(ctx context.Context, stmt sql.Statement, baseDir string) (*StatementResult, error) {
	r, handled, err := c.preparedStatement(ctx, stmt, baseDir)
	if err != nil || handled {
		return r, err
	}
	r, handled, err = c.sessionStatement(c.view(), stmt)
	if err != nil || handled {
		return r, err
	}
	if s, ok := stmt.(*sql.Set); ok {
		rest, applyAutocommit, err := c.checkAutocommit(ctx, s)
		if err != nil {
			return nil, err
		}
		if r, err = c.view().execStatement(ctx, rest, baseDir); err != nil {
			return nil, err
		}
		return r, applyAutocommit()
	}
	r, handled, err = c.transactionStatement(stmt)
	if err != nil || handled {
		return r, err
	}
	// A DDL statement may just have committed the transaction.
	r, err = c.view().execStatement(ctx, stmt, baseDir)
	if rn, ok := stmt.(*sql.RenameTable); ok && err == nil {
		c.renameTableLocks(rn)
	}
	return r, err
}

// execStatement runs a bound statement.
func (db *DB) execStatement(ctx context.Context, stmt sql.Statement, baseDir string) (*StatementResult, error) {
	r, err := db.execBound(ctx, stmt, baseDir)
	if err == nil {
		// A DDL statement's warnings (a comment cut to MySQL's bound
		// outside strict mode) are noted once it has done its work.
		for _, w := range sql.TakeDDLWarnings(stmt) {
			sql.WarningsFrom(ctx).Add(w.Code, w.Message)
		}
	}
	return r, err
}

// execBound runs a bound statement of any kind.
func (db *DB) execBound(ctx context.Context, stmt sql.Statement, baseDir string) (*StatementResult, error) {
	switch s := stmt.(type) {
	case *sql.Query:
		qctx, cancel := db.withExecutionLimit(ctx, s)
		res, executor, err := db.query(qctx, s)
		cancel()
		if err != nil {
			return nil, executionLimitError(qctx, err)
		}
		if s.Discard { // DO
			return message("done"), nil
		}
		return &StatementResult{Kind: KindRows, Result: db.withClientTypes(s, res), Executor: executor}, nil
	case *sql.Explain:
		return db.explain(ctx, s)
	case *sql.CreateTable:
		_, existed := db.cat.Table(s.Name)
		if existed && !s.IfNotExists {
			return nil, sql.Errorf(sql.ErTableExists, "Table '%s' already exists", s.Name)
		}
		if err := db.cat.CreateDefined(catalog.TableDef{Name: s.Name, Fields: s.Fields, Indexes: s.Indexes, Checks: s.Checks, ForeignKeys: s.ForeignKeys, Options: s.Options}, s.IfNotExists); err != nil {
			return nil, err
		}
		if !existed && s.AutoIncrement > 1 {
			db.cat.Counter(s.Name).Raise(s.AutoIncrement) // AUTO_INCREMENT = N
		}
		if existed { // IF NOT EXISTS: MySQL's Note 1050
			sql.WarningsFrom(ctx).AddNote(sql.NoteTableExists, fmt.Sprintf("Table '%s' already exists", s.Name))
			return message("table %s already exists", s.Name), nil
		}
		db.warnDuplicateIndexes(ctx, s.Name, indexNames(s.Indexes))
		return message("created table %s", s.Name), nil
	case *sql.CreateTableAs:
		return db.createTableAs(ctx, s)
	case *sql.DropTable:
		if err := db.checkDropReferenced(s.Names); err != nil {
			return nil, err
		}
		if err := db.missingTables(s); err != nil {
			return nil, err
		}
		dropped := 0
		for _, name := range s.Elsewhere {
			sql.WarningsFrom(ctx).AddNote(sql.NoteUnknownTable, fmt.Sprintf("Unknown table '%s'", name))
		}
		for _, name := range s.Names {
			if _, ok := db.cat.Table(name); !ok && s.IfExists {
				// MySQL's Note 1051 for each table that is not there.
				sql.WarningsFrom(ctx).AddNote(sql.NoteUnknownTable, fmt.Sprintf("Unknown table '%s.%s'", sql.DatabaseName, name))
				continue
			}
			if err := db.cat.Drop(name, s.IfExists); err != nil {
				return nil, err
			}
			dropped++
		}
		if dropped == 0 {
			return message("no table dropped"), nil
		}
		if len(s.Names) == 1 {
			return message("dropped table %s", s.Names[0]), nil
		}
		return message("dropped %d %s", dropped, plural(dropped, "table")), nil
	case *sql.Insert:
		return db.insert(ctx, s)
	case *sql.CreateView:
		if err := db.cat.CreateView(s.View, s.OrReplace); err != nil {
			return nil, err
		}
		return message("created view %s", s.View.Name), nil
	case *sql.DropView:
		for _, name := range s.Elsewhere {
			sql.WarningsFrom(ctx).AddNote(sql.NoteUnknownTable, fmt.Sprintf("Unknown table '%s'", name))
		}
		for _, name := range s.Names {
			if _, ok := db.cat.View(name); !ok && s.IfExists {
				// MySQL's Note 1051, as DROP TABLE IF EXISTS gives it.
				sql.WarningsFrom(ctx).AddNote(sql.NoteUnknownTable, fmt.Sprintf("Unknown table '%s.%s'", sql.DatabaseName, name))
				continue
			}
			if err := db.cat.DropView(name, s.IfExists); err != nil {
				return nil, err
			}
		}
		return message("dropped %d %s", len(s.Names), plural(len(s.Names), "view")), nil
	case *sql.CreateIndex:
		if err := db.cat.CreateIndex(s.Table, s.Index, s.IfNotExists); err != nil {
			return nil, err
		}
		db.warnDuplicateIndexes(ctx, s.Table, []string{s.Index.Name})
		return message("created index %s on %s", s.Index.Name, s.Table), nil
	case *sql.DropIndex:
		if err := db.cat.DropIndex(s.Table, s.Name, s.IfExists); err != nil {
			return nil, err
		}
		return message("dropped index %s on %s", s.Name, s.Table), nil
	case *sql.RenameIndex:
		if err := db.cat.RenameIndex(s.Table, s.From, s.To); err != nil {
			return nil, err
		}
		return message("renamed index %s on %s to %s", s.From, s.Table, s.To), nil
	case *sql.AnalyzeTable:
		return db.analyze(s.Tables), nil
	case *sql.LockTables:
		return message("locked %d %s (gpusql's writes are atomic per statement: nothing waits)", len(s.Tables), plural(len(s.Tables), "table")), nil
	case *sql.UnlockTables:
		return message("tables unlocked"), nil
	case *sql.DatabaseNote:
		if s.Note != nil {
			sql.WarningsFrom(ctx).AddNote(s.Note.Code, s.Note.Message)
		}
		return message("database %s unchanged", sql.DatabaseName), nil
	case *sql.TableUnchanged:
		return message("table %s unchanged", s.Table), nil
	case *sql.KeysToggle:
		sql.WarningsFrom(ctx).AddNote(1031, fmt.Sprintf("Table storage engine for '%s' doesn't have this option", s.Table))
		return message("table %s unchanged", s.Table), nil
	case *sql.ShowIndex:
		return db.showIndex(s.Table)
	case *sql.ShowCreateTable:
		return db.showCreateTable(s.Table)
	case *sql.Update:
		return db.update(ctx, s)
	case *sql.Delete:
		return db.deleteRows(ctx, s)
	case *sql.MultiUpdate:
		return db.multiUpdate(ctx, s)
	case *sql.MultiDelete:
		return db.multiDelete(ctx, s)
	case *sql.Load:
		return db.load(ctx, s, baseDir)
	case *sql.Copy:
		return db.copyTo(ctx, s, baseDir)
	case *sql.ShowTables:
		return db.showTables(s), nil
	case *sql.ShowWarnings:
		return showWarnings(s), nil
	case *sql.ShowCatalogTable:
		if r, ok := db.showMore(s); ok { // show_more.go
			return r, nil
		}
		return showCatalogTable(s), nil
	case *sql.Describe:
		return db.describe(s.Table, s.Like, s.Full)
	case *sql.Set:
		return db.set(ctx, s)
	case *sql.SelectIntoVars:
		return db.selectIntoVars(ctx, s)
	case *sql.AlterColumns:
		return db.alterColumns(ctx, s)
	case *sql.AddCheck:
		return db.addCheck(s)
	case *sql.DropCheck:
		return db.dropCheck(s)
	case *sql.AlterCheck:
		return db.alterCheck(s)
	case *sql.AddForeignKey:
		if err := db.cat.AddForeignKey(s.Table, s.Key, s.Index, db.finishOptions()); err != nil {
			return nil, err
		}
		return message("added foreign key %s to %s", s.Key.Name, s.Table), nil
	case *sql.DropForeignKey:
		if err := db.cat.DropForeignKey(s.Table, s.Name); err != nil {
			return nil, err
		}
		return message("dropped foreign key %s from %s", s.Name, s.Table), nil
	case *sql.AlterAutoIncrement:
		return db.alterAutoIncrement(s)
	case *sql.AlterTableOptions:
		if err := db.cat.SetOptions(s.Table, s.Options); err != nil {
			return nil, err
		}
		if s.AutoIncrement != nil {
			return db.alterAutoIncrement(s.AutoIncrement)
		}
		return message("altered table %s", s.Table), nil
	case *sql.TruncateTable:
		return db.truncate(s)
	case *sql.RenameTable:
		return db.renameTables(s)
	case *sql.Checkpoint:
		return db.checkpoint()
	case *sql.CheckDatabase:
		return db.checkDatabase(), nil
	case *sql.ExportDatabase:
		return db.exportDatabase(resolve(baseDir, s.Dir))
	case *sql.ImportDatabase:
		return db.importDatabase(ctx, resolve(baseDir, s.Dir))
	case *sql.CreateUser:
		return db.createUser(s)
	case *sql.DropUser:
		return db.dropUser(s)
	case *sql.Grant:
		return db.grant(s)
	}
	return nil, fmt.Errorf("statement %T is not supported", stmt)
}

func message(format string, args ...any) *StatementResult {
	return &StatementResult{Kind: KindMessage, Message: fmt.Sprintf(format, args...)}
}

// missingTables is MySQL 8's error 1051 for a DROP TABLE (without IF
// EXISTS) naming tables that are not there: every missing one in one
// message, and no table dropped (MySQL 8's DDL is atomic).
func (db *DB) missingTables(s *sql.DropTable) error {
	if s.IfExists {
		return nil
	}
	var missing []string
	for _, name := range s.Names {
		if _, ok := db.cat.Table(name); !ok {
			missing = append(missing, sql.DatabaseName+"."+name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return sql.Errorf(sql.ErBadTable, "Unknown table '%s'", strings.Join(missing, ","))
}
