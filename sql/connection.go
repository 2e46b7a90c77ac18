package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// Statements that MySQL clients and BI tools send when they connect: USE,
// SHOW DATABASES, SHOW VARIABLES [LIKE '...']. gpusql has one schema,
// DatabaseName; answering them plausibly lets those clients get on to the
// queries.

// Use selects the current database; only DatabaseName (and
// information_schema, whose tables are always named with their schema)
// exist.
type Use struct{ Database string }

// ShowDatabases lists DatabaseName and information_schema, those whose
// name matches Like when it is set.
type ShowDatabases struct{ Like *string }

// ShowVariables lists the session's variables whose names match Pattern
// (LIKE syntax; "" = all); Global shows the GLOBAL values
// (@@global.time_zone) where they differ.
type ShowVariables struct {
	Pattern string
	Global  bool
}

// ShowStatus lists the server status counters whose names match Pattern
// (SHOW [GLOBAL | SESSION] STATUS [LIKE '...']; engine/status.go).
type ShowStatus struct {
	Pattern string
	Global  bool
}

func (*ShowStatus) statement() {}

// ShowCreateTable gives the CREATE TABLE statement of a table (SHOW
// CREATE TABLE, which dump tools and GUI clients read).
type ShowCreateTable struct{ Table string }

func (*ShowCreateTable) statement() {}
func (*Use) statement()             {}
func (*ShowDatabases) statement()   {}
func (*ShowVariables) statement()   {}

func (b *binder) use(n *ast.UseStmt) (Statement, error) {
	if !strings.EqualFold(n.DBName, DatabaseName) && !strings.EqualFold(n.DBName, "information_schema") {
		return nil, b.errCode(b.start, ErBadDB, "Unknown database '%s'", n.DBName)
	}
	return &Use{Database: n.DBName}, nil
}

func (b *binder) showVariables(n *ast.ShowStmt) (Statement, error) {
	if n.Where != nil {
		return b.showVariablesWhere(n) // show_variables.go
	}
	st := &ShowVariables{Global: n.GlobalScope}
	if n.Pattern != nil {
		v, ok := n.Pattern.Pattern.(*driver.ValueExpr)
		if !ok {
			return nil, b.errf(-1, "SHOW VARIABLES LIKE needs a string")
		}
		st.Pattern = v.GetString()
	}
	return st, nil
}

func (b *binder) showStatus(n *ast.ShowStmt) (Statement, error) {
	if n.Where != nil {
		return nil, b.errf(-1, "unsupported: SHOW STATUS WHERE (use LIKE)")
	}
	b.volatile("SHOW STATUS")
	st := &ShowStatus{Global: n.GlobalScope}
	if n.Pattern != nil {
		v, ok := n.Pattern.Pattern.(*driver.ValueExpr)
		if !ok {
			return nil, b.errf(-1, "SHOW STATUS LIKE needs a string")
		}
		st.Pattern = v.GetString()
	}
	return st, nil
}

// sessionFunc binds the functions that read the session: CONNECTION_ID()
// (the connection's id: a server session's connection id, or the id the
// engine gives each of its connections; else @@pseudo_thread_id),
// DATABASE() / SCHEMA(), VERSION() and USER() / CURRENT_USER().
func (b *binder) sessionFunc(name string, nargs, pos int) (Expr, error) {
	if nargs != 0 {
		return nil, b.paramCount(pos, name)
	}
	b.volatile(name + "()")
	str := func(s string) *Const { return &Const{T: columnar.TString, S: s} }
	switch name {
	case "connection_id":
		if id := b.vars.ConnectionID(); id != 0 {
			return &Const{T: columnar.TInt64, I: id}, nil
		}
		if v, ok := b.session.Variable("pseudo_thread_id"); ok {
			c := *v
			return &c, nil
		}
		return &Const{T: columnar.TInt64}, nil
	case "database", "schema":
		return str(DatabaseName), nil
	case "version":
		return str(serverVersion), nil
	}
	user := b.session.User()
	if user == "" {
		user = "gpusql"
	}
	return str(user + "@%"), nil
}
