package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// showTables lists the tables and views as a one-column result, in name
// order; full adds MySQL's Table_type (BASE TABLE or VIEW).
func (db *DB) showTables(s *sql.ShowTables) *StatementResult {
	like, full := s.Like, s.Full
	names, schema := append(db.cat.Names(), db.cat.ViewNames()...), sql.DatabaseName
	if s.InfoSchema {
		names, schema = slices.Clone(sql.InfoSchemaTables), "information_schema"
	}
	if like != nil {
		names = slices.DeleteFunc(names, func(n string) bool { return !sql.LikeMatch(n, *like) })
	}
	sort.Strings(names)
	// MySQL names the column after the database, and the pattern too.
	header := "Tables_in_" + schema
	if like != nil {
		header += " (" + *like + ")"
	}
	res := stringsResult(header, names)
	if full {
		kinds := make([]string, len(names))
		for i, n := range names {
			kinds[i] = "BASE TABLE"
			if s.InfoSchema {
				kinds[i] = "SYSTEM VIEW" // MySQL 8's information_schema tables are views
			} else if _, ok := db.cat.View(n); ok {
				kinds[i] = "VIEW"
			}
		}
		res.Names = append(res.Names, "Table_type")
		res.Columns = append(res.Columns, stringColumn(kinds))
	}
	return &StatementResult{Kind: KindRows, Result: res}
}

// describe lists a table's columns as MySQL's DESCRIBE does: Field, Type,
// Null, Key (PRI, UNI or MUL: see columnKeys), Default (NULL when the
// column has none) and Extra (auto_increment, or on update
// CURRENT_TIMESTAMP; gpusql has no generated columns).
func (db *DB) describe(name string, like *string, full bool) (*StatementResult, error) {
	t, ok := db.cat.Table(name)
	if !ok {
		return nil, errNoTable(name)
	}
	keys := sql.ColumnKeys(t.Fields, db.cat.Indexes(name))
	var names, types, nulls, defaults, extra, comments []string
	var noDefault []bool
	var keep, collations []string
	var noCollation []bool
	for i, f := range t.Fields {
		if like != nil && !sql.LikeMatch(f.Name, *like) {
			continue // SHOW COLUMNS FROM t LIKE 'pattern'
		}
		keep = append(keep, keys[i])
		names = append(names, f.Name)
		types = append(types, sql.SQLTypeName(f.Type))
		coll := sql.FieldCollation(f)
		collations, noCollation = append(collations, coll), append(noCollation, coll == "")
		nulls = append(nulls, map[bool]string{true: "YES", false: "NO"}[f.Nullable])
		defaults = append(defaults, sql.DefaultText(f))
		noDefault = append(noDefault, !f.HasDefault)
		extra = append(extra, columnExtra(f))
		comments = append(comments, f.Comment)
	}
	res := &exec.Result{
		Names: []string{"Field", "Type", "Null", "Key", "Default", "Extra"},
		Columns: []*columnar.Column{stringColumn(names), stringColumn(types), stringColumn(nulls),
			stringColumn(keep), nullableStringColumn(defaults, noDefault), stringColumn(extra)},
		Rows: len(names),
	}
	if full { // SHOW FULL COLUMNS: MySQL's Collation, Privileges and Comment
		privileges := make([]string, len(names))
		for i := range privileges {
			privileges[i] = "select,insert,update,references"
		}
		res.Names = slices.Insert(res.Names, 2, "Collation")
		res.Columns = slices.Insert(res.Columns, 2, nullableStringColumn(collations, noCollation))
		res.Names = append(res.Names, "Privileges", "Comment")
		res.Columns = append(res.Columns, stringColumn(privileges), stringColumn(comments))
	}
	return &StatementResult{Kind: KindRows, Result: res}, nil
}

// analyze answers ANALYZE TABLE as MySQL does, one status row per table
// (statistics are already current: every change recomputes them), after
// a note row per column it remapped (engine/remap.go).
func (db *DB) analyze(tables []string) *StatementResult {
	var names, ops, types, msgs []string
	// Plans are re-made after ANALYZE: the remaps it builds change GPU
	// plans (a cached plan would also see that, plan_cache.go), and a
	// user who runs it expects fresh choices.
	defer db.plans.clear()
	for _, t := range tables {
		// MySQL names each table with its database (test.t1).
		name := sql.DatabaseName + "." + t
		// Statistics are current already; the remaps are (re)built here,
		// one note row per remapped column.
		for _, n := range db.buildRemaps(t) {
			names, ops, types, msgs = append(names, name), append(ops, "analyze"), append(types, "note"), append(msgs, n.text)
		}
		names, ops, types, msgs = append(names, name), append(ops, "analyze"), append(types, "status"), append(msgs, "OK")
	}
	// The remaps are kept in a database directory too, so a restart does
	// not lose them (catalog/disk/remap_file.go).
	if err := db.Persist(); err != nil {
		names, ops, types, msgs = append(names, strings.Join(tables, ",")), append(ops, "analyze"), append(types, "error"), append(msgs, "remaps not saved: "+err.Error())
	}
	res := &exec.Result{
		Names:   []string{"Table", "Op", "Msg_type", "Msg_text"},
		Columns: []*columnar.Column{stringColumn(names), stringColumn(ops), stringColumn(types), stringColumn(msgs)},
		Rows:    len(names),
	}
	return &StatementResult{Kind: KindRows, Result: res}
}

// stringsResult is a one-column VARCHAR result.
func stringsResult(name string, vals []string) *exec.Result {
	return &exec.Result{Names: []string{name}, Columns: []*columnar.Column{stringColumn(vals)}, Rows: len(vals)}
}

// stringColumn dictionary-encodes vals in order.
func stringColumn(vals []string) *columnar.Column {
	c := columnar.NewColumn(columnar.TString, len(vals), false)
	c.Dict = columnar.BuildDictionary(vals)
	for i, v := range vals {
		code, _ := c.Dict.Lookup(v)
		c.I32[i] = code
	}
	return c
}

// nullableStringColumn is stringColumn with row i NULL where null[i].
func nullableStringColumn(vals []string, null []bool) *columnar.Column {
	c := stringColumn(vals)
	c.Valid = make([]uint64, (len(vals)+63)/64)
	for i, n := range null {
		if !n {
			c.Valid[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	return c
}

// showCreateTable writes a table's definition back as MySQL prints it:
// columns with their types and NOT NULL, then the keys, then the table
// options.
func (db *DB) showCreateTable(name string) (*StatementResult, error) {
	t, ok := db.cat.Table(name)
	if !ok {
		return nil, errNoTable(name)
	}
	opts := db.cat.Options(name)
	var lines []string
	for _, f := range t.Fields {
		lines = append(lines, fmt.Sprintf("  `%s` %s%s%s", f.Name, sql.SQLTypeName(f.Type), columnClauses(f, opts.Collation), commentClause(f)))
	}
	for _, ix := range db.cat.Indexes(name) {
		cols := make([]string, len(ix.Columns))
		for i, c := range ix.Columns {
			cols[i] = "`" + t.Fields[c].Name + "`" + prefixClause(ix, i) + descClause(ix, i)
		}
		var line string
		switch {
		case ix.Primary:
			line = fmt.Sprintf("  PRIMARY KEY (%s)", strings.Join(cols, ","))
		case ix.Unique:
			line = fmt.Sprintf("  UNIQUE KEY `%s` (%s)", ix.Name, strings.Join(cols, ","))
		default:
			line = fmt.Sprintf("  KEY `%s` (%s)", ix.Name, strings.Join(cols, ","))
		}
		lines = append(lines, line+indexCommentClause(ix))
	}
	lines = append(lines, foreignKeyLines(db.cat.ForeignKeys(name))...)
	lines = append(lines, checkLines(db.cat.Checks(name))...)
	ddl := fmt.Sprintf("CREATE TABLE `%s` (\n%s\n)", t.Name, strings.Join(lines, ",\n"))
	if next := db.autoIncrementNext(t); next > 1 {
		// MySQL shows the table option once the counter is past 1.
		ddl += fmt.Sprintf(" AUTO_INCREMENT=%d", next)
	}
	// MySQL ends with the table's engine and character set. ENGINE is left
	// out: gpusql's is not InnoDB, and ENGINE=gpusql is MySQL's 1286 under
	// its default sql_mode, so a dump read back by MySQL takes its default
	// engine. The collation is the one unnamed string columns compare by
	// (bytes, unless the table was given another), so the dump keeps
	// their comparisons in MySQL too; the table's COMMENT comes last.
	ddl += tableOptionsClause(opts)
	return &StatementResult{Kind: KindRows, Result: &exec.Result{
		Names:   []string{"Table", "Create Table"},
		Columns: []*columnar.Column{stringColumn([]string{t.Name}), stringColumn([]string{ddl})},
		Rows:    1,
	}}, nil
}

// commentClause is a column's COMMENT in SHOW CREATE TABLE and EXPORT
// DATABASE: last in the definition, as MySQL writes it.
// descClause is a DESC key part's mark in SHOW CREATE TABLE.
func descClause(ix catalog.Index, k int) string {
	if ix.Collation(k) == "D" {
		return " DESC"
	}
	return ""
}

// prefixClause is a key part's prefix length, (10) in KEY i (c(10)).
func prefixClause(ix catalog.Index, k int) string {
	if n := ix.Prefix(k); n > 0 {
		return fmt.Sprintf("(%d)", n)
	}
	return ""
}

// indexCommentClause is an index's COMMENT 'text', after its columns.
func indexCommentClause(ix catalog.Index) string {
	if ix.Comment == "" {
		return ""
	}
	return " COMMENT " + sql.QuoteComment(ix.Comment)
}

func commentClause(f columnar.Field) string {
	if f.Comment == "" {
		return ""
	}
	return " COMMENT " + sql.QuoteComment(f.Comment)
}

// columnClauses is the COLLATE, NOT NULL and DEFAULT part of a column in SHOW
// CREATE TABLE and EXPORT DATABASE, as MySQL 8 writes it: every default
// quoted as a string ("DEFAULT '5'"), which reads back as the same value
// in every column type but BIT, whose default is a bit literal (b'101');
// a nullable column without one is DEFAULT NULL but
// for TEXT and BLOB; a nullable TIMESTAMP says NULL.
//
// tableColl is the table's default collation ("": utf8mb4_bin): MySQL
// names a column's COLLATE only where it differs from the table's.
func columnClauses(f columnar.Field, tableColl string) string {
	s := ""
	switch c := sql.FieldCollation(f); {
	case tableColl == "" && f.Collation != "":
		s = " COLLATE " + f.Collation
	case tableColl != "" && c != "" && f.Collation != tableColl && c != sql.TableCollationName(tableColl):
		s = " COLLATE " + c
	}
	if f.Generated != "" {
		return s + generatedClause(f)
	}
	switch {
	case !f.Nullable:
		s += " NOT NULL"
	case f.Type.Timestamp:
		// MySQL spells out NULL for a TIMESTAMP, once NOT NULL by
		// default (store_create_info).
		s += " NULL"
	}
	switch {
	case sql.DefaultsToNow(f):
		s += " DEFAULT " + sql.NowText(f)
	case f.Type.Bit > 0 && f.HasDefault:
		b, _ := sql.BitDefault(f)
		s += " DEFAULT " + b
	case f.HasDefault && (isBlob(f.Type) || f.Type.JSON):
		// MySQL 8 refuses a literal default here (1101): only the
		// expression form it writes itself reads back.
		s += " DEFAULT (_utf8mb4'" + defaultQuoter.Replace(f.Default) + "')"
	case f.HasDefault:
		s += " DEFAULT '" + defaultQuoter.Replace(f.Default) + "'"
	case f.Nullable && !isBlob(f.Type):
		s += " DEFAULT NULL"
	}
	if f.OnUpdateNow {
		s += " ON UPDATE " + sql.NowText(f)
	}
	if f.AutoIncrement {
		s += " AUTO_INCREMENT"
	}
	return s
}

// isBlob reports whether t is a TEXT or BLOB type, which MySQL writes
// without DEFAULT NULL (JSON, though stored alike, gets it).
func isBlob(t columnar.Type) bool {
	return t.ID == columnar.String && t.Width <= 0 && !t.JSON && t.Members == ""
}

// columnExtra is DESCRIBE's and information_schema.COLUMNS' Extra.
func columnExtra(f columnar.Field) string { return sql.ColumnExtra(f) }

// defaultQuoter escapes a default for a quoted SQL string that the parser
// reads back as the same text (backslash is an escape in MySQL strings).
var defaultQuoter = strings.NewReplacer(`\`, `\\`, "'", "''")

// tableOptionsClause is the end of SHOW CREATE TABLE after the columns
// and AUTO_INCREMENT, as MySQL 8 writes it: the default character set and
// collation (gpusql's utf8mb4_bin where the table was given none), then
// COMMENT='...' where the table has one.
func tableOptionsClause(o catalog.TableOptions) string {
	s := " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	switch {
	case o.Collation == "binary":
		s = " DEFAULT CHARSET=binary"
	case o.Collation != "":
		s = " DEFAULT CHARSET=" + sql.TableCharset(o.Collation) + " COLLATE=" + sql.TableCollationName(o.Collation)
	}
	if o.Comment != "" {
		s += " COMMENT=" + sql.QuoteComment(o.Comment)
	}
	return s
}
