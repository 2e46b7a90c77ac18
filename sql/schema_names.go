package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// gpusql holds one database, DatabaseName, beside information_schema. A
// table named with another database (nope.t) is no table of gpusql's,
// and MySQL's error for it depends on the statement: 1146 Table 'nope.t'
// doesn't exist where a table is read or written, 1051 Unknown table
// 'nope.t' for DROP TABLE, 1049 Unknown database 'nope' for the name
// CREATE TABLE, CREATE VIEW, ALTER TABLE ... RENAME TO or RENAME TABLE
// makes (MySQL looks the new name's database up before the table) and
// for SHOW TABLES FROM nope. The
// binder otherwise reads a table by its name alone, so nope.t would be
// gpusql's t (and DROP TABLE nope.t would drop it).

// knownSchema reports whether a table's database qualifier names one
// gpusql has: none, DatabaseName or information_schema (regardless of
// case, as gpusql's table names are).
func knownSchema(schema string) bool {
	return schema == "" || strings.EqualFold(schema, DatabaseName) || strings.EqualFold(schema, "information_schema")
}

// checkSchemas fails n with MySQL's error for its first table of another
// database.
func (b *binder) checkSchemas(n ast.StmtNode) error {
	if s, ok := n.(*ast.ShowStmt); ok && !knownSchema(s.DBName) {
		return b.errCode(b.start, ErBadDB, "Unknown database '%s'", s.DBName)
	}
	v := &schemaNames{}
	n.Accept(v)
	if v.bad == nil {
		return nil
	}
	schema, name := v.bad.Schema.O, v.bad.Name.O
	pos := b.wordPos(name, -1)
	switch st := n.(type) {
	case *ast.DropTableStmt:
		return nil // dropTable: IF EXISTS makes them notes
	case *ast.CreateTableStmt:
		if st.Table == v.bad {
			return b.errCode(pos, ErBadDB, "Unknown database '%s'", schema)
		}
	case *ast.CreateViewStmt:
		if st.ViewName == v.bad {
			return b.errCode(pos, ErBadDB, "Unknown database '%s'", schema)
		}
	case *ast.AlterTableStmt:
		for _, sp := range st.Specs {
			if sp.NewTable == v.bad {
				return b.errCode(pos, ErBadDB, "Unknown database '%s'", schema)
			}
		}
	case *ast.RenameTableStmt:
		for _, tt := range st.TableToTables {
			if tt.NewTable == v.bad {
				return b.errCode(pos, ErBadDB, "Unknown database '%s'", schema)
			}
		}
	}
	e := b.errCode(pos, ErNoSuchTable, "Table '%s.%s' doesn't exist", schema, name)
	e.Detail = fmt.Sprintf("gpusql's tables are in database %s", DatabaseName)
	return e
}

// schemaNames finds the first table name qualified by a database gpusql
// does not have.
type schemaNames struct{ bad *ast.TableName }

func (v *schemaNames) Enter(n ast.Node) (ast.Node, bool) {
	if t, ok := n.(*ast.TableName); ok && v.bad == nil && !knownSchema(t.Schema.O) {
		v.bad = t
	}
	return n, v.bad != nil
}

func (v *schemaNames) Leave(n ast.Node) (ast.Node, bool) { return n, true }
