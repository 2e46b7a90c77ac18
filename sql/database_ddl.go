package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// CREATE / DROP / ALTER DATABASE. gpusql holds one database, DatabaseName:
// creating it again is MySQL's 1007 (a Note under IF NOT EXISTS), altering
// its character set to utf8mb4 changes nothing, and any other database is
// an error that says why, instead of "unsupported statement".

// ErDBCreateExists is MySQL's "Can't create database '%s'; database
// exists".
const ErDBCreateExists = 1007

// DatabaseNote is a statement that changes nothing and notes Note (CREATE
// DATABASE IF NOT EXISTS of the one database).
type DatabaseNote struct{ Note *Warning }

func (*DatabaseNote) statement() {}

func (b *binder) createDatabase(n *ast.CreateDatabaseStmt) (Statement, error) {
	if !strings.EqualFold(n.Name.O, DatabaseName) {
		return nil, b.errf(b.start, "unsupported: CREATE DATABASE %s (gpusql holds one database, %s)", n.Name.O, DatabaseName)
	}
	msg := "Can't create database '" + n.Name.O + "'; database exists"
	if !n.IfNotExists {
		return nil, b.errCode(b.start, ErDBCreateExists, "%s", msg)
	}
	return &DatabaseNote{Note: &Warning{Level: "Note", Code: ErDBCreateExists, Message: msg}}, nil
}

func (b *binder) dropDatabase(n *ast.DropDatabaseStmt) (Statement, error) {
	return nil, b.errf(b.start, "unsupported: DROP DATABASE %s (gpusql holds one database, %s: drop its tables)", n.Name.O, DatabaseName)
}

func (b *binder) alterDatabase(n *ast.AlterDatabaseStmt) (Statement, error) {
	if !n.AlterDefaultDatabase && !strings.EqualFold(n.Name.O, DatabaseName) {
		return nil, b.errCode(b.start, ErBadDB, "Unknown database '%s'", n.Name.O)
	}
	for _, o := range n.Options {
		if o.Tp == ast.DatabaseOptionCharset && !strings.EqualFold(o.Value, "utf8mb4") {
			return nil, b.errf(b.start, "unsupported: ALTER DATABASE ... CHARACTER SET %s (gpusql's text is utf8mb4)", o.Value)
		}
	}
	return &DatabaseNote{}, nil
}
