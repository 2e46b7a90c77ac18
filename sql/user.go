package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// Users and their rights, for the server (server/): CREATE USER 'u'
// IDENTIFIED BY 'p', DROP USER 'u', GRANT SELECT | ALL ON *.* TO 'u' and
// REVOKE. Rights are database-wide and of two kinds, read (SELECT) and
// read-write (ALL): gpusql has one schema, so a finer grain would promise
// isolation it does not have. The host part of 'u'@'host' is accepted and
// ignored: a user may connect from anywhere the server listens.

// CreateUser creates users with their passwords (no rights yet).
type CreateUser struct {
	Users       []UserPassword
	IfNotExists bool
}

// UserPassword is one 'name' IDENTIFIED BY 'password'.
type UserPassword struct {
	Name, Password string
}

// DropUser drops users.
type DropUser struct {
	Names    []string
	IfExists bool
}

// Grant gives (or Revoke takes away) a right to users.
type Grant struct {
	Names  []string
	Write  bool // ALL; false: SELECT
	Revoke bool
}

// Kill stops the running query of a server connection (Query) or the
// connection itself.
type Kill struct {
	ConnectionID uint64
	Query        bool
}

func (*CreateUser) statement() {}
func (*DropUser) statement()   {}
func (*Grant) statement()      {}
func (*Kill) statement()       {}

func (b *binder) createUser(n *ast.CreateUserStmt) (Statement, error) {
	if n.IsCreateRole {
		return nil, b.errf(b.start, "unsupported: roles (CREATE USER and GRANT SELECT | ALL ON *.* are supported)")
	}
	st := &CreateUser{IfNotExists: n.IfNotExists}
	for _, s := range n.Specs {
		u := UserPassword{Name: s.User.Username}
		if s.AuthOpt != nil {
			if !s.AuthOpt.ByAuthString {
				return nil, b.errf(b.start, "unsupported: IDENTIFIED WITH or BY PASSWORD for user '%s' (use IDENTIFIED BY 'password')", u.Name)
			}
			u.Password = s.AuthOpt.AuthString
		}
		st.Users = append(st.Users, u)
	}
	return st, nil
}

func (b *binder) dropUser(n *ast.DropUserStmt) (Statement, error) {
	if n.IsDropRole {
		return nil, b.errf(b.start, "unsupported: roles")
	}
	st := &DropUser{IfExists: n.IfExists}
	for _, u := range n.UserList {
		st.Names = append(st.Names, u.Username)
	}
	return st, nil
}

func (b *binder) grant(privs []*ast.PrivElem, level *ast.GrantLevel, users []*ast.UserSpec, revoke bool) (Statement, error) {
	global := level != nil && (level.Level == ast.GrantLevelGlobal ||
		level.Level == ast.GrantLevelDB && (level.DBName == "" || strings.EqualFold(level.DBName, DatabaseName)))
	if !global {
		return nil, b.errf(b.start, "unsupported: rights on single tables (grant them ON *.*)")
	}
	st := &Grant{Revoke: revoke}
	for _, p := range privs {
		switch p.Priv {
		case mysql.SelectPriv:
		case mysql.AllPriv:
			st.Write = true
		default:
			return nil, b.errf(b.start, "unsupported: privilege %s (gpusql grants SELECT, read-only, or ALL, read-write)", strings.ToUpper(p.Priv.String()))
		}
	}
	for _, u := range users {
		st.Names = append(st.Names, u.User.Username)
	}
	return st, nil
}

func (b *binder) kill(n *ast.KillStmt) (Statement, error) {
	if n.Expr != nil {
		return nil, b.errf(b.start, "unsupported: KILL with an expression (give the connection id as a number)")
	}
	return &Kill{ConnectionID: n.ConnectionID, Query: n.Query}, nil
}

// DatabaseName is the name of gpusql's one schema, as SHOW DATABASES,
// DATABASE() and information_schema report it; USE accepts it.
const DatabaseName = "gpusql"
