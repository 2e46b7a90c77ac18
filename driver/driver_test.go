package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
	if cfg, err := ParseDSN("plan_cache=OFF"); err != nil || cfg.Options.PlanCache != "off" {
		t.Errorf("plan_cache=OFF: %+v, %v", cfg.Options, err)
	}
	if cfg, err := ParseDSN("packing=Off"); err != nil || cfg.Options.Packing != "off" {
		t.Errorf("packing=Off: %+v, %v", cfg.Options, err)
	}
	for _, bad := range []string{"executor", "color=red", "check=maybe", "plan_cache=sometimes", "packing=half"} {
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

func TestBindSkipsQuotesAndComments(t *testing.T) {
	args := []driver.NamedValue{{Value: int64(1)}, {Value: "x"}}
	for _, c := range []struct{ in, want string }{
		{"select ?, ? # what?\n", "select 1, 'x' # what?\n"},
		{"select /* a ? here */ ?, ?", "select /* a ? here */ 1, 'x'"},
		{"select ?, `c?` , ? -- ?", "select 1, `c?` , 'x' -- ?"},
		{"select 'it''s ?', \"?\", ?, 'a\\'?', ?", "select 'it''s ?', \"?\", 1, 'a\\'?', 'x'"},
		{"select ?--?", "select 1--'x'"}, // --? is not a comment
		{"select ?--?--?", ""},           // so this has 3 placeholders
		{"select ?, ?--\t?", "select 1, 'x'--\t?"},
		{"select ?, ? /* unterminated ?", "select 1, 'x' /* unterminated ?"},
	} {
		got, err := bind(c.in, args)
		if c.want == "" {
			if err == nil {
				t.Errorf("bind(%q) = %q, want a count error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("bind(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestTransactions(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	count := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) int {
		t.Helper()
		var n int
		if err := q.QueryRowContext(ctx, "select count(*) from t").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := db.ExecContext(ctx, "create table t (x int); insert into t values (1)"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "insert into t values (?)", int64(2)); err != nil {
		t.Fatal(err)
	}
	if n := count(tx); n != 2 {
		t.Errorf("inside the transaction: %d rows, want 2", n)
	}
	if n := count(db); n != 1 {
		t.Errorf("another connection sees uncommitted rows: %d, want 1", n)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if n := count(db); n != 1 {
		t.Errorf("after rollback: %d rows, want 1", n)
	}

	tx, _ = db.BeginTx(ctx, nil)
	tx.ExecContext(ctx, "insert into t values (3)")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := count(db); n != 2 {
		t.Errorf("after commit: %d rows, want 2", n)
	}

	// Two transactions change t: the second commit conflicts.
	t1, _ := db.BeginTx(ctx, nil)
	t2, _ := db.BeginTx(ctx, nil)
	t1.ExecContext(ctx, "insert into t values (4)")
	t2.ExecContext(ctx, "insert into t values (5)")
	if err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := t2.Commit(); err == nil || !strings.Contains(err.Error(), "conflict") {
		t.Errorf("second commit: %v, want a conflict", err)
	}
	if n := count(db); n != 3 {
		t.Errorf("after the conflict: %d rows, want 3", n)
	}

	ro, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ro.ExecContext(ctx, "insert into t values (6)"); err == nil {
		t.Error("insert in a read-only transaction succeeded")
	}
	ro.Rollback()
	if _, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable}); err == nil {
		t.Error("SERIALIZABLE accepted")
	}
}

// db=PATH opens a database directory; closing the sql.DB releases it.
func TestDSNDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.gpusql")
	db, err := sql.Open("gpusql", "executor=cpu;db="+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (a INT, s VARCHAR(4))"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (?, ?), (?, ?)", 1, "x", 2, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := sql.Open("gpusql", "executor=cpu;db="+path); err == nil {
		t.Fatal("a second sql.DB opened a database the first holds")
	} else if !strings.Contains(err.Error(), "is locked by process") {
		t.Errorf("second open: %v", err)
	}
	db.Close()
	db, err = sql.Open("gpusql", "executor=cpu;db="+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n, sum int
	if err := db.QueryRow("SELECT count(*), sum(a) FROM t").Scan(&n, &sum); err != nil || n != 2 || sum != 3 {
		t.Errorf("after reopen: %d rows, sum %d, %v", n, sum, err)
	}
}

// Connections writing at once to a database directory: every statement
// that returned is on disk after reopening.
func TestDSNDatabaseConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.gpusql")
	db, err := sql.Open("gpusql", "executor=cpu;db="+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range []string{"a", "b", "c"} {
		if _, err := db.Exec("CREATE TABLE " + tb + " (v INT)"); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, 3)
	for _, tb := range []string{"a", "b", "c"} {
		go func() {
			for i := 1; i <= 20; i++ {
				if _, err := db.Exec("INSERT INTO "+tb+" VALUES (?)", i); err != nil {
					errs <- err
					return
				}
				var n int
				if err := db.QueryRow("SELECT count(*) FROM " + tb).Scan(&n); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db, err = sql.Open("gpusql", "executor=cpu;db="+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tb := range []string{"a", "b", "c"} {
		var n, sum int
		if err := db.QueryRow("SELECT count(*), sum(v) FROM "+tb).Scan(&n, &sum); err != nil || n != 20 || sum != 210 {
			t.Errorf("%s after reopen: %d rows, sum %d, %v", tb, n, sum, err)
		}
	}
}

// TestDatetimeValues: DATETIME and TIMESTAMP columns scan as time.Time in
// UTC, and a time.Time argument with a time of day binds as a TIMESTAMP
// literal to the microsecond.
func TestDatetimeValues(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table e (id int, at datetime(6), ts timestamp)"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.FixedZone("x", 3600))
	if _, err := db.ExecContext(ctx, "insert into e values (1, ?, ?), (2, NULL, '2024-01-05 10:20:30')", at, at); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, "select at, ts from e order by id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "DATETIME" || types[1].DatabaseTypeName() != "TIMESTAMP" ||
		types[0].ScanType() != reflect.TypeOf(time.Time{}) {
		t.Errorf("types %s %s %v", types[0].DatabaseTypeName(), types[1].DatabaseTypeName(), types[0].ScanType())
	}
	var got []string
	for rows.Next() {
		var a, b sql.NullTime
		if err := rows.Scan(&a, &b); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(a.Valid, " ", a.Time.Format(time.RFC3339Nano), " ", b.Time.Format(time.RFC3339Nano)))
	}
	// The +01:00 instant is stored as its UTC wall-clock time; TIMESTAMP
	// (fsp 0) rounds the fraction.
	want := "true 2024-02-29T12:14:15.123456Z 2024-02-29T12:14:15Z|false 0001-01-01T00:00:00Z 2024-01-05T10:20:30Z"
	if strings.Join(got, "|") != want {
		t.Errorf("rows %q\nwant %q", strings.Join(got, "|"), want)
	}
}

// TestAutocommitAndSavepoints: SET autocommit = 0 on one connection keeps
// its changes private until COMMIT; savepoints work inside a transaction.
func TestAutocommitAndSavepoints(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	count := func() (mine, others int) {
		t.Helper()
		if err := conn.QueryRowContext(ctx, "select count(*) from t").Scan(&mine); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRowContext(ctx, "select count(*) from t").Scan(&others); err != nil {
			t.Fatal(err)
		}
		return mine, others
	}
	exec("create table t (x int)")
	exec("set autocommit = 0")
	var ac int
	if err := conn.QueryRowContext(ctx, "select @@autocommit").Scan(&ac); err != nil || ac != 0 {
		t.Errorf("@@autocommit = %d, %v; want 0", ac, err)
	}
	exec("insert into t values (1)")
	if m, o := count(); m != 1 || o != 0 {
		t.Errorf("before COMMIT: this connection sees %d rows, another %d; want 1 0", m, o)
	}
	exec("savepoint s")
	exec("insert into t values (2)")
	exec("rollback to savepoint s")
	exec("commit")
	if m, o := count(); m != 1 || o != 1 {
		t.Errorf("after ROLLBACK TO and COMMIT: %d and %d rows; want 1 1", m, o)
	}
	if _, err := conn.ExecContext(ctx, "release savepoint s"); err == nil || !strings.Contains(err.Error(), "SAVEPOINT s does not exist") {
		t.Errorf("RELEASE after COMMIT: %v", err)
	}
	// BeginTx under autocommit = 0 commits the implicit transaction (the
	// RELEASE above opened none; this INSERT does).
	exec("insert into t values (3)")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatalf("BeginTx under autocommit = 0: %v", err)
	}
	if _, err := tx.ExecContext(ctx, "insert into t values (4)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if m, o := count(); m != 2 || o != 2 {
		t.Errorf("after BeginTx committed the implicit transaction and rolled back its own: %d and %d rows; want 2 2", m, o)
	}
}

// TestTimeYearValues: a TIME column scans as its text '[-]HH:MM:SS[.f]'
// (as MySQL drivers hand TIME over), a YEAR as its number; a string
// argument binds into either by MySQL's rules.
func TestTimeYearValues(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table e (id int, t time(1), y year)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "insert into e values (1, ?, ?), (2, NULL, ?)", "-34:00:00.25", "69", int64(0)); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, "select t, y from e order by id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "TIME" || types[1].DatabaseTypeName() != "YEAR" {
		t.Errorf("types %s %s", types[0].DatabaseTypeName(), types[1].DatabaseTypeName())
	}
	var got []string
	for rows.Next() {
		var tm sql.NullString
		var y int64
		if err := rows.Scan(&tm, &y); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(tm.Valid, " ", tm.String, " ", y))
	}
	if want := "true -34:00:00.3 2069|false  0"; strings.Join(got, "|") != want {
		t.Errorf("rows %q\nwant %q", strings.Join(got, "|"), want)
	}
}
