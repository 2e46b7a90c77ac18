package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// FOREIGN KEY constraints of CREATE TABLE and ALTER TABLE, checked as
// InnoDB checks them when they are defined: the parent table exists (unless
// foreign_key_checks = 0), its columns lead one of its indexes, the column
// types match, SET NULL has nullable columns. A child table without an
// index on the key columns gets one, as in MySQL. Inline column
// REFERENCES clauses are parsed and ignored, as MySQL 8 does. The engine
// enforces them (engine/foreign_keys.go).

// AddForeignKey is ALTER TABLE t ADD [CONSTRAINT name] FOREIGN KEY ...;
// Index, when set, is the index MySQL adds for it.
type AddForeignKey struct {
	Table string
	Key   catalog.ForeignKey
	Index *catalog.Index
}

// DropForeignKey is ALTER TABLE t DROP FOREIGN KEY name.
type DropForeignKey struct{ Table, Name string }

func (*AddForeignKey) statement()  {}
func (*DropForeignKey) statement() {}

// fkTable is what a foreign key definition is checked against.
type fkTable struct {
	name    string
	fields  []columnar.Field
	indexes []catalog.Index
}

// foreignKeys binds the FOREIGN KEY constraints of cons for table t
// (whose indexes may grow by the ones MySQL adds); existing are the
// table's keys already defined, for generated names.
func (b *binder) foreignKeys(t *fkTable, cons []*ast.Constraint, existing []catalog.ForeignKey) ([]catalog.ForeignKey, error) {
	ordinal := 0
	prefix := strings.ToLower(t.name) + "_ibfk_"
	for _, fk := range existing {
		l := strings.ToLower(fk.Name)
		if n, err := strconv.Atoi(strings.TrimPrefix(l, prefix)); err == nil && strings.HasPrefix(l, prefix) && n > ordinal {
			ordinal = n
		}
	}
	names := indexNamer{}
	for _, ix := range t.indexes {
		names[strings.ToLower(ix.Name)] = true
	}
	var out []catalog.ForeignKey
	for _, con := range cons {
		if con.Tp != ast.ConstraintForeignKey {
			continue
		}
		name := con.Name
		if name == "" {
			ordinal++
			name = t.name + "_ibfk_" + strconv.Itoa(ordinal)
		}
		for _, o := range out {
			if strings.EqualFold(o.Name, name) {
				return nil, b.errf(b.wordPos(name, -1), "Duplicate foreign key constraint name '%s'", name)
			}
		}
		if b.cat.ForeignKeyNameTaken(name) {
			return nil, b.errf(b.wordPos(name, -1), "Duplicate foreign key constraint name '%s'", name)
		}
		fk, cols, err := b.foreignKey(t, con, name)
		if err != nil {
			return nil, err
		}
		if !leadsIndex(t.indexes, cols) {
			ixName := names.name(con.Name, t.fields[cols[0]].Name)
			t.indexes = append(t.indexes, catalog.Index{Name: ixName, Columns: cols})
		}
		out = append(out, fk)
	}
	return out, nil
}

// foreignKey binds one constraint named name; cols are the child columns.
func (b *binder) foreignKey(t *fkTable, con *ast.Constraint, name string) (catalog.ForeignKey, []int, error) {
	fk := catalog.ForeignKey{Name: name}
	cols, err := b.indexColumns(t.fields, con.Keys, "foreign key")
	if err != nil {
		return fk, nil, err
	}
	for _, c := range cols {
		fk.Columns = append(fk.Columns, t.fields[c].Name)
	}
	ref := con.Refer
	fk.RefTable = ref.Table.Name.O
	if ref.OnDelete != nil {
		fk.OnDelete = referAction(ref.OnDelete.ReferOpt)
	}
	if ref.OnUpdate != nil {
		fk.OnUpdate = referAction(ref.OnUpdate.ReferOpt)
	}
	pos := b.wordPos(fk.RefTable, -1)
	for _, a := range []string{fk.OnDelete, fk.OnUpdate} {
		if a == "SET DEFAULT" {
			return fk, nil, b.errf(pos, "unsupported: SET DEFAULT in foreign key '%s' (InnoDB rejects it: use RESTRICT, CASCADE, SET NULL or NO ACTION)", name)
		}
	}
	if len(ref.IndexPartSpecifications) != len(cols) {
		return fk, nil, b.errf(pos, "Incorrect foreign key definition for '%s': Key reference and table reference don't match", name)
	}
	parent, ok := b.fkParent(t, fk.RefTable)
	if !ok {
		if b.session.Limit("foreign_key_checks") == 0 {
			for _, p := range ref.IndexPartSpecifications {
				fk.RefColumns = append(fk.RefColumns, p.Column.Name.O)
			}
			return fk, cols, nil
		}
		return fk, nil, b.errf(pos, "Failed to open the referenced table '%s'", fk.RefTable)
	}
	fk.RefTable = parent.name
	var pcols []int
	for _, p := range ref.IndexPartSpecifications {
		k := -1
		for j, f := range parent.fields {
			if p.Column != nil && strings.EqualFold(f.Name, p.Column.Name.O) {
				k = j
			}
		}
		if k < 0 {
			return fk, nil, b.errf(pos, "Failed to add the foreign key constraint. Missing column '%s' for constraint '%s' in the referenced table '%s'", p.Column.Name.O, name, parent.name)
		}
		pcols = append(pcols, k)
		fk.RefColumns = append(fk.RefColumns, parent.fields[k].Name)
	}
	if !leadsIndex(parent.indexes, pcols) {
		return fk, nil, b.errf(pos, "Failed to add the foreign key constraint. Missing index for constraint '%s' in the referenced table '%s'", name, parent.name)
	}
	for i, c := range cols {
		cf, pf := t.fields[c], parent.fields[pcols[i]]
		if !fkCompatible(cf.Type, pf.Type) {
			return fk, nil, b.errf(pos, "Referencing column '%s' and referenced column '%s' in foreign key constraint '%s' are incompatible.", cf.Name, pf.Name, name)
		}
		if !cf.Nullable && (fk.OnDelete == catalog.SetNull || fk.OnUpdate == catalog.SetNull) {
			return fk, nil, b.errf(pos, "Column '%s' cannot be NOT NULL: needed in a foreign key constraint '%s' SET NULL", cf.Name, name)
		}
		if cf.Generated != "" && (fk.OnDelete == catalog.SetNull || fk.OnUpdate == catalog.SetNull || fk.OnUpdate == catalog.CascadeAction) {
			return fk, nil, b.errf(pos, "unsupported: generated column '%s' in foreign key '%s' with SET NULL or ON UPDATE CASCADE", cf.Name, name)
		}
	}
	return fk, cols, nil
}

// fkParent is the referenced table: t itself or a catalog table.
func (b *binder) fkParent(t *fkTable, name string) (*fkTable, bool) {
	if strings.EqualFold(name, t.name) {
		return t, true
	}
	p, ok := b.cat.Table(name)
	if !ok {
		return nil, false
	}
	return &fkTable{name: p.Name, fields: p.Fields, indexes: b.cat.Indexes(p.Name)}, true
}

// referAction is an ON DELETE / ON UPDATE action as the catalog keeps it.
func referAction(o ast.ReferOptionType) string {
	if o == ast.ReferOptionNoOption {
		return ""
	}
	return o.String()
}

// leadsIndex reports whether cols are the leading columns of an index.
func leadsIndex(indexes []catalog.Index, cols []int) bool {
	for _, ix := range indexes {
		if len(ix.Columns) < len(cols) {
			continue
		}
		match := true
		for i, c := range cols {
			match = match && ix.Columns[i] == c
		}
		if match {
			return true
		}
	}
	return false
}

// fkCompatible is InnoDB's rule, loosely: integers with integers, strings
// with strings, and otherwise the same kind of value.
func fkCompatible(a, b columnar.Type) bool {
	switch {
	case a.IsInteger() || b.IsInteger():
		return a.IsInteger() && b.IsInteger() && a.ID != columnar.Bool && b.ID != columnar.Bool && a.Year == b.Year
	case a.ID == columnar.String || b.ID == columnar.String:
		return a.ID == b.ID && !a.JSON && !b.JSON && a.Binary == b.Binary
	case a.ID == columnar.Decimal:
		return b.ID == columnar.Decimal && a.Precision == b.Precision && a.Scale == b.Scale
	}
	return a.ID == b.ID && a.ID != columnar.Vector
}

// alterForeignKey binds the FOREIGN KEY forms of ALTER TABLE; ok is false
// for other changes.
func (b *binder) alterForeignKey(t *columnar.Table, spec *ast.AlterTableSpec) (st Statement, ok bool, err error) {
	switch {
	case spec.Tp == ast.AlterTableAddConstraint && spec.Constraint.Tp == ast.ConstraintForeignKey:
		ft := &fkTable{name: t.Name, fields: t.Fields, indexes: b.cat.Indexes(t.Name)}
		before := len(ft.indexes)
		list, err := b.foreignKeys(ft, []*ast.Constraint{spec.Constraint}, b.cat.ForeignKeys(t.Name))
		if err != nil {
			return nil, true, err
		}
		add := &AddForeignKey{Table: t.Name, Key: list[0]}
		if len(ft.indexes) > before {
			add.Index = &ft.indexes[before]
		}
		return add, true, nil
	case spec.Tp == ast.AlterTableDropForeignKey:
		return &DropForeignKey{Table: t.Name, Name: spec.Name}, true, nil
	}
	return nil, false, nil
}

// foreignKeyColumnUse is MySQL's error when ALTER TABLE drops or renames
// a column a foreign key names (1828 in the child, 1829 in the parent).
func (b *binder) foreignKeyColumnUse(table, column string) error {
	for _, fk := range b.cat.ForeignKeys(table) {
		for _, c := range fk.Columns {
			if strings.EqualFold(c, column) {
				return b.errf(b.wordPos(column, -1), "Cannot drop column '%s': needed in a foreign key constraint '%s'", column, fk.Name)
			}
		}
	}
	for _, ref := range b.cat.ReferencesTo(table) {
		for _, c := range ref.Key.RefColumns {
			if strings.EqualFold(c, column) {
				return b.errf(b.wordPos(column, -1), "Cannot drop column '%s': needed in a foreign key constraint '%s' of table '%s'", column, ref.Key.Name, ref.Child)
			}
		}
	}
	return nil
}
