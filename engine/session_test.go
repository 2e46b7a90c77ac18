package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/sql"
)

// TestSessionVariables: a session connection's SET changes its own
// variables only; connect-time variables read their one value and accept
// it back.
func TestSessionVariables(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, b := db.SessionConn(SessionOptions{}), db.SessionConn(SessionOptions{})
	for _, q := range []string{
		"set sql_mode = 'ONLY_FULL_GROUP_BY'", "set names utf8mb4", "set autocommit = 1",
		"set character_set_results = NULL", "set net_write_timeout = 600", "set memory_limit = '1GB'",
	} {
		if _, err := a.Exec(ctx, q, ""); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if got := a.Session().SQLMode(); got != "ONLY_FULL_GROUP_BY" {
		t.Errorf("a's sql_mode = %q", got)
	}
	if got := b.Session().SQLMode(); got != sql.DefaultSQLMode {
		t.Errorf("b's sql_mode = %q: SET on a leaked", got)
	}
	if db.MemoryLimit() == 1<<30 {
		t.Errorf("SET memory_limit on a session changed the database's limit")
	}
	if _, err := a.Exec(ctx, "set autocommit = 0", ""); err != nil || a.Autocommit() || !b.Autocommit() {
		t.Errorf("SET autocommit = 0 on a: %v; a's autocommit %v, b's %v (want false, true)", err, a.Autocommit(), b.Autocommit())
	}
	res, err := b.Exec(ctx, "show variables like 'max_allowed%'", "")
	if err != nil || res[0].Result.Rows != 1 || res[0].Result.Row(0)[1] != "67108864" {
		t.Errorf("SHOW VARIABLES LIKE: %v %v", res, err)
	}
}

// TestSessionRights: a read-only session reads and is refused writes.
func TestSessionRights(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := db.Exec(ctx, "create table t (x int); insert into t values (1); create user 'r' identified by 'p'; grant select on *.* to 'r'", ""); err != nil {
		t.Fatal(err)
	}
	if u, ok := db.User("r"); !ok || !u.Read || u.Write || u.Password != "p" {
		t.Fatalf("user r = %+v, %v", u, ok)
	}
	ro := db.SessionConn(SessionOptions{User: "r", ReadOnly: true})
	if _, err := ro.Exec(ctx, "select * from t", ""); err != nil {
		t.Fatal(err)
	}
	// Transactions and savepoints change nothing by themselves.
	if _, err := ro.Exec(ctx, "set autocommit = 0; savepoint a; select * from t; rollback to a; release savepoint a; commit; set autocommit = 1", ""); err != nil {
		t.Errorf("transaction statements in a read-only session: %v", err)
	}
	var pe *PrivilegeError
	for _, q := range []string{"insert into t values (2)", "drop table t", "create user 'x'", "delete from t"} {
		if _, err := ro.Exec(ctx, q, ""); !errors.As(err, &pe) {
			t.Errorf("%s in a read-only session: %v, want a PrivilegeError", q, err)
		}
	}
	var ue *UserError
	if _, err := db.Exec(ctx, "create user 'r'", ""); !errors.As(err, &ue) {
		t.Errorf("CREATE USER of an existing user: %v", err)
	}
	if _, err := db.Exec(ctx, "drop user 'r'", ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.User("r"); ok {
		t.Error("DROP USER left the user")
	}
}

// TestFileRoot: under a file root, LOAD DATA reads inside it and refuses
// '..' and symbolic links that leave it.
func TestFileRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "in.csv"), []byte("1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "out.csv"), []byte("3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "out.csv"), filepath.Join(root, "link.csv")); err != nil {
		t.Fatal(err)
	}
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := db.SessionConn(SessionOptions{FileRoot: root})
	if _, err := c.Exec(ctx, "create table t (x int); load data infile 'in.csv' into table t", ""); err != nil {
		t.Fatal(err)
	}
	var fe *FileRootError
	for _, p := range []string{"../" + filepath.Base(outside) + "/out.csv", filepath.Join(outside, "out.csv"), "link.csv"} {
		if _, err := c.Exec(ctx, "load data infile '"+p+"' into table t", ""); !errors.As(err, &fe) {
			t.Errorf("LOAD DATA %s: %v, want a FileRootError", p, err)
		}
	}
}

// TestInformationSchema: TABLES and COLUMNS describe the catalog as MySQL
// names things, with nothing in it too.
func TestInformationSchema(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := db.Exec(ctx, "select count(*) from information_schema.tables", "")
	if err != nil || res[0].Result.Row(0)[0] != "0" {
		t.Fatalf("empty catalog: %v %v", res, err)
	}
	res, err = db.Exec(ctx, `create table t (id int not null, price decimal(10,2), name varchar(20));
		create view v as select name from t;
		select table_name, table_type from information_schema.tables order by table_name;
		select column_type from information_schema.columns where table_schema = 'gpusql' order by table_name, ordinal_position`, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res[2:] {
		for i := 0; i < r.Result.Rows; i++ {
			got = append(got, strings.Join(r.Result.Row(i), " "))
		}
	}
	want := "t BASE TABLE|v VIEW|int|decimal(10,2)|varchar(20)|varchar(20)"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q\nwant %q", strings.Join(got, "|"), want)
	}
}

// TestShowCreateTable: the definition SHOW CREATE TABLE prints creates the
// same table again.
func TestShowCreateTable(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	show := func() string {
		t.Helper()
		res, err := db.Exec(ctx, "show create table t", "")
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Result.Row(0)[1]
	}
	if _, err := db.Exec(ctx, `create table t (id int primary key, name varchar(20) not null default 'it''s a\\b', p decimal(10,2) default -1.5, d date default '2024-02-29', f double default 1e300, unique key u (name)); create index k on t (p, d)`, ""); err != nil {
		t.Fatal(err)
	}
	ddl := show()
	if _, err := db.Exec(ctx, "drop table t; "+ddl, ""); err != nil {
		t.Fatalf("re-running %s: %v", ddl, err)
	}
	if again := show(); again != ddl {
		t.Errorf("after a round trip:\n%s\nwas\n%s", again, ddl)
	}
}
