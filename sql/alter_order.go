package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// alterOrderBy is ALTER TABLE t ORDER BY col [ASC | DESC], ...: the table
// is rewritten with its rows in that order (rows that tie keep theirs),
// as MySQL does for a table without a clustered index. gpusql keeps rows
// in the order they were stored (rows inserted later come after them), so
// a fact table ordered by a foreign key lets zone maps rule out chunks of
// it (EXPLAIN's "join key intervals"). MySQL's InnoDB ignores the clause on
// a table with a PRIMARY KEY; gpusql applies it to every table.
func (b *binder) alterOrderBy(t *columnar.Table, spec *ast.AlterTableSpec) (Statement, error) {
	src := make([]int, len(t.Fields))
	for i := range src {
		src[i] = i
	}
	st, err := b.rewriteTable(t, append([]columnar.Field(nil), t.Fields...), src)
	if err != nil {
		return nil, err
	}
	ac := st.(*AlterColumns)
	sch := ac.Query.Plan.Schema()
	var keys []SortKey
	for _, it := range spec.OrderByList {
		name := it.Column.Name.O
		c := -1
		for i, f := range t.Fields {
			if strings.EqualFold(f.Name, name) {
				c = i
				break
			}
		}
		if c < 0 {
			return nil, b.errCode(b.wordPos(name, -1), ErBadField, "Unknown column '%s' in 'order clause'", name)
		}
		if t.Fields[c].Type.ID == columnar.Vector {
			return nil, b.errf(b.wordPos(name, -1), "unsupported: ALTER TABLE ... ORDER BY a VECTOR column '%s'", name)
		}
		keys = append(keys, SortKey{Expr: &ColRef{Index: c, Col: sch[c]}, Desc: it.Desc})
	}
	ac.Query.Plan = &Sort{Input: ac.Query.Plan, Keys: keys}
	return ac, nil
}
