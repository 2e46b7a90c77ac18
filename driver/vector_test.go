package driver

import (
	"context"
	"database/sql"
	"testing"
)

// A database/sql client stores vectors as their text form through
// parameters and reads them back, and distances, as Go values.
func TestDriverVectors(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table e (id int, v vector(3))"); err != nil {
		t.Fatal(err)
	}
	for i, v := range []string{"[1,2,3]", "[3,0,4]", "[0.5, 0.5, 0.5]"} {
		if _, err := db.ExecContext(ctx, "insert into e values (?, ?)", int64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	var id int64
	var v string
	var d float64
	err = db.QueryRowContext(ctx, "select id, v, vec_l2_distance(v, ?) as d from e order by d limit 1", "[3,0,3]").Scan(&id, &v, &d)
	if err != nil || id != 1 || v != "[3,0,4]" || d != 1 {
		t.Errorf("nearest = %d %q %v (%v), want 1 [3,0,4] 1", id, v, d, err)
	}
	rows, err := db.QueryContext(ctx, "select v from e order by id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ct, _ := rows.ColumnTypes()
	if name := ct[0].DatabaseTypeName(); name != "VECTOR" {
		t.Errorf("DatabaseTypeName = %q, want VECTOR", name)
	}
	var got []string
	for rows.Next() {
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if len(got) != 3 || got[2] != "[0.5,0.5,0.5]" {
		t.Errorf("vectors read back as %q", got)
	}
	if _, err := db.ExecContext(ctx, "insert into e values (9, ?)", "[1,2]"); err == nil {
		t.Error("a 2-element vector went into VECTOR(3)")
	}
}
