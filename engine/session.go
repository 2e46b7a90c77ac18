package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A server connection (server/) is a Conn with a session of its own: its
// own system variables (SET sql_mode on one client changes nothing for
// another), its own memory accountant under the database's (SET
// memory_limit bounds that session's queries), the rights of the user who
// logged in, and the folder its files must lie under. The REPL, scripts
// and the database/sql driver keep the DB's shared session.

// SessionOptions configure a session connection.
type SessionOptions struct {
	// User is the user the session runs as ("" for an unauthenticated
	// loopback session, which may do everything).
	User string
	// ReadOnly refuses every statement that changes tables or users
	// (GRANT SELECT).
	ReadOnly bool
	// FileRoot, when set, is the only folder LOAD DATA and IMPORT read
	// under (MySQL's secure_file_priv); paths that leave it through '..'
	// or a symbolic link are refused.
	FileRoot string
	// NoFiles refuses every file access (a server without a file root).
	NoFiles bool
	// Kill runs KILL [QUERY] id for the session; nil: KILL is refused.
	Kill func(k *sql.Kill) error
	// Processes lists the connections SHOW PROCESSLIST shows this
	// session; nil: it is refused.
	Processes func() []Process
	// Status adds a server's counters to SHOW STATUS (Threads_connected,
	// Connections, Max_used_connections, Bytes_received, Bytes_sent): the
	// server's totals when global, else this connection's (status.go).
	Status func(global bool) map[string]int64
	// ErrorCode is the MySQL error code of a statement's error (the
	// server's mapping), for SHOW ERRORS; nil: 1105, unknown error.
	ErrorCode func(error) uint16
}

// Process is one connection as SHOW PROCESSLIST shows it.
type Process struct {
	ID      uint32
	User    string
	Command string // Query while a statement runs, else Sleep
	Seconds int64  // in that state
	Info    string // the running statement's text ("" when none)
}

// SessionConn returns a connection with its own session, starting from the
// database's current variables (sql_mode, as in MySQL, from
// @@global.sql_mode).
func (db *DB) SessionConn(opts SessionOptions) *Conn {
	s := db.session.NewSessionOf()
	for _, name := range []string{"plan_cache", "gpu_packing"} {
		if v, ok := db.session.Variable(name); ok {
			s.SetEngineVariable(name, v)
		}
	}
	c := &Conn{db: db, session: s, mem: exec.NewMemory(0, db.mem), opts: opts, vars: sql.NewUserVars()}
	c.vars.SetEvaluator(db.evalConst)
	c.vars.SetConnectionID(c.connID)
	c.vars.SetAutocommit(s.GlobalAutocommit())
	// The session starts at the database's limit (which bounds it anyway)
	// and may lower it with SET memory_limit.
	limit := db.MemoryLimit()
	if limit == 0 {
		limit = -1 // unlimited
	}
	c.view().SetMemoryLimit(limit)
	return c
}

// PrivilegeError is a statement the session's user has no right to run
// (MySQL error 1142 / 1227).
type PrivilegeError struct {
	User, Command string
}

func (e *PrivilegeError) Error() string {
	return fmt.Sprintf("%s command denied to user '%s' (the user was granted SELECT only)", e.Command, e.User)
}

// checkRights refuses writes in a read-only session.
func (c *Conn) checkRights(stmt sql.Statement) error {
	if !c.opts.ReadOnly {
		return nil
	}
	if s, ok := stmt.(*sql.Set); ok && setsGlobal(s) {
		// SET GLOBAL changes other sessions (MySQL asks for
		// SYSTEM_VARIABLES_ADMIN).
		return &PrivilegeError{User: c.opts.User, Command: "SET GLOBAL"}
	}
	switch stmt.(type) {
	case *sql.Query, *sql.SelectIntoVars, *sql.Explain, *sql.ShowTables, *sql.ShowWarnings, *sql.ShowCatalogTable, *sql.Describe, *sql.ShowIndex, *sql.ShowCreateTable,
		*sql.Set, *sql.Begin, *sql.Commit, *sql.Rollback, *sql.Use,
		*sql.Savepoint, *sql.RollbackTo, *sql.ReleaseSavepoint,
		*sql.ShowDatabases, *sql.ShowVariables, *sql.ShowStatus, *sql.Kill, *sql.ShowProcessList,
		*sql.Prepare, *sql.Execute, *sql.Deallocate: // EXECUTE checks its statement
		return nil
	}
	return &PrivilegeError{User: c.opts.User, Command: commandName(stmt)}
}

func setsGlobal(s *sql.Set) bool {
	for _, a := range s.Assignments {
		if a.Global {
			return true
		}
	}
	return false
}

// commandName is a statement's command as MySQL's privilege errors name it.
func commandName(stmt sql.Statement) string {
	switch stmt.(type) {
	case *sql.Insert, *sql.Load:
		return "INSERT"
	case *sql.Update, *sql.MultiUpdate:
		return "UPDATE"
	case *sql.Delete, *sql.MultiDelete:
		return "DELETE"
	case *sql.CreateTable, *sql.CreateTableAs, *sql.CreateView, *sql.CreateIndex:
		return "CREATE"
	case *sql.DropTable, *sql.DropView, *sql.DropIndex, *sql.TruncateTable:
		return "DROP"
	case *sql.CreateUser, *sql.DropUser, *sql.Grant:
		return "CREATE USER"
	}
	return "ALTER"
}

// sessionStatement runs the statements that concern the session rather
// than the data: KILL, USE, SHOW DATABASES, SHOW VARIABLES.
func (c *Conn) sessionStatement(db *DB, stmt sql.Statement) (*StatementResult, bool, error) {
	switch s := stmt.(type) {
	case *sql.Kill:
		if c.opts.Kill == nil {
			return nil, true, errors.New("KILL stops queries of server connections (gpusql serve); this session has none")
		}
		if err := c.opts.Kill(s); err != nil {
			return nil, true, err
		}
		return message("killed"), true, nil
	case *sql.ShowProcessList:
		if c.opts.Processes == nil {
			return nil, true, errors.New("SHOW PROCESSLIST lists server connections (gpusql serve); this session has none")
		}
		return processList(c.opts.Processes(), s.Full), true, nil
	case *sql.Use:
		return message("database changed"), true, nil
	case *sql.ShowDatabases:
		names, header := []string{"information_schema", sql.DatabaseName}, "Database"
		slices.Sort(names) // MySQL 8's ORDER BY Database (dd/info_schema/show.cc)
		if s.Like != nil { // MySQL names the column after the pattern too
			names = slices.DeleteFunc(names, func(n string) bool { return !sql.LikeMatch(n, *s.Like) })
			header += " (" + *s.Like + ")"
		}
		return &StatementResult{Kind: KindRows, Result: stringsResult(header, names)}, true, nil
	case *sql.ShowVariables:
		return db.showVariables(s, c.vars.Autocommit()), true, nil
	case *sql.ShowStatus:
		return c.showStatus(s), true, nil
	}
	return nil, false, nil
}

// showVariables lists the session's variables; autocommit is the
// connection's own.
func (db *DB) showVariables(s *sql.ShowVariables, autocommit bool) *StatementResult {
	names, values := db.session.VariableRows(s.Pattern, autocommit, s.Global)
	return &StatementResult{Kind: KindRows, Result: &exec.Result{
		Names:   []string{"Variable_name", "Value"},
		Columns: []*columnar.Column{stringColumn(names), stringColumn(values)},
		Rows:    len(names),
	}}
}

// ExecParsed runs one statement parsed by sql.Parse on the connection (the
// server parses first, to answer some statements itself).
func (c *Conn) ExecParsed(ctx context.Context, p sql.Parsed, baseDir string) (*StatementResult, error) {
	r, err := c.execParsed(ctx, p, baseDir)
	return r, cancelledErr(ctx, err)
}

// Session is the connection's session variables.
func (c *Conn) Session() *sql.Session { return c.view().session }

// ResultColumns binds a one-statement query without running it and
// returns its result's column names and types (nil for a statement that
// returns no rows): what a client asks before fetching (Flight SQL's
// FlightInfo schema).
func (c *Conn) ResultColumns(text string) ([]string, []columnar.Type, error) {
	stmts, err := sql.Parse(text)
	if err != nil || len(stmts) != 1 {
		return nil, nil, err
	}
	db := c.view()
	stmt, err := sql.BindConn(db.cat, db.session, c.vars, stmts[0])
	if err != nil {
		return nil, nil, err
	}
	q, ok := stmt.(*sql.Query)
	if !ok {
		return nil, nil, nil
	}
	var types []columnar.Type
	for _, col := range q.Plan.Schema() {
		types = append(types, col.Type)
	}
	return q.Names, types, nil
}
