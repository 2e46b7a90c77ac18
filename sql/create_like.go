package sql

import (
	"sort"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// createTableLike binds CREATE TABLE t2 LIKE t1: t2 gets t1's columns
// (types, NULL, defaults, AUTO_INCREMENT, collations, generated
// expressions), indexes and CHECK constraints, and no rows. As in MySQL the
// AUTO_INCREMENT counter starts over and foreign keys are not copied.
// Check constraint names are unique in a schema, so the copies are named
// t2_chk_1, t2_chk_2, ... in the order of t1's constraint names.
func (b *binder) createTableLike(n *ast.CreateTableStmt) (Statement, error) {
	name := n.Table.Name.O
	src, err := b.table(n.ReferTable)
	if err != nil {
		return nil, err
	}
	if _, exists := b.cat.Table(name); exists {
		if n.IfNotExists {
			return &CreateTable{Name: name, IfNotExists: true}, nil
		}
		return nil, b.errCode(b.wordPos(name, -1), ErTableExists, "Table '%s' already exists", name)
	}
	st := &CreateTable{Name: name, Fields: append([]columnar.Field(nil), src.Fields...), Options: b.cat.Options(src.Name)}
	for _, ix := range b.cat.Indexes(src.Name) {
		ix.Columns = append([]int(nil), ix.Columns...)
		ix.Desc = append([]bool(nil), ix.Desc...)
		ix.SubPart = append([]int(nil), ix.SubPart...)
		st.Indexes = append(st.Indexes, ix)
	}
	// Numbered in the source's name order, as MySQL does (t1's max, min,
	// t1_chk_1 become t2_chk_1, t2_chk_2, t2_chk_3).
	checks := b.cat.Checks(src.Name)
	sort.SliceStable(checks, func(i, j int) bool { return checks[i].Name < checks[j].Name })
	for i, ck := range checks {
		ck.Name = name + "_chk_" + strconv.Itoa(i+1)
		if b.cat.CheckNameTaken(ck.Name) {
			return nil, b.errf(b.wordPos(name, -1), "Duplicate check constraint name '%s'.", ck.Name)
		}
		ck.Columns = append([]string(nil), ck.Columns...)
		st.Checks = append(st.Checks, ck)
	}
	return st, nil
}
