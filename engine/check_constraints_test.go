package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// showCreate is SHOW CREATE TABLE's text for a table.
func showCreate(t *testing.T, db *DB, table string) string {
	t.Helper()
	rs := mustRun(t, db, "SHOW CREATE TABLE "+table)
	return rs[0].Result.Row(0)[1]
}

func TestCheckConstraintsShowCreateAndReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE c (a INT CHECK (a > 0), b INT, s VARCHAR(5),
		CONSTRAINT b_pos CHECK (b >= 0) NOT ENFORCED, CHECK (a + b < 100 AND s <> 'x'))`)
	want := "CREATE TABLE `c` (\n" +
		"  `a` int DEFAULT NULL,\n" +
		"  `b` int DEFAULT NULL,\n" +
		"  `s` varchar(5) DEFAULT NULL,\n" +
		"  CONSTRAINT `b_pos` CHECK ((`b` >= 0)) /*!80016 NOT ENFORCED */,\n" +
		"  CONSTRAINT `c_chk_1` CHECK ((`a` > 0)),\n" +
		"  CONSTRAINT `c_chk_2` CHECK ((((`a` + `b`) < 100) and (`s` <> _utf8mb4'x')))\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	if got := showCreate(t, db, "c"); got != want {
		t.Fatalf("SHOW CREATE TABLE:\n%s\nwant\n%s", got, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := showCreate(t, db, "c"); got != want {
		t.Fatalf("SHOW CREATE TABLE after reopening:\n%s\nwant\n%s", got, want)
	}
	ctx := context.Background()
	if _, err := db.Exec(ctx, "INSERT INTO c VALUES (1, 2, 'y'), (0, 1, 'y')", ""); err == nil || !strings.Contains(err.Error(), "Check constraint 'c_chk_1' is violated.") {
		t.Fatalf("reopened database: insert of a = 0 gave %v, want c_chk_1 violated", err)
	}
	mustRun(t, db, "INSERT INTO c VALUES (1, -2, 'y')") // b_pos is not enforced
	if got := tableText(t, db, "SELECT a, b, s FROM c"); got != "1|-2|y" {
		t.Fatalf("rows %q, want 1|-2|y", got)
	}
}

// LOAD DATA and statements inside a transaction are checked as INSERT is;
// a failing LOAD stores none of the file's rows.
func TestCheckConstraintsLoadAndTransaction(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.csv"), filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(good, []byte("1,a\n2,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("3,c\n-4,d\n5,e\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, "CREATE TABLE l (n INT, s VARCHAR(3), CONSTRAINT n_pos CHECK (n > 0))")
	mustRun(t, db, "LOAD DATA INFILE '"+good+"' INTO TABLE l FIELDS TERMINATED BY ','")
	if _, err := db.Exec(ctx, "LOAD DATA INFILE '"+bad+"' INTO TABLE l FIELDS TERMINATED BY ','", ""); err == nil || !strings.Contains(err.Error(), "Check constraint 'n_pos' is violated.") {
		t.Fatalf("LOAD DATA of a row breaking n_pos gave %v", err)
	}
	if got := tableText(t, db, "SELECT n, s FROM l ORDER BY n"); got != "1|a;2|b" {
		t.Fatalf("rows after the failed LOAD %q, want 1|a;2|b", got)
	}
	conn := db.Conn()
	defer conn.Close()
	run := func(q string) error { _, err := conn.Exec(ctx, q, ""); return err }
	if err := run("BEGIN"); err != nil {
		t.Fatal(err)
	}
	if err := run("INSERT INTO l VALUES (7, 'g')"); err != nil {
		t.Fatal(err)
	}
	if err := run("UPDATE l SET n = -n WHERE n = 7"); err == nil || !strings.Contains(err.Error(), "n_pos") {
		t.Fatalf("UPDATE in a transaction breaking n_pos gave %v", err)
	}
	if err := run("COMMIT"); err != nil {
		t.Fatal(err)
	}
	if got := tableText(t, db, "SELECT n, s FROM l ORDER BY n"); got != "1|a;2|b;7|g" {
		t.Fatalf("rows after the transaction %q, want 1|a;2|b;7|g", got)
	}
}

// Generated columns keep their definition and go on being computed after
// the database is reopened.
func TestGeneratedColumnsReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE g (a INT, b INT AS (a * 2) STORED NOT NULL, s VARCHAR(5) AS (CONCAT('n', a)))")
	mustRun(t, db, "INSERT INTO g (a) VALUES (1), (2)")
	want := "CREATE TABLE `g` (\n" +
		"  `a` int DEFAULT NULL,\n" +
		"  `b` int GENERATED ALWAYS AS ((`a` * 2)) STORED NOT NULL,\n" +
		"  `s` varchar(5) GENERATED ALWAYS AS (concat(_utf8mb4'n',`a`)) VIRTUAL\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	if got := showCreate(t, db, "g"); got != want {
		t.Fatalf("SHOW CREATE TABLE:\n%s\nwant\n%s", got, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := showCreate(t, db, "g"); got != want {
		t.Fatalf("SHOW CREATE TABLE after reopening:\n%s\nwant\n%s", got, want)
	}
	mustRun(t, db, "INSERT INTO g (a) VALUES (3); UPDATE g SET a = a * 10 WHERE a = 1")
	if got := tableText(t, db, "SELECT a, b, s FROM g ORDER BY a"); got != "2|4|n2;3|6|n3;10|20|n10" {
		t.Fatalf("rows %q", got)
	}
}
