package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

const intWidthsDDL = `CREATE TABLE w (t TINYINT, ut TINYINT UNSIGNED, s SMALLINT, us SMALLINT UNSIGNED,
	m MEDIUMINT, um MEDIUMINT UNSIGNED, i INT, ui INT UNSIGNED, b BOOL)`

// wantExecError runs text and checks that it fails with an error holding want.
func wantExecError(t *testing.T, db *DB, text, dir, want string) {
	t.Helper()
	_, err := db.Exec(context.Background(), text, dir)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: error %v, want one containing %q", text, err, want)
	}
}

// TestIntWidthNames: DESCRIBE, SHOW CREATE TABLE (lower case, as MySQL 8
// writes it) and information_schema name each width; BOOL is tinyint(1).
func TestIntWidthNames(t *testing.T) {
	db := open(t)
	mustRun(t, db, intWidthsDDL)
	want := "t|tinyint;ut|tinyint unsigned;s|smallint;us|smallint unsigned;m|mediumint;um|mediumint unsigned;i|int;ui|int unsigned;b|tinyint(1)"
	var got []string
	for _, row := range strings.Split(tableText(t, db, "DESCRIBE w"), ";") {
		f := strings.Split(row, "|")
		got = append(got, f[0]+"|"+f[1])
	}
	if strings.Join(got, ";") != want {
		t.Errorf("DESCRIBE:\n%s\nwant:\n%s", strings.Join(got, ";"), want)
	}
	ddl := tableText(t, db, "SHOW CREATE TABLE w")
	for _, line := range []string{"`t` tinyint DEFAULT NULL", "`ut` tinyint unsigned", "`s` smallint DEFAULT", "`us` smallint unsigned",
		"`m` mediumint DEFAULT", "`um` mediumint unsigned", "`i` int DEFAULT", "`ui` int unsigned", "`b` tinyint(1)"} {
		if !strings.Contains(ddl, line) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", line, ddl)
		}
	}
	info := tableText(t, db, "SELECT column_name, data_type, column_type, numeric_precision FROM information_schema.columns WHERE table_name = 'w' ORDER BY ordinal_position")
	wantInfo := "t|tinyint|tinyint|3;ut|tinyint|tinyint unsigned|3;s|smallint|smallint|5;us|smallint|smallint unsigned|5;" +
		"m|mediumint|mediumint|7;um|mediumint|mediumint unsigned|8;i|int|int|10;ui|int|int unsigned|10;b|tinyint|tinyint(1)|3"
	if info != wantInfo {
		t.Errorf("information_schema:\n%s\nwant:\n%s", info, wantInfo)
	}
}

// TestIntWidthStorePaths: every way a value is stored refuses one past
// the column's width with MySQL's strict-mode error and stores the
// extremes: INSERT VALUES, INSERT ... SELECT, UPDATE, ALTER TABLE MODIFY,
// LOAD DATA (CSV) and IMPORT of a Parquet file.
func TestIntWidthStorePaths(t *testing.T) {
	dir := t.TempDir()
	db := open(t)
	mustRun(t, db, intWidthsDDL)
	mustRun(t, db, "INSERT INTO w VALUES (-128, 255, -32768, 65535, 8388607, 16777215, 1, 4294967295, 1), (127, 0, 32767, 0, -8388608, 0, 1000, 0, 0)")
	for _, c := range []struct{ sql, want string }{
		{"INSERT INTO w (t) VALUES (128)", "Out of range value for column 't' at row 1"},
		{"INSERT INTO w (um) VALUES (1), (16777216)", "Out of range value for column 'um' at row 2"},
		{"INSERT INTO w (s) SELECT i * 100 FROM w", "Out of range value for column 's' at row 2"},
		{"INSERT INTO w (ut) SELECT s FROM w", "Out of range value for column 'ut' at row 1"},
		{"INSERT INTO w (i) SELECT 5000000000", "Out of range value for column 'i' at row 1"},
		{"UPDATE w SET m = m + 1", "Out of range value for column 'm'"},
		{"UPDATE w SET us = us + 1", "Out of range value for column 'us'"},
		{"ALTER TABLE w MODIFY i TINYINT", "Out of range value for column 'i' at row 2"},
	} {
		wantExecError(t, db, c.sql, dir, c.want)
	}
	if got := tableText(t, db, "SELECT count(*) FROM w"); got != "2" {
		t.Fatalf("a refused statement stored rows: count %s", got)
	}
	mustRun(t, db, "ALTER TABLE w MODIFY i SMALLINT")
	if got := tableText(t, db, "SELECT i FROM w ORDER BY i"); got != "1;1000" {
		t.Errorf("after MODIFY i SMALLINT: %s", got)
	}

	// Parquet: an INT column of 1000 does not fit a TINYINT; 100 does.
	mustExec(t, db, "CREATE TABLE src (v INT); INSERT INTO src VALUES (100), (1000); COPY src TO 'big.parquet'; COPY (SELECT v FROM src WHERE v = 100) TO 'ok.parquet'", dir)
	mustRun(t, db, "CREATE TABLE p (v TINYINT)")
	wantExecError(t, db, "IMPORT INTO p FROM 'big.parquet' FORMAT 'parquet'", dir, "1000")
	mustExec(t, db, "IMPORT INTO p FROM 'ok.parquet' FORMAT 'parquet'", dir)
	if got := tableText(t, db, "SELECT v FROM p"); got != "100" {
		t.Errorf("Parquet import: %s", got)
	}

	// CSV: a value past the width names file, line and column.
	mustExec(t, db, "COPY src TO 'big.csv'", dir)
	wantExecError(t, db, "LOAD DATA INFILE 'big.csv' INTO TABLE p FIELDS TERMINATED BY ',' IGNORE 1 LINES", dir, "(v)")
	if got := tableText(t, db, "SELECT count(*) FROM p"); got != "1" {
		t.Errorf("a refused load stored rows: count %s", got)
	}
}

// TestIntWidthPersist: a database directory keeps the widths across a
// reopen, and so do EXPORT DATABASE / IMPORT DATABASE (schema.sql and
// Parquet); the reopened or imported columns still check their range.
func TestIntWidthPersist(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, intWidthsDDL)
	mustRun(t, db, "INSERT INTO w VALUES (-128, 255, -32768, 65535, 8388607, 16777215, 1, 4294967295, 1)")
	want := tableText(t, db, "DESCRIBE w")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "DESCRIBE w"); got != want {
		t.Errorf("DESCRIBE after reopen:\n%s\nwant:\n%s", got, want)
	}
	if got := tableText(t, db, "SELECT t, ut, s, us, m, um FROM w"); got != "-128|255|-32768|65535|8388607|16777215" {
		t.Errorf("rows after reopen: %s", got)
	}
	wantExecError(t, db, "INSERT INTO w (ut) VALUES (256)", "", "Out of range value for column 'ut' at row 1")
	wantExecError(t, db, "INSERT INTO w (s) VALUES (-32769)", "", "Out of range value for column 's' at row 1")

	exp := filepath.Join(t.TempDir(), "exp")
	mustRun(t, db, "EXPORT DATABASE '"+exp+"'")
	db2 := open(t)
	mustRun(t, db2, "IMPORT DATABASE '"+exp+"'")
	if got := tableText(t, db2, "DESCRIBE w"); got != want {
		t.Errorf("DESCRIBE after IMPORT DATABASE:\n%s\nwant:\n%s", got, want)
	}
	if got := tableText(t, db2, "SELECT t, ut, s, us, m, um, ui FROM w"); got != "-128|255|-32768|65535|8388607|16777215|4294967295" {
		t.Errorf("rows after IMPORT DATABASE: %s", got)
	}
	wantExecError(t, db2, "INSERT INTO w (m) VALUES (8388608)", "", "Out of range value for column 'm' at row 1")
}
