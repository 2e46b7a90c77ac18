package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// showTables lists the tables and views as a one-column result, in name
// order.
func (db *DB) showTables() *StatementResult {
	names := append(db.cat.Names(), db.cat.ViewNames()...)
	sort.Strings(names)
	return &StatementResult{Kind: KindRows, Result: stringsResult("table", names)}
}

// describe lists a table's columns as MySQL's DESCRIBE does (Field, Type,
// Null).
func (db *DB) describe(name string) (*StatementResult, error) {
	t, ok := db.cat.Table(name)
	if !ok {
		return nil, errNoTable(name)
	}
	var names, types, nulls []string
	for _, f := range t.Fields {
		names = append(names, f.Name)
		types = append(types, f.Type.String())
		if f.Nullable {
			nulls = append(nulls, "YES")
		} else {
			nulls = append(nulls, "NO")
		}
	}
	res := &exec.Result{
		Names:   []string{"Field", "Type", "Null"},
		Columns: []*columnar.Column{stringColumn(names), stringColumn(types), stringColumn(nulls)},
		Rows:    len(names),
	}
	return &StatementResult{Kind: KindRows, Result: res}, nil
}

// showIndex lists a table's indexes as MySQL's SHOW INDEX does, one row
// per key column (its first columns: Table, Non_unique, Key_name,
// Seq_in_index, Column_name, and Null).
func (db *DB) showIndex(name string) (*StatementResult, error) {
	t, ok := db.cat.Table(name)
	if !ok {
		return nil, errNoTable(name)
	}
	var tables, nonUnique, keys, seq, cols, nulls []string
	for _, ix := range db.cat.Indexes(name) {
		for k, c := range ix.Columns {
			tables = append(tables, t.Name)
			nonUnique = append(nonUnique, map[bool]string{true: "0", false: "1"}[ix.Unique])
			keys = append(keys, ix.Name)
			seq = append(seq, strconv.Itoa(k+1))
			cols = append(cols, t.Fields[c].Name)
			nulls = append(nulls, map[bool]string{true: "YES", false: ""}[t.Fields[c].Nullable])
		}
	}
	res := &exec.Result{
		Names: []string{"Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Null"},
		Columns: []*columnar.Column{stringColumn(tables), stringColumn(nonUnique), stringColumn(keys),
			stringColumn(seq), stringColumn(cols), stringColumn(nulls)},
		Rows: len(tables),
	}
	return &StatementResult{Kind: KindRows, Result: res}, nil
}

// analyze answers ANALYZE TABLE as MySQL does, one status row per table
// (statistics are already current: every change recomputes them).
func (db *DB) analyze(tables []string) *StatementResult {
	var ops, types, msgs []string
	for range tables {
		ops, types, msgs = append(ops, "analyze"), append(types, "status"), append(msgs, "OK")
	}
	res := &exec.Result{
		Names:   []string{"Table", "Op", "Msg_type", "Msg_text"},
		Columns: []*columnar.Column{stringColumn(tables), stringColumn(ops), stringColumn(types), stringColumn(msgs)},
		Rows:    len(tables),
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

// showCreateTable writes a table's definition back as MySQL prints it:
// columns with their types and NOT NULL, then the keys.
func (db *DB) showCreateTable(name string) (*StatementResult, error) {
	t, ok := db.cat.Table(name)
	if !ok {
		return nil, errNoTable(name)
	}
	var lines []string
	for _, f := range t.Fields {
		null := " DEFAULT NULL"
		if !f.Nullable {
			null = " NOT NULL"
		}
		lines = append(lines, fmt.Sprintf("  `%s` %s%s", f.Name, strings.ToLower(f.Type.String()), null))
	}
	for _, ix := range db.cat.Indexes(name) {
		cols := make([]string, len(ix.Columns))
		for i, c := range ix.Columns {
			cols[i] = "`" + t.Fields[c].Name + "`"
		}
		switch {
		case ix.Primary:
			lines = append(lines, fmt.Sprintf("  PRIMARY KEY (%s)", strings.Join(cols, ",")))
		case ix.Unique:
			lines = append(lines, fmt.Sprintf("  UNIQUE KEY `%s` (%s)", ix.Name, strings.Join(cols, ",")))
		default:
			lines = append(lines, fmt.Sprintf("  KEY `%s` (%s)", ix.Name, strings.Join(cols, ",")))
		}
	}
	ddl := fmt.Sprintf("CREATE TABLE `%s` (\n%s\n)", t.Name, strings.Join(lines, ",\n"))
	return &StatementResult{Kind: KindRows, Result: &exec.Result{
		Names:   []string{"Table", "Create Table"},
		Columns: []*columnar.Column{stringColumn([]string{t.Name}), stringColumn([]string{ddl})},
		Rows:    1,
	}}, nil
}
