// Package driver registers gpusql as a database/sql driver named "gpusql".
// The engine runs in the calling process; every statement goes through
// engine.DB.Exec, exactly as in the gpusql shell.
//
//	import _ "gpusql/driver"
//	db, err := sql.Open("gpusql", "executor=cpu;data=/path/schema.sql")
//
// DSN: key=value pairs separated by ';' or '&' (all optional):
//
//	executor  cpu, gpu or auto (default auto)
//	check     true to run every query on both executors and compare
//	data      an SQL script run when the database opens (e.g. an SSB
//	          schema.sql with its LOAD statements; relative paths in it
//	          resolve against its folder)
//	join, groupby  force planner strategies (testing)
//	db        a database directory to open (created when absent; see
//	          docs/storage-format.md); without it the database is in
//	          memory. sql.DB.Close releases it for other processes.
//	memory_limit   bytes the queries may hold at once, as 2GB or 512MiB
//	               (0: no limit; default 75% of RAM); past it a query
//	               fails naming the operator, and the connection goes on
//	               (sorts, aggregations and joins spill to disk first)
//	tmpdir         where queries past the memory limit write their
//	               temporary files (default the system's temporary directory)
//	max_spill      bytes a query's temporary files may hold, as 10GB
//	               (0: no limit, the default)
//	gpu_memory     device memory a query's plan may use, as 8GB or 256MB
//	               (default: 75% of the device's free memory)
//	gpus           the GPUs plans may use, as 0,1 (default all visible)
//	plan_cache     on (default) or off: reuse the plan of a repeated
//	               SELECT (the same text and arguments) while the tables
//	               it reads are unchanged; SET plan_cache changes it
//	packing        on or off (default): keep the GPU's resident fact
//	               columns of star queries bit-packed; SET gpu_packing
//	               changes it
//	time_zone      the session time zone, as +02:00 or Europe/Paris
//	               (default SYSTEM, which is UTC; URL-escaped values such
//	               as %2B02%3A00 are read too); SET time_zone changes it
//
// A context deadline or cancellation stops a running query promptly; its
// error then wraps the context's (context.DeadlineExceeded).
//
// All connections of one sql.DB share one database, so tables created on one
// are seen by the others. Outside a transaction each statement commits on
// its own (a failing one changes nothing). db.Begin (or BEGIN in the SQL)
// starts a transaction on the connection: it works on a snapshot of the
// tables taken then, its changes are invisible to other connections until
// Commit, and Rollback discards them. Concurrent transactions may change the
// same table; the first to commit wins and the other's Commit fails with a
// conflict error (*catalog.ConflictError), applying nothing (snapshot
// isolation; see engine.Conn).
//
// Column values scan as: INT int32, BIGINT int64, DOUBLE float64, VARCHAR
// string, DATE time.Time (UTC midnight), DATETIME and TIMESTAMP time.Time
// (UTC, the session's zone), BOOLEAN bool, DECIMAL string (its
// exact text, e.g. "12.50"; scan it into a float64 if that is close enough:
// database/sql converts), NULL nil. Query arguments ('?' placeholders) are
// substituted as SQL literals on the client side.
package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gpusql/engine"
	"gpusql/exec"
	gsql "gpusql/sql"
	"gpusql/storage/columnar"
)

func init() { sql.Register("gpusql", &Driver{}) }

// Driver is the database/sql driver.
type Driver struct{}

// Open opens a new database for dsn (prefer sql.Open, which shares one
// database among its connections through OpenConnector).
func (d *Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector parses dsn and opens the database all connections share.
func (d *Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	db, err := engine.Open(cfg.Options)
	if err != nil {
		return nil, err
	}
	if cfg.Data != "" {
		b, err := os.ReadFile(cfg.Data)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("gpusql: data script: %w", err)
		}
		if _, err := db.Exec(context.Background(), string(b), filepath.Dir(cfg.Data)); err != nil {
			db.Close()
			return nil, fmt.Errorf("gpusql: %s: %w", cfg.Data, err)
		}
	}
	return &Connector{db: db, drv: d}, nil
}

// Config is a parsed DSN.
type Config struct {
	Options engine.Options
	Data    string
}

// ParseDSN reads "key=value;key=value" (or '&'-separated) settings.
func ParseDSN(dsn string) (Config, error) {
	var cfg Config
	for _, kv := range strings.FieldsFunc(dsn, func(r rune) bool { return r == ';' || r == '&' }) {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok {
			return cfg, fmt.Errorf("gpusql: DSN item %q is not key=value", kv)
		}
		switch strings.ToLower(k) {
		case "executor":
			cfg.Options.Executor = v
		case "check":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return cfg, fmt.Errorf("gpusql: DSN check=%q: want true or false", v)
			}
			cfg.Options.Check = b
		case "data":
			cfg.Data = v
		case "db":
			cfg.Options.Path = v
		case "join":
			cfg.Options.Join = v
		case "groupby":
			cfg.Options.GroupBy = v
		case "memory_limit":
			n, err := engine.ParseMemoryLimit(v)
			if err != nil {
				return cfg, fmt.Errorf("gpusql: DSN memory_limit=%q: %v", v, err)
			}
			cfg.Options.MemoryLimit = n
		case "tmpdir":
			cfg.Options.TmpDir = v
		case "max_spill":
			n, err := engine.ParseMaxSpill(v)
			if err != nil {
				return cfg, fmt.Errorf("gpusql: DSN max_spill=%q: %v", v, err)
			}
			cfg.Options.MaxSpill = n
		case "gpu_memory":
			n, err := engine.ParseGPUMemory(v)
			if err != nil {
				return cfg, fmt.Errorf("gpusql: DSN gpu_memory=%q: %v", v, err)
			}
			cfg.Options.GPUMemory = n
		case "plan_cache":
			v = strings.ToLower(v)
			if v != "on" && v != "off" {
				return cfg, fmt.Errorf("gpusql: DSN plan_cache=%q: want on or off", v)
			}
			cfg.Options.PlanCache = v
		case "packing":
			v = strings.ToLower(v)
			if v != "on" && v != "off" && v != "transfer" {
				return cfg, fmt.Errorf("gpusql: DSN packing=%q: want transfer, on or off", v)
			}
			cfg.Options.Packing = v
		case "time_zone":
			if u, err := url.PathUnescape(v); err == nil { // PathUnescape keeps a "+"
				v = u
			}
			if _, err := gsql.ParseTimeZone(v); err != nil {
				return cfg, fmt.Errorf("gpusql: DSN time_zone=%q: %v", v, err)
			}
			cfg.Options.TimeZone = v
		case "gpus":
			ids, err := engine.ParseGPUs(v)
			if err != nil {
				return cfg, fmt.Errorf("gpusql: DSN gpus=%q: %v", v, err)
			}
			cfg.Options.GPUs = ids
		default:
			return cfg, fmt.Errorf("gpusql: unknown DSN key %q (want executor, check, data, db, join, groupby, memory_limit, tmpdir, max_spill, gpu_memory, gpus, plan_cache, packing, time_zone)", k)
		}
	}
	return cfg, nil
}

// Connector hands out connections to one database.
type Connector struct {
	db  *engine.DB
	drv *Driver
}

// Connect returns a connection to the shared database.
func (c *Connector) Connect(context.Context) (driver.Conn, error) {
	return &conn{db: c.db.Conn()}, nil
}

// Driver returns the driver.
func (c *Connector) Driver() driver.Driver { return c.drv }

// Close releases the database (its directory's lock); sql.DB.Close calls
// it.
func (c *Connector) Close() error { return c.db.Close() }

// DB is the engine database behind the connector.
func (c *Connector) DB() *engine.DB { return c.db }

// conn is one connection: its own transaction state over the shared
// database.
type conn struct{ db *engine.Conn }

var (
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
)

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return &stmt{c: c, query: query}, nil
}

func (c *conn) PrepareContext(_ context.Context, query string) (driver.Stmt, error) {
	return c.Prepare(query)
}

// Close discards the connection's open transaction, if any.
func (c *conn) Close() error {
	c.db.Close() // rolls back and releases the connection's GET_LOCKs
	return nil
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx starts a transaction. Its isolation is snapshot isolation, which
// gives every level up to REPEATABLE READ (and SNAPSHOT); SERIALIZABLE and
// stronger are refused, since write skew between transactions that change
// different tables is possible.
func (c *conn) BeginTx(_ context.Context, opts driver.TxOptions) (driver.Tx, error) {
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault, sql.LevelReadUncommitted, sql.LevelReadCommitted,
		sql.LevelRepeatableRead, sql.LevelSnapshot:
	default:
		return nil, fmt.Errorf("gpusql: isolation level %s is not supported (transactions have snapshot isolation)",
			sql.IsolationLevel(opts.Isolation))
	}
	// Under SET autocommit = 0 a transaction is always open once a
	// statement ran; BeginTx then commits it, as MySQL's BEGIN does.
	if c.db.InTransaction() && c.db.Autocommit() {
		return nil, errors.New("gpusql: a transaction is already open on this connection (started by BEGIN in SQL)")
	}
	if err := c.db.Begin(opts.ReadOnly); err != nil {
		return nil, err
	}
	return tx{c}, nil
}

type tx struct{ c *conn }

// Commit commits; like MySQL's COMMIT it does nothing when a statement
// (COMMIT, ROLLBACK, BEGIN or DDL) already ended the transaction.
func (t tx) Commit() error { return t.c.db.Commit() }

func (t tx) Rollback() error {
	t.c.db.Rollback()
	return nil
}

// run executes the statements of query (arguments substituted) and returns
// the last statement's result.
func (c *conn) run(ctx context.Context, query string, args []driver.NamedValue) (*engine.StatementResult, error) {
	text, err := bind(query, args)
	if err != nil {
		return nil, err
	}
	dir, _ := os.Getwd()
	res, err := c.db.Exec(ctx, text, dir)
	if err != nil {
		return nil, err
	}
	if len(res) == 0 {
		return &engine.StatementResult{Kind: engine.KindMessage}, nil
	}
	return res[len(res)-1], nil
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	r, err := c.run(ctx, query, args)
	if err != nil {
		return nil, err
	}
	if r.Kind != engine.KindRows {
		return &rows{res: &exec.Result{}}, nil
	}
	return &rows{res: r.Result}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	text, err := bind(query, args)
	if err != nil {
		return nil, err
	}
	dir, _ := os.Getwd()
	res, err := c.db.Exec(ctx, text, dir)
	if err != nil {
		return nil, err
	}
	return resultOf(res), nil
}

// result is an Exec's rows affected (summed over its statements) and the
// insert id of its last statement that has one (the first AUTO_INCREMENT
// value it generated, else the value it stored; 0 when none), as MySQL
// drivers report the OK packet's insert id.
type result struct{ rows, lastID int64 }

func resultOf(res []*engine.StatementResult) result {
	var r result
	for _, s := range res {
		r.rows += s.RowsAffected
		if s.LastInsertID != 0 {
			r.lastID = int64(s.LastInsertID)
		}
	}
	return r
}

func (r result) LastInsertId() (int64, error) { return r.lastID, nil }
func (r result) RowsAffected() (int64, error) { return r.rows, nil }

type stmt struct {
	c     *conn
	query string
}

func (s *stmt) Close() error  { return nil }
func (s *stmt) NumInput() int { return -1 }
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.c.ExecContext(context.Background(), s.query, named(args))
}
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.c.QueryContext(context.Background(), s.query, named(args))
}
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.c.ExecContext(ctx, s.query, args)
}
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.c.QueryContext(ctx, s.query, args)
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}

// rows iterates over a result.
type rows struct {
	res *exec.Result
	i   int
}

func (r *rows) Columns() []string { return r.res.Names }
func (r *rows) Close() error      { return nil }

func (r *rows) Next(dest []driver.Value) error {
	if r.i >= r.res.Rows {
		return io.EOF
	}
	for j, c := range r.res.Columns {
		dest[j] = exec.Value(c, r.i)
		if dest[j] != nil && r.res.ClientType(j).ID == columnar.Decimal && c.Type.ID != columnar.Decimal {
			dest[j] = exec.FormatValue(c, r.i) // a SUM told as DECIMAL: its text
		}
	}
	r.i++
	return nil
}

// ColumnTypeDatabaseTypeName is the SQL type (INT, DECIMAL, ...).
func (r *rows) ColumnTypeDatabaseTypeName(j int) string {
	ct := r.res.ClientType(j)
	if r.res.IsBlob(j) { // as go-sql-driver names MySQL's BLOB columns
		if ct.Binary {
			return "BLOB"
		}
		return "TEXT"
	}
	t := ct.String()
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = t[:i]
	}
	return t
}

// ColumnTypeScanType is the Go type values of column j scan as.
func (r *rows) ColumnTypeScanType(j int) reflect.Type {
	switch r.res.ClientType(j).ID {
	case columnar.Int32:
		return reflect.TypeOf(int32(0))
	case columnar.Int64:
		if r.res.Columns[j].Type.Unsigned {
			return reflect.TypeOf(uint64(0)) // exec.Value gives uint64
		}
		return reflect.TypeOf(int64(0))
	case columnar.Float64:
		return reflect.TypeOf(float64(0))
	case columnar.Date, columnar.Datetime:
		return reflect.TypeOf(time.Time{})
	case columnar.Bool:
		return reflect.TypeOf(false)
	}
	return reflect.TypeOf("")
}

// ColumnTypeNullable says false for a column the plan proves is never
// NULL (what MySQL's NOT_NULL_FLAG tells go-sql-driver), true otherwise.
func (r *rows) ColumnTypeNullable(j int) (bool, bool) { return !r.res.IsNotNull(j), true }

// ColumnTypePrecisionScale reports DECIMAL's precision and scale.
func (r *rows) ColumnTypePrecisionScale(j int) (int64, int64, bool) {
	t := r.res.ClientType(j)
	if t.ID != columnar.Decimal {
		return 0, 0, false
	}
	return int64(t.Precision), int64(t.Scale), true
}
