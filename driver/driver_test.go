package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParseDSN(t *testing.T) {
	cfg, err := ParseDSN("executor=cpu;check=false&data=/x/schema.sql;join=merge")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Options.Executor != "cpu" || cfg.Data != "/x/schema.sql" || cfg.Options.Join != "merge" {
		t.Errorf("parsed %+v", cfg)
	}
	for _, bad := range []string{"executor", "color=red", "check=maybe"} {
		if _, err := ParseDSN(bad); err == nil {
			t.Errorf("ParseDSN(%q) accepted", bad)
		}
	}
}

func TestBind(t *testing.T) {
	day := time.Date(1995, 3, 15, 0, 0, 0, 0, time.UTC)
	got, err := bind("select '?', ?, ?, ?, ?, ? -- ?\n, ?", []driver.NamedValue{
		{Value: int64(3)}, {Value: "it's"}, {Value: nil}, {Value: day}, {Value: 1.5}})
	if err == nil {
		t.Fatalf("bind with too few arguments gave %q", got)
	}
	got, err = bind("select '?', ?, ?, ?, ?, ? -- ?", []driver.NamedValue{
		{Value: int64(3)}, {Value: "it's"}, {Value: nil}, {Value: day}, {Value: 1.5}})
	if err != nil {
		t.Fatal(err)
	}
	want := "select '?', 3, 'it''s', NULL, DATE '1995-03-15', 1.5e+00 -- ?"
	if got != want {
		t.Errorf("bind = %q, want %q", got, want)
	}
}

func TestDriver(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.tbl"), []byte("1|one|1995-03-15|1.50|\n2|two|1996-01-01|2.25|\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "schema.sql"), []byte(
		"create table t (id int, name varchar(5), day date, price decimal(6,2));\n"+
			"load data infile 't.tbl' into table t fields terminated by '|';\n"), 0o644)
	db, err := sql.Open("gpusql", "executor=cpu;data="+filepath.Join(dir, "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()

	res, err := db.ExecContext(ctx, "insert into t values (?, ?, ?, ?); insert into t values (4, NULL, NULL, NULL)",
		int64(3), "three", time.Date(1997, 7, 7, 0, 0, 0, 0, time.UTC), "3.75")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Errorf("RowsAffected = %d, want 2", n)
	}

	// Another connection sees the same tables.
	c1, _ := db.Conn(ctx)
	c2, _ := db.Conn(ctx)
	defer c1.Close()
	defer c2.Close()
	if _, err := c1.ExecContext(ctx, "create table u (x bigint)"); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.ExecContext(ctx, "insert into u values (9000000000)"); err != nil {
		t.Fatal(err)
	}
	var big int64
	if err := db.QueryRowContext(ctx, "select x from u").Scan(&big); err != nil || big != 9000000000 {
		t.Errorf("bigint %d, %v", big, err)
	}

	rows, err := db.QueryContext(ctx, "select id, name, day, price, price * 2 > 4 from t where id >= ? order by id", 2)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "INT" || types[3].DatabaseTypeName() != "DECIMAL" {
		t.Errorf("types %s %s", types[0].DatabaseTypeName(), types[3].DatabaseTypeName())
	}
	type row struct {
		id    int32
		name  sql.NullString
		day   sql.NullTime
		price sql.NullString
		big   sql.NullBool
	}
	var got []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.name, &r.day, &r.price, &r.big); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d rows, want 3", len(got))
	}
	if got[0].id != 2 || got[0].name.String != "two" || !got[0].day.Time.Equal(time.Date(1996, 1, 1, 0, 0, 0, 0, time.UTC)) || got[0].price.String != "2.25" || !got[0].big.Bool {
		t.Errorf("row 1: %+v", got[0])
	}
	if got[1].price.String != "3.75" || got[1].name.String != "three" {
		t.Errorf("row 2: %+v", got[1])
	}
	if got[2].name.Valid || got[2].day.Valid || got[2].price.Valid {
		t.Errorf("row 3 should be NULLs: %+v", got[2])
	}

	var f float64
	if err := db.QueryRowContext(ctx, "select price from t where id = 1").Scan(&f); err != nil || f != 1.5 {
		t.Errorf("decimal into float64: %v, %v", f, err)
	}
	if _, err := db.ExecContext(ctx, "select nosuch from t"); err == nil {
		t.Error("bad query succeeded")
	}
}
