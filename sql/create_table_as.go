package sql

import (
	"strings"

	"gpusql/storage/columnar"
)

// CTASColumn is what CREATE TABLE ... AS SELECT knows of one result
// column before the query runs. MySQL 8 copies a plain reference to a
// base table column with its NULL / NOT NULL, DEFAULT and COMMENT, so
// `CREATE TABLE b AS SELECT id FROM a` makes `id int NOT NULL DEFAULT '5'`
// when a.id is. Any other column that cannot be NULL is NOT NULL with
// the type's implicit default ('0', '0.00', the empty string): `SELECT a + 1 AS e`
// makes `e bigint NOT NULL DEFAULT '0'`. A nullable column accepts
// every row the query gives.
type CTASColumn struct {
	NotNull bool
	// Source is the copied base table column; nil for an expression.
	Source *columnar.Field
	// Width is the VARCHAR length MySQL gives a string expression: its
	// maximum character length (CONCAT(a, 'x') of a VARCHAR(10) is
	// VARCHAR(11)), 0 where gpusql cannot tell it or where it passes the
	// 512 characters past which MySQL makes the column TEXT
	// (CONVERT_IF_BIGGER_TO_BLOB in Item::make_string_field).
	Width int
}

// ctasMaxVarchar is CONVERT_IF_BIGGER_TO_BLOB: a longer string
// expression becomes a TEXT column in MySQL's CREATE TABLE ... AS SELECT.
const ctasMaxVarchar = 512

// ctasColumns describes the columns of a CREATE TABLE ... AS SELECT. The
// top projection is found below the ORDER BY, LIMIT and DISTINCT that
// keep its columns; a column of an outer join's inner side is nullable
// in the join's schema.
func ctasColumns(p Plan) []CTASColumn {
	for {
		switch n := p.(type) {
		case *Sort:
			p = n.Input
			continue
		case *Limit:
			p = n.Input
			continue
		case *Distinct:
			p = n.Input
			continue
		case *Project:
			out := make([]CTASColumn, len(n.Exprs))
			for i, e := range n.Exprs {
				out[i].NotNull = !nullable(e)
				if c, ok := e.(*ColRef); ok {
					out[i].Source = baseField(n.Input, c.Index)
				}
				w := anchorWidth(e)
				if c, ok := e.(*ColRef); ok && w == 0 {
					w = derivedWidth(n.Input, c.Index)
				}
				if w <= ctasMaxVarchar {
					out[i].Width = w
				}
			}
			return out
		}
		return nil
	}
}

// derivedWidth is the string length of column i of p where a derived
// table's select list computes it: MySQL types the derived column from
// its expression, so SELECT s FROM (SELECT LEFT(b, 2) s ...) d is
// VARCHAR(2) as LEFT(b, 2) itself is. 0 where p does not compute it.
func derivedWidth(p Plan, i int) int {
	for {
		if in, ok := keepsColumns(p); ok {
			p = in
			continue
		}
		switch n := p.(type) {
		case *Project:
			if i < 0 || i >= len(n.Exprs) {
				return 0
			}
			c, ok := n.Exprs[i].(*ColRef)
			if !ok {
				return anchorWidth(n.Exprs[i])
			}
			p, i = n.Input, c.Index
		default:
			return 0
		}
	}
}

// baseField returns the base table column that column i of p passes
// through unchanged, or nil where p computes it.
func baseField(p Plan, i int) *columnar.Field {
	t, c := baseColumn(p, i)
	if t == nil {
		return nil
	}
	f := t.Fields[c]
	return &f
}

// baseColumn is the table and field index of the column baseField finds,
// nil where p computes it.
func baseColumn(p Plan, i int) (*columnar.Table, int) {
	for {
		if in, ok := keepsColumns(p); ok {
			p = in
			continue
		}
		switch n := p.(type) {
		case *Window:
			if i >= len(n.Input.Schema()) {
				return nil, 0 // a window function's result
			}
			p = n.Input
		case *Project:
			if i < 0 || i >= len(n.Exprs) {
				return nil, 0
			}
			c, ok := n.Exprs[i].(*ColRef)
			if !ok {
				return nil, 0
			}
			p, i = n.Input, c.Index
		case *Join:
			left := len(n.Left.Schema())
			if len(n.Out) != left+len(n.Right.Schema()) {
				return nil, 0 // a semi or anti join: Out is not Left then Right
			}
			if p = n.Left; i >= left {
				p, i = n.Right, i-left
			}
		case *Aggregate:
			// A GROUP BY column comes first in the output, unchanged:
			// MySQL copies its definition as for a plain select.
			if i < 0 || i >= len(n.GroupBy) {
				return nil, 0
			}
			c, ok := n.GroupBy[i].(*ColRef)
			if !ok {
				return nil, 0
			}
			p, i = n.Input, c.Index
		case *Scan:
			if i < 0 || i >= len(n.Columns) || n.Columns[i] >= len(n.Table.Fields) {
				return nil, 0
			}
			return n.Table, n.Columns[i]
		default:
			return nil, 0
		}
	}
}

// ImplicitDefault is the DEFAULT MySQL gives a NOT NULL expression column
// of CREATE TABLE ... AS SELECT: 0 in the scale of a number, ” for a
// character string. ok is false for other types (dates, TEXT, JSON,
// ENUM, vectors), which gpusql leaves nullable there.
func ImplicitDefault(t columnar.Type) (text string, ok bool) {
	switch {
	case t.Year || t.Bit > 0:
		return "", false
	case t.ID == columnar.Int32, t.ID == columnar.Int64, t.ID == columnar.Bool, t.ID == columnar.Float64:
		return "0", true
	case t.ID == columnar.Decimal:
		if t.Scale > 0 {
			return "0." + strings.Repeat("0", t.Scale), true
		}
		return "0", true
	case t.ID == columnar.String && t.Width > 0 && !t.JSON && t.Members == "":
		return "", true
	}
	return "", false
}
