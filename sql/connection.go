package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// Statements that MySQL clients and BI tools send when they connect: USE,
// SHOW DATABASES, SHOW VARIABLES [LIKE '...']. gpusql has one schema,
// DatabaseName; answering them plausibly lets those clients get on to the
// queries.

// Use selects the current database; only DatabaseName (and
// information_schema, whose tables are always named with their schema)
// exist.
type Use struct{ Database string }

// ShowDatabases lists DatabaseName and information_schema.
type ShowDatabases struct{}

// ShowVariables lists the session's variables whose names match Pattern
// (LIKE syntax; "" = all).
type ShowVariables struct{ Pattern string }

func (*Use) statement()           {}
func (*ShowDatabases) statement() {}
func (*ShowVariables) statement() {}

func (b *binder) use(n *ast.UseStmt) (Statement, error) {
	if !strings.EqualFold(n.DBName, DatabaseName) && !strings.EqualFold(n.DBName, "information_schema") {
		return nil, b.errf(b.start, "unknown database '%s' (gpusql has one: %s)", n.DBName, DatabaseName)
	}
	return &Use{Database: n.DBName}, nil
}

func (b *binder) showVariables(n *ast.ShowStmt) (Statement, error) {
	if n.Where != nil {
		return nil, b.errf(-1, "unsupported: SHOW VARIABLES WHERE (use LIKE)")
	}
	st := &ShowVariables{}
	if n.Pattern != nil {
		v, ok := n.Pattern.Pattern.(*driver.ValueExpr)
		if !ok {
			return nil, b.errf(-1, "SHOW VARIABLES LIKE needs a string")
		}
		st.Pattern = v.GetString()
	}
	return st, nil
}
