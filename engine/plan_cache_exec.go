package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// How statements reach the plan cache (plan_cache.go). A script that is
// one statement is looked up by its text before it is even parsed
// (ExecStream); every parsed statement is looked up by its text before it
// is bound (execParsed); a bound top-level SELECT that missed is planned
// and stored (execQueryCaching). EXPLAIN never reads or fills the cache,
// so it always shows a fresh plan.

// planCacheModes are the values of Options.PlanCache, DSN plan_cache= and
// SET plan_cache.
var planCacheModes = map[string]bool{"": true, "on": true, "off": true}

// planCacheOn reports whether the session's queries use the plan cache:
// SET plan_cache where the session set it, the database's option
// otherwise.
func (db *DB) planCacheOn() bool {
	if v, ok := db.session.Variable("plan_cache"); ok && !v.Null {
		return v.S == "on"
	}
	return db.opts.PlanCache != "off"
}

// setPlanCache applies SET plan_cache = 'on' | 'off' (1 | 0).
func (db *DB) setPlanCache(v *sql.Const) error { return db.setSwitch("plan_cache", v) }

// setSwitch applies SET name = 'on' | 'off' (ON, OFF, 1, 0) to a session
// variable of the engine that is either.
func (db *DB) setSwitch(name string, v *sql.Const) error {
	mode := ""
	switch {
	case v.Null:
	case v.T.ID == columnar.String:
		mode = strings.ToLower(strings.TrimSpace(v.S))
	case v.T.IsInteger() && v.I == 0:
		mode = "off"
	case v.T.IsInteger() && v.I == 1:
		mode = "on"
	}
	if mode != "on" && mode != "off" {
		return fmt.Errorf("variable '%s' takes 'on' or 'off', got %s", name, v)
	}
	db.session.SetEngineVariable(name, &sql.Const{T: columnar.TString, S: mode})
	return nil
}

// defaultPlanCache is plan_cache's value before any SET.
func defaultPlanCache(opt string) string {
	if opt == "off" {
		return "off"
	}
	return "on"
}

// maxCachedText is the longest text a plan is kept for (a longer one
// would pass the bytes one entry may take); longer scripts skip the
// lookup rather than hash megabytes of INSERT values.
const maxCachedText = maxEntryBytes / planTextBytes

// scriptKey is the text of a script that may be one statement, trimmed as
// sql.Parsed.Text is, and the line it starts on; ok is false where no
// cached plan can match.
func scriptKey(text string) (key string, line int, ok bool) {
	if len(text) > maxCachedText {
		return "", 0, false
	}
	trimmed := strings.TrimLeft(text, " \t\r\n")
	line = 1 + strings.Count(text[:len(text)-len(trimmed)], "\n")
	trimmed = strings.TrimRight(trimmed, " \t\r\n;")
	return trimmed, line, trimmed != ""
}

// cachedPlan finds a valid cached plan for text and the DB view to run it
// on. A SELECT under autocommit = 0 opens a transaction first, as
// execBound does for a bound one; the plan is then checked against the
// transaction's snapshot.
func (c *Conn) cachedPlan(text string) (*cachedPlan, *DB) {
	db := c.view()
	if db.plans == nil || len(text) > maxCachedText || !db.planCacheOn() || c.holdsTableLocks() {
		// Under LOCK TABLES the statement is bound, so that its tables
		// are checked against the locks (lock_tables.go).
		return nil, nil
	}
	e := db.plans.get(planKey{text: text, settings: db.planSettings()}, db.cat)
	if e == nil {
		return nil, nil
	}
	if !c.vars.Autocommit() && !c.InTransaction() {
		if err := c.implicitBegin(e.query); err != nil {
			return nil, nil
		}
		if db = c.view(); !e.validFor(db.cat) {
			return nil, nil
		}
	}
	return e, db
}

// runCached runs a cached plan as db.query runs a fresh one.
func (db *DB) runCached(ctx context.Context, e *cachedPlan) (*StatementResult, error) {
	start := time.Now()
	qctx, cancel := db.withExecutionLimit(ctx, e.query)
	defer cancel()
	res, executor, err := db.run(qctx, e.physical, db.executor, ordered(e.query.Plan))
	if err != nil {
		return nil, executionLimitError(qctx, err)
	}
	return &StatementResult{Kind: KindRows, Result: db.withClientTypes(e.query, res), Executor: executor, Elapsed: time.Since(start)}, nil
}

// cacheable reports whether a bound statement's plan may be stored.
func (db *DB) cacheable(stmt sql.Statement) (*sql.Query, bool) {
	q, ok := stmt.(*sql.Query)
	if !ok || q.Discard || db.plans == nil || q.Reads.Volatile != "" || len(q.Recursive) > 0 || !db.planCacheOn() { // DO: no rows
		return nil, false
	}
	return q, true
}

// execQueryCaching runs a bound top-level SELECT as execBound does (the
// transaction rules, then the query on the connection's view) and keeps
// its plan under text. settings are the planning settings read before the
// statement was bound: if a concurrent SET on a shared session changed
// them meanwhile, the plan is used but not kept.
func (c *Conn) execQueryCaching(ctx context.Context, text, settings string, q *sql.Query) (*StatementResult, error) {
	if _, _, err := c.transactionStatement(q); err != nil {
		return nil, err
	}
	db := c.view()
	rec := &remapRecorder{cat: db.cat}
	p, err := db.planWith(q, rec.lookup)
	if err != nil {
		return nil, err
	}
	if db.planSettings() == settings {
		db.plans.put(&cachedPlan{key: planKey{text: text, settings: settings}, query: q, physical: p, remaps: rec.recorded()})
	}
	qctx, cancel := db.withExecutionLimit(ctx, q)
	defer cancel()
	res, executor, err := db.run(qctx, p, db.executor, ordered(q.Plan))
	if err != nil {
		return nil, executionLimitError(qctx, err)
	}
	return &StatementResult{Kind: KindRows, Result: db.withClientTypes(q, res), Executor: executor}, nil
}

// PlanCacheStats are the plan cache's counters (for tests and bench).
type PlanCacheStats struct {
	Hits, Misses int64
	Entries      int
	Bytes        int64
}

// PlanCacheStats reads the database's plan cache counters.
func (db *DB) PlanCacheStats() PlanCacheStats {
	n, bytes := db.plans.len()
	return PlanCacheStats{Hits: db.plans.hits.Load(), Misses: db.plans.misses.Load(), Entries: n, Bytes: bytes}
}

// ExecCached runs text when it is one statement whose plan is cached,
// without parsing it (a server answers each request so); hit is false
// when text must be parsed and run as usual (ExecParsed).
func (c *Conn) ExecCached(ctx context.Context, text string) (r *StatementResult, hit bool, err error) {
	r, _, hit, err = c.execScriptCached(ctx, text)
	return r, hit, err
}

// execScriptCached is ExecCached that also says the statement's line.
func (c *Conn) execScriptCached(ctx context.Context, text string) (r *StatementResult, line int, hit bool, err error) {
	key, line, ok := scriptKey(text)
	if !ok {
		return nil, 0, false, nil
	}
	e, db := c.cachedPlan(key)
	if e == nil {
		return nil, 0, false, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, line, true, cancelled(err)
	}
	prog := progressOf(ctx)
	prog.begin(line, taskOf(sql.Parsed{Text: key}))
	c.countStatement(&ast.SelectStmt{}) // only SELECTs are cached
	warnings := c.vars.BeginWarnings()
	r, err = db.runCached(sql.WithWarnings(ctx, warnings), e)
	c.vars.EndWarnings(false)
	if r != nil {
		r.Warnings = warnings.Count()
	}
	prog.end()
	if errors.Is(err, exec.ErrExactOverflow) {
		// The statement path rebinds it with exact sums (execWarned).
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, line, true, cancelledErr(ctx, err)
	}
	r.Line = line
	return r, line, true, nil
}

// PrepareCached is Prepare through the plan cache: a text whose plan is cached (run before as a statement, or
// prepared so) comes from the cache, hit true; any other is planned and,
// when cacheable, kept. bench times both, to show what the cache saves.
func (db *DB) PrepareCached(text string) (p *Prepared, hit bool, err error) {
	key, _, _ := scriptKey(text)
	settings := db.planSettings()
	if db.planCacheOn() {
		if e := db.plans.get(planKey{text: key, settings: settings}, db.cat); e != nil {
			return &Prepared{Physical: e.physical, Query: e.query}, true, nil
		}
	}
	rec := &remapRecorder{cat: db.cat}
	if p, err = db.prepareWith(text, rec.lookup); err != nil {
		return nil, false, err
	}
	if _, ok := db.cacheable(p.Query); ok && db.planSettings() == settings {
		db.plans.put(&cachedPlan{key: planKey{text: key, settings: settings}, query: p.Query, physical: p.Physical, remaps: rec.recorded()})
	}
	return p, false, nil
}

// withClientTypes tells res's clients the types MySQL gives q's SUM and
// AVG columns (sql.ClientTypes), the values staying as computed, and
// which columns MySQL sends as NOT NULL (sql.ClientNotNull) and as BLOB
// (sql.ClientBlob), and what the columns read straight from a table
// carry of its definition (sql.ClientOrigins: key and AUTO_INCREMENT
// flags).
func (db *DB) withClientTypes(q *sql.Query, res *exec.Result) *exec.Result {
	if res != nil {
		res.ClientTypes = sql.ClientTypes(q)
		if nn := sql.ClientNotNull(q); len(nn) == len(res.Columns) {
			res.NotNull = nn
		}
		if b := sql.ClientBlob(q); len(b) == len(res.Columns) {
			res.Blob = b
		}
		if o := sql.ClientOrigins(q, db.cat.Indexes); len(o) == len(res.Columns) {
			res.Origins = o
		}
	}
	return res
}
