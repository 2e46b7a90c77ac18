package driver

import (
	"context"
	"database/sql"
	"testing"
)

// TestColumnNullable: ColumnType.Nullable is false for the columns MySQL
// sends with NOT_NULL_FLAG (a constant, a NOT NULL column, COUNT(*)) and
// true for those that may be NULL, as go-sql-driver reports them.
func TestColumnNullable(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table nn (a int not null, b int); insert into nn values (1, null)"); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, "select 1, a, b, count(*), sum(a) from nn group by a, b")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	want := []bool{false, false, true, false, true}
	for i, ct := range types {
		if n, ok := ct.Nullable(); !ok || n != want[i] {
			t.Errorf("column %d (%s): nullable %v (known %v), want %v", i, ct.Name(), n, ok, want[i])
		}
	}
}

// TestColumnTypeBlob: a table's TEXT and BLOB columns are named TEXT and
// BLOB, as go-sql-driver names them from MySQL's column definitions; a
// computed string stays VARCHAR.
func TestColumnTypeBlob(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table lob (t text, b blob); insert into lob values ('x', 'y')"); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, "select t, b, concat(t, 'z') from lob")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	for i, want := range []string{"TEXT", "BLOB", "VARCHAR"} {
		if got := types[i].DatabaseTypeName(); got != want {
			t.Errorf("column %d: %s, want %s", i, got, want)
		}
	}
}
