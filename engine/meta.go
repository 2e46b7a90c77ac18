package engine

import (
	"gpusql/exec"
	"gpusql/storage/columnar"
)

// showTables lists the tables as a one-column result.
func (db *DB) showTables() *StatementResult {
	return &StatementResult{Kind: KindRows, Result: stringsResult("table", db.cat.Names())}
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
