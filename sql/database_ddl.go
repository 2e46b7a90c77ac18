package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// CREATE / DROP / ALTER DATABASE. gpusql holds one database, DatabaseName:
// creating it again is MySQL's 1007 (a Note under IF NOT EXISTS), dropping
// another 1008 (a Note under IF EXISTS), altering
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

// ErDBDropExists is MySQL's "Can't drop database '%s'; database doesn't
// exist".
const ErDBDropExists = 1008

// dropDatabase refuses to drop the one database, and for any other name
// is MySQL's answer for a database that does not exist: 1008, a Note
// under IF EXISTS (mysqldump --add-drop-database writes DROP DATABASE IF
// EXISTS of the dumped one).
func (b *binder) dropDatabase(n *ast.DropDatabaseStmt) (Statement, error) {
	if strings.EqualFold(n.Name.O, DatabaseName) {
		return nil, b.errf(b.start, "unsupported: DROP DATABASE %s (gpusql holds one database, %s: drop its tables)", n.Name.O, DatabaseName)
	}
	msg := "Can't drop database '" + n.Name.O + "'; database doesn't exist"
	if !n.IfExists {
		return nil, b.errCode(b.start, ErDBDropExists, "%s", msg)
	}
	return &DatabaseNote{Note: &Warning{Level: "Note", Code: ErDBDropExists, Message: msg}}, nil
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
