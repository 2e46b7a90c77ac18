package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ENUM and SET columns keep their members in a database directory and are
// checked on LOAD DATA as on INSERT.
func TestEnumSetReopenAndLoad(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, filepath.Join(dir, "db"))
	mustRun(t, db, "CREATE TABLE e (id INT, size ENUM('small','large') NOT NULL, tags SET('a','b'))")
	good, bad := filepath.Join(dir, "good.csv"), filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(good, []byte("1,LARGE,b\n2,small,\"b,a\"\n3,1,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("4,small,a\n5,medium,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, "LOAD DATA INFILE '"+good+"' INTO TABLE e FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'")
	if _, err := db.Exec(context.Background(), "LOAD DATA INFILE '"+bad+"' INTO TABLE e FIELDS TERMINATED BY ','", ""); err == nil || !strings.Contains(err.Error(), "Data truncated for column 'size'") {
		t.Fatalf("LOAD DATA of a non-member gave %v, want Data truncated", err)
	}
	want := "CREATE TABLE `e` (\n" +
		"  `id` int DEFAULT NULL,\n" +
		"  `size` enum('small','large') NOT NULL,\n" +
		"  `tags` set('a','b') DEFAULT NULL\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	if got := showCreate(t, db, "e"); got != want {
		t.Fatalf("SHOW CREATE TABLE:\n%s\nwant\n%s", got, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, filepath.Join(dir, "db"))
	defer db.Close()
	if got := showCreate(t, db, "e"); got != want {
		t.Fatalf("SHOW CREATE TABLE after reopening:\n%s\nwant\n%s", got, want)
	}
	if got := tableText(t, db, "SELECT id, size, size + 0, tags, tags + 0 FROM e ORDER BY size DESC, id"); got != "1|large|2|b|2;2|small|1|a,b|3;3|small|1||0" {
		t.Fatalf("rows after reopening %q", got)
	}
	if _, err := db.Exec(context.Background(), "INSERT INTO e VALUES (9, 'tiny', NULL)", ""); err == nil {
		t.Fatal("a non-member inserted after reopening")
	}
}

// EXPORT DATABASE writes the constraints, generated columns and ENUM / SET
// types, and IMPORT DATABASE reads them back: the same definitions, still
// enforced.
func TestExportImportConstraints(t *testing.T) {
	src := open(t)
	exp := t.TempDir()
	mustRun(t, src, `CREATE TABLE parent (id INT PRIMARY KEY, e ENUM('x','y') NOT NULL, s SET('a','b'));
		CREATE TABLE child (id INT PRIMARY KEY, pid INT, n INT CHECK (n > 0), d INT AS (n * 2) STORED,
			CONSTRAINT big CHECK (n < 100) NOT ENFORCED, FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE)`)
	mustRun(t, src, `INSERT INTO parent VALUES (1, 'y', 'b,a'), (2, 'x', NULL);
		INSERT INTO child (id, pid, n) VALUES (10, 1, 5), (11, 2, 150)`)
	mustRun(t, src, "EXPORT DATABASE '"+exp+"'")
	dst := open(t)
	mustRun(t, dst, "IMPORT DATABASE '"+exp+"'")
	for _, table := range []string{"child", "parent"} {
		if got, want := showCreate(t, dst, table), showCreate(t, src, table); got != want {
			t.Errorf("imported %s:\n%s\nwant\n%s", table, got, want)
		}
	}
	if got := tableText(t, dst, "SELECT c.id, c.d, p.e, p.s FROM child c JOIN parent p ON c.pid = p.id ORDER BY c.id"); got != "10|10|y|a,b;11|300|x|NULL" {
		t.Errorf("imported rows %q", got)
	}
	ctx := context.Background()
	if _, err := dst.Exec(ctx, "INSERT INTO child (id, pid, n) VALUES (12, 9, 1)", ""); err == nil || !strings.Contains(err.Error(), "child_ibfk_1") {
		t.Errorf("imported foreign key not enforced: %v", err)
	}
	if _, err := dst.Exec(ctx, "INSERT INTO child (id, pid, n) VALUES (12, 1, 0)", ""); err == nil || !strings.Contains(err.Error(), "child_chk_1") {
		t.Errorf("imported check not enforced: %v", err)
	}
	mustRun(t, dst, "DELETE FROM parent WHERE id = 1")
	if got := tableText(t, dst, "SELECT id FROM child ORDER BY id"); got != "11" {
		t.Errorf("imported ON DELETE CASCADE: children %q, want 11", got)
	}
}
