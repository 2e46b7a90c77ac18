package sql

import (
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// UserVars are one connection's user-defined variables (@name): SET @x =
// expr stores a value, and @x in any later statement of the connection
// reads it (NULL when never set). Names are case-insensitive, as in MySQL.
//
// A statement reads each variable's value as it was when the statement
// started: @x is bound as a constant. So SET @a = 1, @b = @a + 1 gives @b
// the old @a plus one (MySQL assigns left to right; write two SETs). A
// variable that the statement itself assigns (SELECT @x := ...) is read
// row by row instead (user_var_assign.go).
//
// They also carry the connection's autocommit setting: the one system
// variable that belongs to every kind of connection (the REPL's, each
// driver connection, each server session), since it decides when the
// connection's transactions end.
type UserVars struct {
	mu sync.Mutex
	m  map[string]*Const
	// manualCommit is SET autocommit = 0.
	manualCommit bool
	// lastInsertID is LAST_INSERT_ID(): the first AUTO_INCREMENT value
	// the connection's last INSERT that generated one generated.
	lastInsertID uint64
	// rowCount is ROW_COUNT(): what the connection's last statement
	// affected (row_count.go).
	rowCount int64
	// foundRows is FOUND_ROWS(): the rows of the connection's last result
	// set; foundRowsCalc marks one asked for with SQL_CALC_FOUND_ROWS.
	foundRows     int64
	foundRowsCalc bool
	// eval computes a one-row query of no tables (the engine's), for
	// what the binder must know as a value: LAST_INSERT_ID(@x + 1).
	eval func(*Query) (*Const, error)
	// pendingWarnings collects the running statement's warnings,
	// lastWarnings are the last statement's (warnings.go).
	pendingWarnings, lastWarnings *Warnings
	// connectionID draws the connection's CONNECTION_ID() (engine.Conn's
	// id): each driver connection and Flight call has its own, where
	// they share the database's session.
	connectionID func() int64
}

// SetConnectionID gives the connection's id, drawn on first use.
func (u *UserVars) SetConnectionID(id func() int64) {
	u.mu.Lock()
	u.connectionID = id
	u.mu.Unlock()
}

// ConnectionID is the connection's CONNECTION_ID() (0: none given).
func (u *UserVars) ConnectionID() int64 {
	if u == nil {
		return 0
	}
	u.mu.Lock()
	id := u.connectionID
	u.mu.Unlock()
	if id == nil {
		return 0
	}
	return id()
}

// LastInsertID is the connection's LAST_INSERT_ID() (0 before any).
func (u *UserVars) LastInsertID() uint64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.lastInsertID
}

// SetLastInsertID records the value LAST_INSERT_ID() returns next.
func (u *UserVars) SetLastInsertID(v uint64) {
	u.mu.Lock()
	u.lastInsertID = v
	u.mu.Unlock()
}

// Autocommit reports the connection's @@autocommit.
func (u *UserVars) Autocommit() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return !u.manualCommit
}

// SetAutocommit records SET autocommit = on.
func (u *UserVars) SetAutocommit(on bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.manualCommit = !on
}

// NewUserVars returns an empty set of variables.
func NewUserVars() *UserVars { return &UserVars{m: map[string]*Const{}} }

// SetEvaluator gives the binder the engine's way to compute a one-row
// query of no tables.
func (u *UserVars) SetEvaluator(f func(*Query) (*Const, error)) { u.eval = f }

// Get returns a copy of @name's value.
func (u *UserVars) Get(name string) (*Const, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	v, ok := u.m[strings.ToLower(name)]
	if !ok {
		return nil, false
	}
	c := *v
	return &c, true
}

// Set stores @name's value.
func (u *UserVars) Set(name string, v *Const) {
	u.mu.Lock()
	defer u.mu.Unlock()
	c := *v
	u.m[strings.ToLower(name)] = &c
}

// userVariable binds @name to the value it has now.
func (b *binder) userVariable(n *ast.VariableExpr, pos int) (Expr, error) {
	if n.Value != nil {
		return nil, b.errf(pos, "unsupported: assigning a user variable (@%s := ...) here", n.Name)
	}
	if b.vars == nil {
		return nil, b.errf(pos, "unsupported: user variables (@%s) outside a connection", n.Name)
	}
	if len(b.views) > 0 {
		return nil, b.errf(pos, "a view's SELECT cannot contain a user variable (@%s)", n.Name)
	}
	b.volatile("a user variable")
	if b.assigning != nil && b.assigning.names[strings.ToLower(n.Name)] {
		return b.assignedUserVar(strings.ToLower(n.Name)), nil
	}
	if v, ok := b.vars.Get(n.Name); ok {
		return v, nil
	}
	return nullConst(columnar.TString), nil
}
