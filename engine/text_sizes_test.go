package engine

import (
	"path/filepath"
	"testing"
)

// TestTextSizePersist: TINYTEXT ... LONGBLOB keep their size class across
// a reopen of the database directory and through EXPORT DATABASE /
// IMPORT DATABASE (schema.sql and Parquet), where a BLOB or JSON column
// once came back as TEXT.
func TestTextSizePersist(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, "CREATE TABLE z (tt TINYTEXT, mt MEDIUMTEXT, lt LONGTEXT, tb TINYBLOB, mb MEDIUMBLOB, lb LONGBLOB, t TEXT, j JSON)")
	mustRun(t, db, "INSERT INTO z VALUES ('a', 'b', 'c', 'd', 'e', 'f', 'g', '[1]')")
	const want = "tt|tinytext;mt|mediumtext;lt|longtext;tb|tinyblob;mb|mediumblob;lb|longblob;t|text;j|json"
	const q = "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_NAME = 'z' ORDER BY ORDINAL_POSITION"
	if got := tableText(t, db, q); got != want {
		t.Fatalf("types: %s\nwant %s", got, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, q); got != want {
		t.Errorf("types after reopen: %s\nwant %s", got, want)
	}
	exp := filepath.Join(t.TempDir(), "exp")
	mustRun(t, db, "EXPORT DATABASE '"+exp+"'")
	db2 := open(t)
	mustRun(t, db2, "IMPORT DATABASE '"+exp+"'")
	if got := tableText(t, db2, q); got != want {
		t.Errorf("types after IMPORT DATABASE: %s\nwant %s", got, want)
	}
	if got := tableText(t, db2, "SELECT tt, lt, lb FROM z"); got != "a|c|f" {
		t.Errorf("rows after IMPORT DATABASE: %s", got)
	}
}
