package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// scope names the columns of the plan that expressions are bound over. The
// plan may grow while expressions are bound: a correlated scalar subquery is
// decorrelated into a LEFT JOIN whose right columns are appended after the
// named ones, so earlier ColRefs stay valid.
type scope struct {
	plan Plan
	cols []scopeCol
	// parent is the scope of the enclosing query for correlated references;
	// corr records that this block referenced it.
	parent *scope
	corr   *correlation
	// agg is set on the scope after GROUP BY: names resolve through the
	// pre-aggregation scope and must match a group expression.
	agg *aggScope
	// win is set on the scope after a Window node: window function calls
	// resolve to its columns.
	win *winScope
	// aliases are select-list expressions by lower-cased alias, consulted
	// when an unqualified name is not a column (HAVING); inAlias stops an
	// alias from expanding into itself.
	aliases map[string]ast.ExprNode
	inAlias bool
	// aliasExprs are the select-list expressions already bound, by
	// lower-cased alias (ORDER BY's): an alias reads its item as bound,
	// so ORDER BY -x under SELECT DISTINCT matches the item x, and a
	// subquery item is not planned twice.
	aliasExprs map[string]Expr
	// noJoins is set where the plan cannot grow (a JOIN's ON condition):
	// subqueries are bound nested instead of decorrelated into joins.
	noJoins bool
}

type scopeCol struct {
	table string // qualifier: table alias or name; "" for derived columns
	name  string
	// hidden columns resolve only when qualified and are not expanded by
	// '*': the right-hand copy of a JOIN ... USING column.
	hidden bool
	// base marks a base table's column, which MySQL's error messages
	// print with the database: `gpusql`.`t`.`a` (overflow_text.go).
	base bool
	// origin is what a merged derived table's or view's column stands
	// for in MySQL's errors: the column it passes through or the
	// expression it computes ("" for others).
	origin string
}

// correlation records references from a subquery block to its parent.
type correlation struct {
	used bool
	// capture is set when the block is bound nested: its references to
	// the parent become parameters (nested_subquery.go).
	capture *paramCapture
	// forceNested is set when a subquery inside the block passes a
	// reference to the block's own parent to a nested evaluation: no join
	// can supply it, so the block must be nested as well.
	forceNested bool
}

// outerRef is a reference to column Index of the enclosing query's plan,
// found while binding a correlated subquery. Decorrelation rewrites it into a
// ColRef over a join; it never reaches a finished plan.
type outerRef struct {
	Index int
	Col   Column
}

func (e *outerRef) Type() columnar.Type { return e.Col.Type }
func (e *outerRef) String() string      { return render(e, false) }

// lookup finds the column named table.name (table may be empty). It returns
// -1 when there is none and ambiguous when several distinct columns match.
func (sc *scope) lookup(table, name string) (idx int, ambiguous bool) {
	idx = -1
	for i, c := range sc.cols {
		if !strings.EqualFold(c.name, name) {
			continue
		}
		if table != "" {
			if !strings.EqualFold(c.table, table) {
				continue
			}
		} else if c.hidden {
			continue
		}
		if idx >= 0 {
			return idx, true
		}
		idx = i
	}
	return idx, false
}

// hasTable reports whether any column is qualified by table.
func (sc *scope) hasTable(table string) bool {
	for _, c := range sc.cols {
		if strings.EqualFold(c.table, table) {
			return true
		}
	}
	return false
}

func (sc *scope) colRef(i int) *ColRef {
	return &ColRef{Index: i, Col: sc.plan.Schema()[i]}
}
