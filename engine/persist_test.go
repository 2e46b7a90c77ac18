package engine

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func openAt(t *testing.T, dir string) *DB {
	t.Helper()
	db, err := Open(Options{Executor: "cpu", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func mustRun(t *testing.T, db *DB, text string) []*StatementResult {
	t.Helper()
	rs, err := db.Exec(context.Background(), text, "")
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return rs
}

// rowsText renders a query's rows as "a|b;a|b".
func tableText(t *testing.T, db *DB, q string) string {
	t.Helper()
	rs := mustRun(t, db, q)
	res := rs[len(rs)-1].Result
	var rows []string
	for i := 0; i < res.Rows; i++ {
		rows = append(rows, strings.Join(res.Row(i), "|"))
	}
	return strings.Join(rows, ";")
}

func TestPersistReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE t (a INT PRIMARY KEY, s VARCHAR(10), d DECIMAL(10,2), f DOUBLE, x DATE);
		INSERT INTO t VALUES (1,'x',1.5,0.25,'2020-01-02'),(2,NULL,2.25,NULL,NULL),(3,'abc',NULL,-1,'1999-12-31');
		CREATE VIEW v AS SELECT a FROM t WHERE a > 1;
		CREATE TABLE e (k BIGINT);
		UPDATE t SET s = 'y' WHERE a = 1;
		DELETE FROM t WHERE a = 3;
		BEGIN; INSERT INTO t VALUES (4,'z',4,4,'2021-01-01'); COMMIT;
		BEGIN; INSERT INTO t VALUES (5,'w',5,5,'2021-01-01'); ROLLBACK;`)
	want := tableText(t, db, "SELECT a, s, d, f, x FROM t ORDER BY a")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "SELECT a, s, d, f, x FROM t ORDER BY a"); got != want {
		t.Errorf("after reopen: %s, want %s", got, want)
	}
	if got := tableText(t, db, "SELECT * FROM v ORDER BY a"); got != "2;4" {
		t.Errorf("view after reopen: %s", got)
	}
	if got := tableText(t, db, "SELECT count(*) FROM e"); got != "0" {
		t.Errorf("empty table after reopen: %s", got)
	}
	if _, err := db.Exec(context.Background(), "INSERT INTO t VALUES (1,'dup',0,0,NULL)", ""); err == nil ||
		!strings.Contains(err.Error(), "Duplicate") && !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("primary key not kept across reopen: %v", err)
	}
}

func TestPersistLocked(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, dir)
	_, err := Open(Options{Executor: "cpu", Path: dir})
	if err == nil || !strings.Contains(err.Error(), "is locked by process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second open: %v", err)
	}
	db.Close()
	openAt(t, dir).Close()
}

func TestPersistNewerFormat(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE t (a INT)")
	db.Close()
	m := filepath.Join(dir, "MANIFEST")
	b, _ := os.ReadFile(m)
	os.WriteFile(m, []byte(strings.Replace(string(b), "gpusql-database 2 ", "gpusql-database 99 ", 1)), 0o644)
	_, err := Open(Options{Executor: "cpu", Path: dir})
	if err == nil || !strings.Contains(err.Error(), "format version 99") {
		t.Errorf("newer format: %v", err)
	}
}

// A flipped byte in a column's values is the error of the first query that
// reads the column, naming table and column, never a wrong answer.
func TestPersistFlippedByte(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE t (a INT, b INT); INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	db.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*-c0001.col"))
	if len(files) != 1 {
		t.Fatalf("column files of b: %v", files)
	}
	b, _ := os.ReadFile(files[0])
	b[64] ^= 0x04 // the first value (sections start at 64)
	os.WriteFile(files[0], b, 0o644)
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "SELECT count(*), sum(a) FROM t"); got != "3|6" {
		t.Errorf("undamaged column: %s", got)
	}
	for _, q := range []string{"SELECT sum(b) FROM t", "SELECT a FROM t WHERE a IN (SELECT b FROM t)", "UPDATE t SET a = 0"} {
		_, err := db.Exec(context.Background(), q, "")
		if err == nil || !strings.Contains(err.Error(), "table t column b") || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("%s: %v, want a checksum error naming t.b", q, err)
		}
	}
}

func TestCheckDatabase(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE t (a INT, s VARCHAR(5)); INSERT INTO t VALUES (1, 'x'), (NULL, 'y')")
	if got := tableText(t, db, "CHECK DATABASE"); got != "||ok (2 column files verified)" {
		t.Errorf("CHECK DATABASE: %s", got)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*-c0000.col"))
	b, _ := os.ReadFile(files[0])
	b[len(b)-1] ^= 1 // the last section: statistics
	os.WriteFile(files[0], b, 0o644)
	got := tableText(t, db, "PRAGMA integrity_check")
	if !strings.HasPrefix(got, "t|a|") || !strings.Contains(got, "checksum mismatch") {
		t.Errorf("PRAGMA integrity_check after a flipped byte: %s", got)
	}
	db.Close()
	_, err := Open(Options{Executor: "cpu", Path: dir})
	if err == nil || !strings.Contains(err.Error(), "table t column a") {
		t.Errorf("open with damaged statistics: %v", err)
	}
}

func TestExportImportDatabase(t *testing.T) {
	src := open(t)
	exp := t.TempDir()
	mustRun(t, src, `CREATE TABLE t (a INT PRIMARY KEY, s VARCHAR(10), d DECIMAL(10,2), b BOOLEAN, x DATE, f DOUBLE, KEY ks (s));
		INSERT INTO t VALUES (1,'x',1.5,true,'2020-01-01',0.5),(2,NULL,2.25,NULL,NULL,NULL),(3,'abc',NULL,false,'1999-03-04',-2);
		CREATE TABLE e (k BIGINT NOT NULL);
		CREATE VIEW v (n) AS SELECT count(*) FROM t`)
	mustRun(t, src, "EXPORT DATABASE '"+exp+"'")
	want := tableText(t, src, "SELECT * FROM t ORDER BY a")
	dst := openAt(t, t.TempDir())
	defer dst.Close()
	mustRun(t, dst, "IMPORT DATABASE '"+exp+"'")
	if got := tableText(t, dst, "SELECT * FROM t ORDER BY a"); got != want {
		t.Errorf("imported: %s, want %s", got, want)
	}
	if got := tableText(t, dst, "SELECT n FROM v"); got != "3" {
		t.Errorf("imported view: %s", got)
	}
	if got := tableText(t, dst, "SHOW INDEX FROM t"); !strings.Contains(got, "PRIMARY") || !strings.Contains(got, "ks") {
		t.Errorf("imported keys: %s", got)
	}
	// A second import collides with the tables now there and adds nothing.
	_, err := dst.Exec(context.Background(), "IMPORT DATABASE '"+exp+"'", "")
	if err == nil || !strings.Contains(err.Error(), "nothing was imported") {
		t.Errorf("second import: %v", err)
	}
	if got := tableText(t, dst, "SHOW TABLE STATUS"); !strings.HasPrefix(got, "e|gpusql|10|Dynamic|0|") || !strings.Contains(got, "t|gpusql|10|Dynamic|3|") {
		t.Errorf("SHOW TABLE STATUS: %s", got)
	}
}

// INSERTs after the first write only the new rows (a run per statement),
// until maxTail runs; CHECKPOINT folds them; the answers never change.
func TestPersistAppendRuns(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE t (a INT, s VARCHAR(5), d DOUBLE); INSERT INTO t VALUES (1, 'm', 0.5), (2, NULL, 1.5)")
	for i := 3; i <= 12; i++ {
		s := "'z'"
		if i%4 == 0 {
			s = "NULL"
		}
		mustRun(t, db, "INSERT INTO t VALUES ("+strconv.Itoa(i)+", "+s+", "+strconv.Itoa(i)+".25)")
	}
	want := tableText(t, db, "SELECT a, s, d FROM t")
	sum := tableText(t, db, "SELECT count(*), sum(a), sum(d) FROM t")
	manifest := func() string { b, _ := os.ReadFile(filepath.Join(dir, "MANIFEST")); return string(b) }
	if !strings.Contains(manifest(), `"tail"`) {
		t.Fatal("no appended runs after single-row INSERTs")
	}
	db.Close()
	db = openAt(t, dir)
	if got := tableText(t, db, "SELECT a, s, d FROM t"); got != want {
		t.Errorf("reopened with runs: %s, want %s", got, want)
	}
	if got := tableText(t, db, "CHECK DATABASE"); !strings.HasPrefix(got, "||ok") {
		t.Errorf("CHECK DATABASE with runs: %s", got)
	}
	mustRun(t, db, "CHECKPOINT")
	if strings.Contains(manifest(), `"tail"`) {
		t.Error("CHECKPOINT left appended runs")
	}
	db.Close()
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "SELECT a, s, d FROM t"); got != want {
		t.Errorf("after CHECKPOINT: %s, want %s", got, want)
	}
	if got := tableText(t, db, "SELECT count(*), sum(a), sum(d) FROM t"); got != sum {
		t.Errorf("after CHECKPOINT: %s, want %s", got, sum)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.col"))
	if len(files) != 3 {
		t.Errorf("%d column files after CHECKPOINT, want 3", len(files))
	}
}

// What a crash (or a power loss that cut the last writes short) leaves
// before the manifest switch — column files no manifest names, a partial
// MANIFEST.tmp — is ignored and removed at the next open.
func TestPersistLeftovers(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE t (a INT); INSERT INTO t VALUES (1), (2)")
	db.Close()
	os.WriteFile(filepath.Join(dir, "g99999999-t0000-c0000.col"), []byte("GPUSQLC1 trunc"), 0o644)
	os.WriteFile(filepath.Join(dir, "MANIFEST.tmp"), []byte("gpusql-database 1 0000"), 0o644)
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "SELECT sum(a) FROM t"); got != "3" {
		t.Errorf("after leftovers: %s", got)
	}
	for _, f := range []string{"g99999999-t0000-c0000.col", "MANIFEST.tmp"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s not removed at open", f)
		}
	}
}

// A flipped byte in an appended run stops the open, naming the column.
func TestPersistFlippedRun(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE t (a BIGINT); INSERT INTO t VALUES (1), (2); INSERT INTO t VALUES (3)")
	db.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*.col"))
	sort.Strings(files)
	last := files[len(files)-1]
	b, _ := os.ReadFile(last)
	b[64] ^= 0x10
	os.WriteFile(last, b, 0o644)
	_, err := Open(Options{Executor: "cpu", Path: dir})
	if err == nil || !strings.Contains(err.Error(), "table t column a") || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("open with a damaged run: %v", err)
	}
}
