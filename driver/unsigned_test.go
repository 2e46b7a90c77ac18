package driver

import (
	"context"
	"database/sql"
	"reflect"
	"testing"
)

// TestUnsignedValues: BIGINT UNSIGNED values past 2^63-1 scan as uint64
// (not a negative int64), the scan type says so, and a negative value
// bound into an unsigned column is MySQL's out-of-range error.
func TestUnsignedValues(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table u (id int, b bigint unsigned)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "insert into u values (1, 18446744073709551615), (2, ~0 >> 1), (3, NULL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "insert into u values (4, ?)", -1); err == nil {
		t.Error("-1 was stored into a BIGINT UNSIGNED column")
	}
	var id int
	if err := db.QueryRowContext(ctx, "select id from u where b = ?", uint64(18446744073709551615)).Scan(&id); err != nil || id != 1 {
		t.Errorf("uint64 argument: id %d, %v", id, err)
	}
	rows, err := db.QueryContext(ctx, "select b from u order by id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "BIGINT UNSIGNED" || types[0].ScanType() != reflect.TypeOf(uint64(0)) {
		t.Errorf("type %s, scan type %v", types[0].DatabaseTypeName(), types[0].ScanType())
	}
	var got []any
	for rows.Next() {
		var b sql.Null[uint64]
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		if b.Valid {
			got = append(got, b.V)
		} else {
			got = append(got, nil)
		}
	}
	want := []any{uint64(18446744073709551615), uint64(9223372036854775807), nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("values %v, want %v", got, want)
	}
}
