package sql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// Indexes are catalog metadata: PRIMARY KEY and UNIQUE ones are constraints
// the catalog enforces on every committed snapshot; plain KEYs are recorded
// (SHOW INDEX lists them) so MySQL DDL loads unchanged.

// CreateIndex adds an index to a table (CREATE [UNIQUE] INDEX, ALTER TABLE
// ... ADD INDEX | UNIQUE | PRIMARY KEY).
type CreateIndex struct {
	Table       string
	Index       catalog.Index
	IfNotExists bool
}

// DropIndex removes an index (DROP INDEX, ALTER TABLE ... DROP INDEX |
// PRIMARY KEY).
type DropIndex struct {
	Table    string
	Name     string
	IfExists bool
}

// ShowIndex lists a table's indexes, one row per indexed column.
type ShowIndex struct{ Table string }

func (*CreateIndex) statement() {}
func (*DropIndex) statement()   {}
func (*ShowIndex) statement()   {}

// indexNamer hands out MySQL's default index names: the first column's
// name, then name_2, name_3, ... when it is taken.
type indexNamer map[string]bool

func (n indexNamer) name(want, first string) string {
	if want == "" {
		want = first
		for k := 2; n[strings.ToLower(want)]; k++ {
			want = first + "_" + strconv.Itoa(k)
		}
	}
	n[strings.ToLower(want)] = true
	return want
}

// indexColumns resolves an index's key parts to field indexes.
func (b *binder) indexColumns(fields []columnar.Field, parts []*ast.IndexPartSpecification, what string) ([]int, error) {
	var cols []int
	for _, p := range parts {
		if p.Column == nil {
			return nil, b.errf(b.posOr(p.Expr, -1), "unsupported: expression in %s (name columns)", what)
		}
		name := p.Column.Name.O
		i := -1
		for k, f := range fields {
			if strings.EqualFold(f.Name, name) {
				i = k
			}
		}
		if i < 0 {
			return nil, b.errCode(b.wordPos(name, -1), ErKeyColumnDoesNotExist, "Key column '%s' doesn't exist in table", name)
		}
		if containsInt(cols, i) {
			e := b.errCode(b.wordPos(name, -1), ErDupFieldName, "Duplicate column name '%s'", name) // MySQL's 1060
			e.Detail = "twice in " + what
			return nil, e
		}
		if fields[i].Type.JSON && what == "index" { // with a prefix or without, as MySQL checks it first
			return nil, b.errCode(b.wordPos(name, -1), ErJSONUsedAsKey, "JSON column '%s' supports indexing only via generated columns on a specified JSON path.", fields[i].Name)
		}
		if p.Length <= 0 && what == "index" { // TiDB: -1 when no length is written
			if err := b.blobKey(fields[i], name); err != nil {
				return nil, err
			}
		}
		if p.Length > 0 && !prefixable(fields[i].Type, p.Length) {
			e := b.errCode(b.wordPos(name, -1), ErWrongSubKey, "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys")
			e.Detail = fmt.Sprintf("%s(%d)", name, p.Length)
			return nil, e
		}
		cols = append(cols, i)
	}
	if len(cols) == 0 {
		return nil, b.errf(-1, "%s needs at least one column", what)
	}
	return cols, nil
}

// blobKey is MySQL's 1170 for a TEXT or BLOB column keyed whole: InnoDB
// keys at most a prefix of one, so MySQL wants its length (KEY (c(10))).
func (b *binder) blobKey(f columnar.Field, name string) error {
	if t := f.Type; t.ID == columnar.String && t.Width == 0 && !t.JSON && t.Members == "" {
		return b.errCode(b.wordPos(name, -1), ErBlobKeyWithoutLength, "BLOB/TEXT column '%s' used in key specification without a key length", f.Name)
	}
	return nil
}

// descParts are the DESC marks of a key's parts, nil where none is DESC.
func descParts(parts []*ast.IndexPartSpecification) []bool {
	var out []bool
	for i, p := range parts {
		if p.Desc {
			if out == nil {
				out = make([]bool, len(parts))
			}
			out[i] = true
		}
	}
	return out
}

// prefixParts are the prefix lengths of a key's parts (cols their
// columns), nil where none has one. A prefix as long as a VARCHAR(n) or
// CHAR(n) column is the whole column, which MySQL keys without one
// (Sub_part NULL); a TEXT or BLOB column's prefix is always kept.
func prefixParts(fields []columnar.Field, cols []int, parts []*ast.IndexPartSpecification) []int {
	var out []int
	for k, p := range parts {
		if w := fields[cols[k]].Type.Width; p.Length > 0 && (w == 0 || p.Length < w) {
			if out == nil {
				out = make([]int, len(parts))
			}
			out[k] = p.Length
		}
	}
	return out
}

// prefixable reports whether a key may take the first n characters of a
// column of type t, as MySQL allows: a character or binary string (not
// JSON, ENUM or SET) no shorter than n. A UNIQUE key compares the prefix
// (catalog.Index.KeyOf); a plain key finds the same rows either way.
func prefixable(t columnar.Type, n int) bool {
	if t.ID != columnar.String || t.JSON || t.Members != "" {
		return false
	}
	return t.Width == 0 || n <= t.Width
}

// constraintIndex turns a CREATE TABLE / ALTER TABLE constraint into an
// index; ok is false for constraints that are not indexes (foreign keys,
// checks), which are accepted and ignored.
func (b *binder) constraintIndex(fields []columnar.Field, con *ast.Constraint, names indexNamer) (ix catalog.Index, ok bool, err error) {
	switch con.Tp {
	case ast.ConstraintPrimaryKey:
		ix = catalog.Index{Name: catalog.PrimaryName, Unique: true, Primary: true}
	case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
		ix = catalog.Index{Name: con.Name, Unique: true}
	case ast.ConstraintKey, ast.ConstraintIndex:
		ix = catalog.Index{Name: con.Name}
	default:
		return ix, false, nil
	}
	if ix.Columns, err = b.indexColumns(fields, con.Keys, "index"); err != nil {
		return ix, false, err
	}
	ix.Desc = descParts(con.Keys)
	ix.SubPart = prefixParts(fields, ix.Columns, con.Keys)
	if con.Option != nil {
		ix.Comment = con.Option.Comment
	}
	if ix.Primary {
		if names[strings.ToLower(catalog.PrimaryName)] {
			return ix, false, b.errCode(b.wordPos("PRIMARY", -1), ErMultiplePriKey, "Multiple primary key defined")
		}
		names[strings.ToLower(catalog.PrimaryName)] = true
		return ix, true, nil
	}
	if strings.EqualFold(ix.Name, catalog.PrimaryName) {
		return ix, false, b.errCode(b.wordPos(ix.Name, -1), ErWrongNameForIndex, "Incorrect index name '%s'", ix.Name)
	}
	if ix.Name != "" && names[strings.ToLower(ix.Name)] {
		return ix, false, b.errCode(b.wordPos(ix.Name, -1), ErDupKeyName, "Duplicate key name '%s'", ix.Name)
	}
	ix.Name = names.name(ix.Name, fields[ix.Columns[0]].Name)
	return ix, true, nil
}

// tableIndexes collects the indexes of CREATE TABLE: PRIMARY KEY and UNIQUE
// column options, then the table constraints. Primary key columns become
// NOT NULL (MySQL).
func (b *binder) tableIndexes(n *ast.CreateTableStmt, fields []columnar.Field) ([]catalog.Index, error) {
	var out []catalog.Index
	names := indexNamer{}
	for i, c := range n.Cols {
		for _, o := range c.Options {
			switch o.Tp {
			case ast.ColumnOptionPrimaryKey:
				if err := b.blobKey(fields[i], c.Name.Name.O); err != nil {
					return nil, err
				}
				if names[strings.ToLower(catalog.PrimaryName)] {
					return nil, b.errCode(b.wordPos(c.Name.Name.O, -1), ErMultiplePriKey, "Multiple primary key defined")
				}
				names[strings.ToLower(catalog.PrimaryName)] = true
				out = append(out, catalog.Index{Name: catalog.PrimaryName, Columns: []int{i}, Unique: true, Primary: true})
			case ast.ColumnOptionUniqKey:
				if err := b.blobKey(fields[i], c.Name.Name.O); err != nil {
					return nil, err
				}
				out = append(out, catalog.Index{Name: names.name("", fields[i].Name), Columns: []int{i}, Unique: true})
			}
		}
	}
	for _, con := range n.Constraints {
		ix, ok, err := b.constraintIndex(fields, con, names)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ix)
		}
	}
	for _, ix := range out {
		if ix.Primary {
			for _, c := range ix.Columns {
				if explicitNull(n.Cols[c]) {
					return nil, b.primaryNullError(n.Cols[c].Name.Name.O)
				}
				fields[c].Nullable = false
			}
		}
	}
	return out, nil
}

// explicitNull reports whether a column definition says NULL. MySQL makes
// a PRIMARY KEY column that says nothing NOT NULL, but one declared NULL
// is its error 1171 (EXPLICIT_NULL_FLAG in prepare_key_column).
func explicitNull(c *ast.ColumnDef) bool {
	for _, o := range c.Options {
		if o.Tp == ast.ColumnOptionNull {
			return true
		}
	}
	return false
}

// primaryNullError is MySQL's 1171 for a PRIMARY KEY column declared NULL.
func (b *binder) primaryNullError(column string) error {
	return b.errCode(b.wordPos(column, -1), ErPrimaryCantHaveNull,
		"All parts of a PRIMARY KEY must be NOT NULL; if you need NULL in a key, use UNIQUE instead")
}

// indexTable is the table an index statement names, or an error at its name.
func (b *binder) indexTable(tn *ast.TableName) (*columnar.Table, error) {
	if tn == nil {
		return nil, b.errf(b.start, "the statement needs a table")
	}
	if _, ok := b.cat.View(tn.Name.O); ok {
		// MySQL's ER_WRONG_OBJECT for ALTER TABLE and CREATE / DROP INDEX
		// of a view.
		return nil, b.errCode(b.wordPos(tn.Name.O, -1), ErWrongObject, "'%s.%s' is not BASE TABLE", DatabaseName, tn.Name.O)
	}
	return b.table(tn)
}

// usedIndexNames are the names taken on t, for default names of new ones.
func (b *binder) usedIndexNames(t *columnar.Table) indexNamer {
	names := indexNamer{}
	for _, ix := range b.cat.Indexes(t.Name) {
		names[strings.ToLower(ix.Name)] = true
	}
	return names
}

func (b *binder) createIndex(n *ast.CreateIndexStmt) (Statement, error) {
	t, err := b.indexTable(n.Table)
	if err != nil {
		return nil, err
	}
	switch n.KeyType {
	case ast.IndexKeyTypeNone, ast.IndexKeyTypeUnique:
	default:
		return nil, b.errf(b.start, "unsupported: %s index", strings.ToUpper(firstN(b.src[b.start+len("CREATE "):b.end], 1)))
	}
	cols, err := b.indexColumns(t.Fields, n.IndexPartSpecifications, "index")
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(n.IndexName, catalog.PrimaryName) {
		return nil, b.errCode(b.wordPos(n.IndexName, -1), ErWrongNameForIndex, "Incorrect index name '%s'", n.IndexName)
	}
	ix := catalog.Index{Name: n.IndexName, Columns: cols, Unique: n.KeyType == ast.IndexKeyTypeUnique}
	ix.Desc = descParts(n.IndexPartSpecifications)
	ix.SubPart = prefixParts(t.Fields, cols, n.IndexPartSpecifications)
	if n.IndexOption != nil {
		ix.Comment = n.IndexOption.Comment
	}
	return &CreateIndex{Table: t.Name, Index: ix, IfNotExists: n.IfNotExists}, nil
}

func (b *binder) dropIndex(n *ast.DropIndexStmt) (Statement, error) {
	t, err := b.indexTable(n.Table)
	if err != nil {
		return nil, err
	}
	return &DropIndex{Table: t.Name, Name: n.IndexName, IfExists: n.IfExists}, nil
}

// alterTable supports the index forms of ALTER TABLE, one change per
// statement: ADD {INDEX | KEY | UNIQUE | PRIMARY KEY} (cols) and DROP
// {INDEX name | PRIMARY KEY}.
func (b *binder) alterTable(n *ast.AlterTableStmt) (Statement, error) {
	t, err := b.indexTable(n.Table)
	if err != nil {
		return nil, err
	}
	for _, sp := range n.Specs {
		if err := b.checkEngine(sp.Options, t.Name); err != nil {
			return nil, err
		}
	}
	specs, checks, err := b.alterSpecs(n)
	if err != nil {
		return nil, err
	}
	spec := specs[0]
	switch {
	case isColumnChange(spec.Tp) || len(specs) > 1:
		return b.alterColumnsCommented(t, n.Specs, specs, checks)
	case spec.Tp == ast.AlterTableRenameTable && spec.NewTable.Name.O == t.Name &&
		(spec.NewTable.Schema.O == "" || spec.NewTable.Schema.O == DatabaseName):
		// MySQL renames only to another name (Alter_table_ctx::
		// is_table_renamed): ALTER TABLE t RENAME TO t succeeds unchanged,
		// where RENAME TABLE t TO t is 1050.
		return &TableUnchanged{Table: t.Name}, nil
	case spec.Tp == ast.AlterTableRenameTable:
		if err := b.tableNameError(spec.NewTable.Name.O); err != nil {
			return nil, err
		}
		return &RenameTable{From: []string{t.Name}, To: []string{spec.NewTable.Name.O}}, nil
	case spec.Tp == ast.AlterTableOption:
		if cs, coll, ok := convertTo(spec.Options); ok {
			return b.alterConvert(t, cs, coll)
		}
		return b.alterAutoIncrement(t, spec.Options)
	case spec.Tp == ast.AlterTableDisableKeys || spec.Tp == ast.AlterTableEnableKeys:
		return &KeysToggle{Table: t.Name}, nil
	case spec.Tp == ast.AlterTableOrderByColumns:
		return b.alterOrderBy(t, spec)
	}
	if st, ok, err := b.alterCheck(t, spec); ok {
		return st, err
	}
	if st, ok, err := b.alterForeignKey(t, spec); ok {
		return st, err
	}
	switch spec.Tp {
	case ast.AlterTableAddConstraint:
		ix, ok, err := b.constraintIndex(t.Fields, spec.Constraint, b.usedIndexNames(t))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, b.errf(b.start, "unsupported: ALTER TABLE ADD of this constraint (indexes, UNIQUE and PRIMARY KEY are supported)")
		}
		if ix.Primary {
			return b.addPrimaryKey(t, ix)
		}
		return &CreateIndex{Table: t.Name, Index: ix}, nil
	case ast.AlterTableDropIndex:
		return &DropIndex{Table: t.Name, Name: spec.Name}, nil
	case ast.AlterTableDropPrimaryKey:
		return &DropIndex{Table: t.Name, Name: catalog.PrimaryName}, nil
	case ast.AlterTableRenameIndex:
		return &RenameIndex{Table: t.Name, From: spec.FromKey.O, To: spec.ToKey.O}, nil
	}
	return nil, b.errf(b.start, "unsupported: this ALTER TABLE change (ADD/DROP/RENAME/MODIFY/CHANGE COLUMN, ALTER COLUMN SET/DROP DEFAULT, RENAME TO, ADD/DROP/RENAME INDEX, UNIQUE and PRIMARY KEY, ADD/DROP/ALTER CHECK, ADD/DROP FOREIGN KEY, ORDER BY are supported)")
}

// addPrimaryKey is ALTER TABLE ADD PRIMARY KEY. MySQL makes its columns
// NOT NULL: where one is nullable the table is rewritten so (a NULL there
// is the strict ALTER's 1138 Invalid use of NULL value) and gets the key
// in the same step, so a duplicate key (1062) leaves the columns as they
// were.
func (b *binder) addPrimaryKey(t *columnar.Table, ix catalog.Index) (Statement, error) {
	fields := slices.Clone(t.Fields)
	nullable := false
	for _, c := range ix.Columns {
		nullable = nullable || fields[c].Nullable
		fields[c].Nullable = false
	}
	if !nullable {
		return &CreateIndex{Table: t.Name, Index: ix}, nil
	}
	src := make([]int, len(fields))
	for i := range src {
		src[i] = i
	}
	st, err := b.rewriteTable(t, fields, src)
	if err != nil {
		return nil, err
	}
	ac := st.(*AlterColumns)
	ac.AddIndexes = []catalog.Index{ix}
	return ac, nil
}
