package engine

import (
	"gpusql/exec"
	"gpusql/storage/columnar"
)

// showIndex lists a table's indexes as MySQL 8's SHOW INDEX does, one row
// per key column with its 15 columns, in the catalog's key order (PRIMARY,
// unique, plain: catalog.sortIndexes). The values are what InnoDB shows
// for gpusql's keys, as information_schema.STATISTICS gives them: every
// key a BTREE in ascending order (Collation A), visible, over whole
// columns (Sub_part NULL) unless written with a prefix length (KEY
// (c(10)): Sub_part 10) and not packed; Cardinality, an estimate in
// MySQL, is the table's rows.
func (db *DB) showIndex(name string) (*StatementResult, error) {
	t, ok := db.cat.Table(name)
	if !ok {
		return nil, errNoTable(name)
	}
	var tables, keys, cols, nulls, comments, order []string
	var nonUnique, seq, subPart []int64
	for _, ix := range db.cat.Indexes(name) {
		for k, c := range ix.Columns {
			tables, keys, cols = append(tables, t.Name), append(keys, ix.Name), append(cols, t.Fields[c].Name)
			nonUnique = append(nonUnique, map[bool]int64{true: 0, false: 1}[ix.Unique])
			seq = append(seq, int64(k+1))
			nulls = append(nulls, map[bool]string{true: "YES", false: ""}[t.Fields[c].Nullable])
			comments = append(comments, ix.Comment)
			order = append(order, ix.Collation(k))
			subPart = append(subPart, int64(ix.Prefix(k)))
		}
	}
	n := len(tables)
	card := make([]int64, n)
	for i := range card {
		card[i] = int64(t.Rows)
	}
	same := func(v string) *columnar.Column {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = v
		}
		return stringColumn(vals)
	}
	res := &exec.Result{
		Names: []string{"Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation", "Cardinality",
			"Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible", "Expression"},
		Columns: []*columnar.Column{stringColumn(tables), int64Column(nonUnique), stringColumn(keys), int64Column(seq),
			stringColumn(cols), stringColumn(order), int64Column(card), subPartColumn(subPart), nullColumn(columnar.TString, n),
			stringColumn(nulls), same("BTREE"), same(""), stringColumn(comments), same("YES"), nullColumn(columnar.TString, n)},
		Rows: n,
	}
	return &StatementResult{Kind: KindRows, Result: res}, nil
}

// int64Column is a BIGINT column of vals.
func int64Column(vals []int64) *columnar.Column {
	c := columnar.NewColumn(columnar.TInt64, len(vals), false)
	copy(c.I64, vals)
	return c
}

// subPartColumn is SHOW INDEX's Sub_part: the prefix lengths, NULL for
// a whole column (0).
func subPartColumn(vals []int64) *columnar.Column {
	c := columnar.NewColumn(columnar.TInt64, len(vals), true)
	for i, v := range vals {
		if c.I64[i] = v; v > 0 { // the bitmap starts all NULL
			c.SetValid(i)
		}
	}
	return c
}

// nullColumn is n NULLs of type t.
func nullColumn(t columnar.Type, n int) *columnar.Column {
	c := columnar.NewColumn(t, n, true)
	for i := range n {
		c.SetNull(i)
	}
	if t.ID == columnar.String {
		c.Dict = columnar.BuildDictionary(nil)
	}
	return c
}
