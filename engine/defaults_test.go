package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPersistDefaults: column defaults are catalog metadata the database
// keeps across reopen (and EXPORT/IMPORT DATABASE), and a table without
// defaults writes the manifest it wrote before defaults existed, so older
// manifests and older readers agree.
func TestPersistDefaults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE t (a INT, b VARCHAR(10) DEFAULT 'x', c INT NOT NULL DEFAULT 0, d DECIMAL(5,2) DEFAULT -1.5, e DATE DEFAULT '2024-02-29');
		CREATE TABLE plain (k INT);
		INSERT INTO t (a) VALUES (1);
		ALTER TABLE t ADD COLUMN g INT DEFAULT 5;
		ALTER TABLE t ALTER COLUMN c SET DEFAULT 7`)
	const describe = "a|int|YES||NULL|;b|varchar(10)|YES||x|;c|int|NO||7|;d|decimal(5,2)|YES||-1.50|;e|date|YES||2024-02-29|;g|int|YES||5|"
	if got := tableText(t, db, "DESCRIBE t"); got != describe {
		t.Fatalf("DESCRIBE t:\n got %s\nwant %s", got, describe)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(manifest), `"HasDefault"`); n != 5 {
		t.Errorf("manifest holds %d defaults, want 5 (none for columns without one)", n)
	}

	db = openAt(t, dir)
	if got := tableText(t, db, "DESCRIBE t"); got != describe {
		t.Errorf("DESCRIBE t after reopen:\n got %s\nwant %s", got, describe)
	}
	mustRun(t, db, "INSERT INTO t (a) VALUES (2)")
	const rows = "1|x|0|-1.50|2024-02-29|5;2|x|7|-1.50|2024-02-29|5"
	if got := tableText(t, db, "SELECT * FROM t ORDER BY a"); got != rows {
		t.Errorf("rows after reopen: %s, want %s", got, rows)
	}

	exp := t.TempDir()
	mustRun(t, db, "EXPORT DATABASE '"+exp+"'")
	db.Close()
	dst := openAt(t, t.TempDir())
	defer dst.Close()
	mustRun(t, dst, "IMPORT DATABASE '"+exp+"'")
	if got := tableText(t, dst, "DESCRIBE t"); got != describe {
		t.Errorf("DESCRIBE t after import:\n got %s\nwant %s", got, describe)
	}
}
