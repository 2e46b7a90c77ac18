package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// SHOW TRIGGERS, SHOW PROCEDURE / FUNCTION STATUS and SHOW EVENTS list
// nothing (gpusql has no stored programs, triggers or events), with
// MySQL's columns, so tools that read them (mysqldump, GUI clients) go
// on; SHOW CREATE VIEW and SHOW CREATE DATABASE write the view's query
// and the one database as MySQL 8 does (engine/show_more.go).

// showMore binds them as a ShowCatalogTable.
func (b *binder) showMore(n *ast.ShowStmt) (Statement, error) {
	what := map[ast.ShowStmtType]string{ast.ShowTriggers: "triggers", ast.ShowProcedureStatus: "procedure status",
		ast.ShowFunctionStatus: "function status", ast.ShowEvents: "events", ast.ShowCreateView: "create view",
		ast.ShowCreateDatabase: "create database"}[n.Tp]
	switch n.Tp {
	case ast.ShowCreateView:
		v, ok := b.cat.View(n.Table.Name.O)
		if _, table := b.cat.Table(n.Table.Name.O); !ok && !table {
			return nil, b.errCode(b.wordPos(n.Table.Name.O, -1), ErNoSuchTable, "Table '%s.%s' doesn't exist", DatabaseName, n.Table.Name.O)
		}
		if !ok {
			return nil, b.errCode(b.wordPos(n.Table.Name.O, -1), ErWrongObject, "'%s.%s' is not VIEW", DatabaseName, n.Table.Name.O)
		}
		return &ShowCatalogTable{What: what, Name: v.Name}, nil
	case ast.ShowCreateDatabase:
		if !strings.EqualFold(n.DBName, DatabaseName) {
			return nil, b.errCode(-1, ErBadDB, "Unknown database '%s'", n.DBName)
		}
		return &ShowCatalogTable{What: what, Name: DatabaseName}, nil
	}
	if n.Where != nil {
		return nil, b.errf(-1, "unsupported: SHOW %s WHERE (use LIKE)", strings.ToUpper(what))
	}
	like, err := b.showLike(n, "SHOW "+strings.ToUpper(what))
	return &ShowCatalogTable{What: what, Like: like}, err
}
