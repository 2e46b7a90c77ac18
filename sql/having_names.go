package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// HAVING's names resolve as MySQL resolves them, whatever the sql_mode:
// its parser makes a name outside an aggregate's arguments an Item_ref,
// not an Item_field, and Item_ref::fix_fields looks it up in the select
// list (an alias, or an item that is that column) and the GROUP BY
// columns (resolve_ref_in_select_and_group), then in the enclosing
// queries, but never in the block's own FROM. So, over t(a, b),
//
//	SELECT a FROM t GROUP BY a HAVING b > 0        1054 Unknown column 'b' in 'having clause'
//	SELECT a FROM t HAVING b > 0                   1054 (no GROUP BY: the same lookup)
//	SELECT a FROM t GROUP BY a, b HAVING b > 0     b is a GROUP BY column
//	SELECT a, COUNT(*) FROM t GROUP BY a HAVING MAX(b) > 0   inside an aggregate: a column of t
//
// The MySQL manual's wording: HAVING may refer to columns in the GROUP BY
// clause, in aggregate functions, in the SELECT list, and of outer queries.

// checkHavingNames refuses a HAVING name of the block's FROM that is
// neither a select-list item or alias nor a GROUP BY column; a name the
// FROM lacks is left to the binder (an alias, an outer column, or 1054).
func (b *binder) checkHavingNames(having ast.ExprNode, items []selItem, groupBy *ast.GroupByClause, sc *scope) error {
	if having == nil {
		return nil
	}
	known := map[int]bool{} // FROM columns an item or GROUP BY column is
	aliases := map[string]bool{}
	for _, it := range items {
		if it.alias {
			aliases[strings.ToLower(it.name)] = true
		}
		b.markColumn(it.node, sc, known)
	}
	if groupBy != nil {
		for _, by := range groupBy.Items {
			b.markColumn(b.groupItemNode(by.Expr, items), sc, known)
		}
	}
	var err error
	walkAST(having, func(x ast.Node) bool {
		if err != nil {
			return false
		}
		switch x := x.(type) {
		case *ast.AggregateFuncExpr, *ast.SubqueryExpr, *ast.WindowFuncExpr:
			return false
		case *ast.ColumnNameExpr:
			err = b.havingName(x, sc, known, aliases)
			return false
		}
		return true
	})
	return err
}

// havingName is checkHavingNames's verdict on one name.
func (b *binder) havingName(x *ast.ColumnNameExpr, sc *scope, known map[int]bool, aliases map[string]bool) error {
	table, name := x.Name.Table.O, x.Name.Name.O
	if table == "" && aliases[strings.ToLower(name)] {
		return nil
	}
	i, amb := sc.lookup(table, name)
	if i < 0 || amb || known[i] {
		return nil
	}
	if outerHas(sc.parent, table, name) {
		if b.outerHaving == nil {
			b.outerHaving = map[*ast.ColumnName]bool{}
		}
		b.outerHaving[x.Name] = true // column() reads the outer query's
		return nil
	}
	return b.errCode(b.posOr(x, -1), ErBadField, "Unknown column '%s' in 'having clause'", qualified(table, name))
}

// outerHas reports whether an enclosing query's FROM, from sc outwards,
// has the column: MySQL's Item_ref::fix_fields takes it there when the
// HAVING block's select list and GROUP BY columns do not have it.
func outerHas(sc *scope, table, name string) bool {
	for ; sc != nil; sc = sc.parent {
		local := sc
		if sc.agg != nil {
			local = sc.agg.pre
		}
		if i, _ := local.lookup(table, name); i >= 0 {
			return true
		}
	}
	return false
}

// markColumn notes the FROM column n is, if it is one.
func (b *binder) markColumn(n ast.ExprNode, sc *scope, known map[int]bool) {
	cn, ok := unparen(n).(*ast.ColumnNameExpr)
	if !ok {
		return
	}
	if i, amb := sc.lookup(cn.Name.Table.O, cn.Name.Name.O); i >= 0 && !amb {
		known[i] = true
	}
}

// groupItemNode is the expression a GROUP BY item names: a position's
// select item, else the item itself.
func (b *binder) groupItemNode(n ast.ExprNode, items []selItem) ast.ExprNode {
	if v, ok := n.(*driver.ValueExpr); ok {
		if k := v.Datum.GetInt64(); k >= 1 && int(k) <= len(items) {
			return items[k-1].node
		}
	}
	return n
}
