package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// MySQL names the operation in its out-of-range error (1690) as it
// prints the item (Item::print): every operation in parentheses, unary
// minus as -(x), functions and casts in lower case, and a base table's
// column with its database and table, the alias where the FROM gives one:
//
//	SELECT a + 1 FROM t            BIGINT value is out of range in '(`gpusql`.`t`.`a` + 1)'
//	SELECT -9223372036854775807 - 2   ... in '(-(9223372036854775807) - 2)'
//	SELECT 2 * 3 * 9223372036854775807  ... in '((2 * 3) * 9223372036854775807)'
//
// The bound tree cannot print that: the binder folds constants (2 * 3 is
// 6), drops casts that change nothing and writes -b of an UNSIGNED b as
// 0 - b. So the text is taken from the SQL as written, when the operation
// is bound, and kept on the Binary or Neg (Text) for the executor.

// withOverflowText notes the MySQL text of n (an arithmetic operator,
// unary minus or function call) on the Binary, Neg or Func it bound to.
func (b *binder) withOverflowText(n ast.ExprNode, sc *scope, e Expr, err error) (Expr, error) {
	if err != nil {
		return e, err
	}
	switch x := e.(type) {
	case *Binary:
		if x.Op <= OpMod {
			x.Text = overflowText(n, sc)
		}
	case *Neg:
		x.Text = overflowText(n, sc)
	case *Func:
		x.Text = overflowText(n, sc) // abs(x), pow(x,y): rowfunc_math.go
	}
	return e, nil
}

func overflowText(n ast.ExprNode, sc *scope) string {
	var sb strings.Builder
	writeMySQLExprCols(&sb, func(cn *ast.ColumnName) string { return overflowColumn(cn, sc) }, n)
	return sb.String()
}

// overflowColumn is a column as MySQL's error prints it: `db`.`t`.`c` for
// a base table's; for a merged derived table's or view's column, what it
// stands for (MySQL merges the derived table into the outer query and
// prints the item under it: the column it passes through, or the
// expression it computes, (`gpusql`.`t`.`u` * 2)). A materialized one's
// is `d`.`c`.
func overflowColumn(cn *ast.ColumnName, sc *scope) string {
	local := sc
	if sc != nil && sc.agg != nil {
		local = sc.agg.pre
	}
	if local == nil {
		return backquote(cn.Name.O)
	}
	i, amb := local.lookup(cn.Table.O, cn.Name.O)
	if i < 0 || amb {
		return backquote(cn.Name.O)
	}
	c := local.cols[i]
	switch {
	case c.origin != "":
		return c.origin
	case c.base:
		return backquote(DatabaseName) + "." + backquote(c.table) + "." + backquote(c.name)
	case c.table != "":
		return backquote(c.table) + "." + backquote(c.name)
	}
	return backquote(c.name)
}

// withOrigins sets cols' origins (a derived table's or view's columns)
// where MySQL merges the query (materialized: it does not, and prints
// `d`.`c`).
func withOrigins(cols []scopeCol, origins []string, materialized bool) []scopeCol {
	if len(origins) == len(cols) && !materialized {
		for i := range cols {
			cols[i].origin = origins[i]
		}
	}
	return cols
}
