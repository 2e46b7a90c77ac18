package engine

import (
	"path/filepath"
	"testing"
)

// TestTableOptions: a table's COMMENT and default collation are kept as
// MySQL 8 keeps them: SHOW CREATE TABLE ends with DEFAULT CHARSET=...
// COLLATE=... COMMENT='...' and names a column's COLLATE only where it
// differs from the table's; information_schema.TABLES shows both; ALTER
// TABLE t COMMENT = / COLLATE = change them (a column added later takes
// the new default); CREATE TABLE LIKE copies them; a database directory
// keeps them.
func TestTableOptions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE t (a VARCHAR(5), b VARCHAR(5) COLLATE utf8mb4_bin, c INT) COMMENT='it''s t' COLLATE=utf8mb4_0900_ai_ci`)
	want := "t|CREATE TABLE `t` (\n" +
		"  `a` varchar(5) DEFAULT NULL,\n" +
		"  `b` varchar(5) COLLATE utf8mb4_bin DEFAULT NULL,\n" +
		"  `c` int DEFAULT NULL\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci COMMENT='it\\'s t'"
	if got := tableText(t, db, "SHOW CREATE TABLE t"); got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	const info = "SELECT table_name, table_collation, table_comment FROM information_schema.tables ORDER BY table_name"
	if got, want := tableText(t, db, info), "t|utf8mb4_0900_ai_ci|it's t"; got != want {
		t.Errorf("information_schema.tables: %s, want %s", got, want)
	}
	mustRun(t, db, "ALTER TABLE t COMMENT = 'new'")
	mustRun(t, db, "ALTER TABLE t ADD e VARCHAR(2)")
	mustRun(t, db, "ALTER TABLE t COLLATE = utf8mb4_bin")
	mustRun(t, db, "ALTER TABLE t ADD d VARCHAR(3)")
	mustRun(t, db, "CREATE TABLE u LIKE t")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	want = "t|CREATE TABLE `t` (\n" +
		"  `a` varchar(5) COLLATE utf8mb4_0900_ai_ci DEFAULT NULL,\n" +
		"  `b` varchar(5) DEFAULT NULL,\n" +
		"  `c` int DEFAULT NULL,\n" +
		"  `e` varchar(2) COLLATE utf8mb4_0900_ai_ci DEFAULT NULL,\n" +
		"  `d` varchar(3) DEFAULT NULL\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='new'"
	if got := tableText(t, db, "SHOW CREATE TABLE t"); got != want {
		t.Errorf("SHOW CREATE TABLE after ALTER and reopening:\n%s\nwant:\n%s", got, want)
	}
	if got, want := tableText(t, db, info), "t|utf8mb4_bin|new;u|utf8mb4_bin|new"; got != want {
		t.Errorf("information_schema.tables after ALTER and reopening: %s, want %s", got, want)
	}
	// Inside a transaction too (which reads a private copy of the catalog).
	if got, want := tableText(t, db, "BEGIN; "+info), "t|utf8mb4_bin|new;u|utf8mb4_bin|new"; got != want {
		t.Errorf("information_schema.tables in a transaction: %s, want %s", got, want)
	}
	mustRun(t, db, "COMMIT")
	mustRun(t, db, "ALTER TABLE u RENAME TO w")
	if got, want := tableText(t, db, info), "t|utf8mb4_bin|new;w|utf8mb4_bin|new"; got != want {
		t.Errorf("information_schema.tables after RENAME: %s, want %s", got, want)
	}
	// EXPORT DATABASE writes them, and IMPORT DATABASE reads them back.
	mustRun(t, db, "ALTER TABLE w COLLATE = utf8mb4_0900_ai_ci, COMMENT = 'it''s w'")
	exp := t.TempDir()
	mustRun(t, db, "EXPORT DATABASE '"+exp+"'")
	dst := openAt(t, t.TempDir())
	defer dst.Close()
	mustRun(t, dst, "IMPORT DATABASE '"+exp+"'")
	for _, name := range []string{"t", "w"} {
		if got, want := tableText(t, dst, "SHOW CREATE TABLE "+name), tableText(t, db, "SHOW CREATE TABLE "+name); got != want {
			t.Errorf("SHOW CREATE TABLE %s after EXPORT and IMPORT:\n%s\nwant:\n%s", name, got, want)
		}
	}
}
