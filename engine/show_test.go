package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// SHOW TABLES LIKE filters the names as LIKE matches; SHOW WARNINGS and
// SHOW ERRORS list none (gpusql fails statements instead) and their
// COUNT(*) is 0; SHOW TABLES WHERE filters on the SHOW's columns.
func TestShowTablesLikeAndWarnings(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, "create table abc (x int); create table abd (x int); create table xyz (x int); create view ab_v as select x from abc", ""); err != nil {
		t.Fatal(err)
	}
	names := func(q string) []string {
		res, err := db.Exec(ctx, q, "")
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		r := res[0].Result
		var out []string
		for i := range r.Rows {
			c := r.Columns[0]
			out = append(out, c.Dict.Values[c.I32[i]])
		}
		return out
	}
	for q, want := range map[string][]string{
		"show tables like 'ab%'":     {"ab_v", "abc", "abd"},
		"show tables like 'ab\\_%'":  {"ab_v"},
		"show tables like 'x_z'":     {"xyz"},
		"show tables like 'nothing'": nil,
		"show tables":                {"ab_v", "abc", "abd", "xyz"},
	} {
		if got := names(q); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	// The column is named as MySQL names it, after the database and the
	// pattern.
	for q, want := range map[string]string{
		"show tables":            "Tables_in_gpusql",
		"show full tables":       "Tables_in_gpusql|Table_type",
		"show tables like 'ab%'": "Tables_in_gpusql (ab%)",
		"show tables from information_schema like 'sch%'": "Tables_in_information_schema (SCH%)",
		"show full tables like 'x%'":                      "Tables_in_gpusql (x%)|Table_type",
		"show databases like 'gp%'":                       "Database (gp%)",
	} {
		res, err := db.Exec(ctx, q, "")
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got := strings.Join(res[0].Result.Names, "|"); got != want {
			t.Errorf("%s: columns %s, want %s", q, got, want)
		}
	}
	for _, q := range []string{"show warnings", "show errors"} {
		res, err := db.Exec(ctx, q, "")
		if err != nil || res[0].Result.Rows != 0 || len(res[0].Result.Names) != 3 {
			t.Errorf("%s: %+v, %v", q, res, err)
		}
	}
	if n := queryInt(t, db, "show count(*) warnings"); n != 0 {
		t.Errorf("show count(*) warnings = %d", n)
	}
	// WHERE reads the columns as SHOW names them, as MySQL's does.
	if got := names("show full tables where Table_type = 'VIEW' or Tables_in_gpusql like 'x%'"); !slices.Equal(got, []string{"ab_v", "xyz"}) {
		t.Errorf("SHOW FULL TABLES WHERE: %v", got)
	}
	if _, err := db.Exec(ctx, "show tables where x = 1", ""); err == nil || !strings.Contains(err.Error(), "Unknown column 'x' in 'where clause'") {
		t.Errorf("SHOW TABLES WHERE x = 1: %v, want 1054", err)
	}
}

// SHOW CHARACTER SET / COLLATION / ENGINES give gpusql's fixed rows, LIKE
// filters them by their first column.
func TestShowCatalogTables(t *testing.T) {
	db := open(t)
	for q, want := range map[string]int{
		"show character set": 2, "show charset like 'utf8%'": 1, "show collation": 5, "show collation like '%_ci'": 3,
		"show collation like 'latin1%'": 0, "show engines": 1,
	} {
		res, err := db.Exec(context.Background(), q, "")
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if r := res[0].Result; r.Rows != want || len(r.Names) < 4 {
			t.Errorf("%s: %d rows, columns %v; want %d rows", q, r.Rows, r.Names, want)
		}
	}
}

// TestShowCreateTableMySQLForms: SHOW CREATE TABLE writes columns as MySQL
// 8's store_create_info does: TEXT and BLOB without DEFAULT NULL (JSON
// with it), a nullable TIMESTAMP with NULL, CURRENT_TIMESTAMP with the
// column's digits; DESCRIBE marks a CURRENT_TIMESTAMP default
// DEFAULT_GENERATED. The text reads back as the same table.
func TestShowCreateTableMySQLForms(t *testing.T) {
	db := open(t)
	mustRun(t, db, `CREATE TABLE t (a TEXT, b BLOB, c TIMESTAMP, e DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
		j JSON, u TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)`)
	want := "t|CREATE TABLE `t` (\n" +
		"  `a` text,\n" +
		"  `b` blob,\n" +
		"  `c` timestamp NULL DEFAULT NULL,\n" +
		"  `e` datetime(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),\n" +
		"  `j` json DEFAULT NULL,\n" +
		"  `u` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	got := tableText(t, db, "SHOW CREATE TABLE t")
	if got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	desc := tableText(t, db, "DESCRIBE t")
	for _, row := range []string{"e|datetime(3)|YES||CURRENT_TIMESTAMP(3)|DEFAULT_GENERATED on update CURRENT_TIMESTAMP(3)",
		"u|timestamp|NO||CURRENT_TIMESTAMP|DEFAULT_GENERATED"} {
		if !strings.Contains(desc, row) {
			t.Errorf("DESCRIBE t lacks %s:\n%s", row, desc)
		}
	}
	ddl := strings.TrimPrefix(got, "t|")
	mustRun(t, db, "DROP TABLE t; "+ddl)
	if again := tableText(t, db, "SHOW CREATE TABLE t"); again != want {
		t.Errorf("SHOW CREATE TABLE after reading its text back:\n%s", again)
	}
}

// A column's COMMENT is written last in its definition, quoted with
// MySQL's backslash escapes, and the text reads back as the same comment.
func TestShowCreateTableComments(t *testing.T) {
	db := open(t)
	mustRun(t, db, `CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT COMMENT 'the ''id''', v VARCHAR(3) DEFAULT 'a' COMMENT 'back\\slash', PRIMARY KEY (id))`)
	want := "t|CREATE TABLE `t` (\n" +
		"  `id` int NOT NULL AUTO_INCREMENT COMMENT 'the \\'id\\'',\n" +
		"  `v` varchar(3) DEFAULT 'a' COMMENT 'back\\\\slash',\n" +
		"  PRIMARY KEY (`id`)\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	got := tableText(t, db, "SHOW CREATE TABLE t")
	if got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	mustRun(t, db, "DROP TABLE t; "+strings.TrimPrefix(got, "t|"))
	if again := tableText(t, db, "SHOW CREATE TABLE t"); again != want {
		t.Errorf("SHOW CREATE TABLE after reading its text back:\n%s", again)
	}
}

// A BIT column's default is a bit literal, as MySQL 8 writes it, and
// reads back as the same value.
func TestShowCreateTableBitDefault(t *testing.T) {
	db := open(t)
	mustRun(t, db, "CREATE TABLE t (f BIT(3) DEFAULT b'101', g BIT(8) DEFAULT 0)")
	want := "t|CREATE TABLE `t` (\n" +
		"  `f` bit(3) DEFAULT b'101',\n" +
		"  `g` bit(8) DEFAULT b'0'\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	got := tableText(t, db, "SHOW CREATE TABLE t")
	if got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	mustRun(t, db, "DROP TABLE t; "+strings.TrimPrefix(got, "t|")+"; INSERT INTO t () VALUES ()")
	if got := tableText(t, db, "SELECT f + 0, g + 0 FROM t"); got != "5|0" {
		t.Errorf("defaults read back: %s, want 5|0", got)
	}
}

// A TEXT, BLOB or JSON column takes a default only as an expression in
// MySQL 8 (a literal one is 1101), so SHOW CREATE TABLE writes the
// expression form, and it reads back as the same defaults.
func TestShowCreateTableBlobDefault(t *testing.T) {
	db := open(t)
	mustRun(t, db, "CREATE TABLE t (a TEXT DEFAULT ('x'), b BLOB DEFAULT ( 'y' ), c JSON DEFAULT ('[]'), d TEXT DEFAULT NULL)")
	want := "t|CREATE TABLE `t` (\n" +
		"  `a` text DEFAULT (_utf8mb4'x'),\n" +
		"  `b` blob DEFAULT (_utf8mb4'y'),\n" +
		"  `c` json DEFAULT (_utf8mb4'[]'),\n" +
		"  `d` text\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	got := tableText(t, db, "SHOW CREATE TABLE t")
	if got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	mustRun(t, db, "DROP TABLE t; "+strings.TrimPrefix(got, "t|")+"; INSERT INTO t () VALUES ()")
	if got := tableText(t, db, "SELECT a, b, c, d FROM t"); got != "x|y|[]|NULL" {
		t.Errorf("defaults read back: %s, want x|y|[]|NULL", got)
	}
}
