package driver

import (
	"context"
	"database/sql"
	"reflect"
	"testing"
)

// TestJSONValues: a JSON column scans as its normalized text (a string),
// its database type is JSON, and a string argument binds into it checked.
func TestJSONValues(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table d (id int, j json)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "insert into d values (1, ?)", `{"b": [1,2], "a": true}`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "insert into d values (2, ?)", `{"b": }`); err == nil {
		t.Error("invalid JSON bound into a JSON column was stored")
	}
	rows, err := db.QueryContext(ctx, "select j, j->>'$.b[1]' from d")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "JSON" || types[0].ScanType() != reflect.TypeOf("") {
		t.Errorf("type %s, scan type %v", types[0].DatabaseTypeName(), types[0].ScanType())
	}
	n := 0
	for rows.Next() {
		var j, b string
		if err := rows.Scan(&j, &b); err != nil {
			t.Fatal(err)
		}
		if j != `{"a": true, "b": [1, 2]}` || b != "2" {
			t.Errorf("row %q %q", j, b)
		}
		n++
	}
	if n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
}
