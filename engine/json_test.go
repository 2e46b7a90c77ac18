package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const jsonRows = `1|{"a": [1, 2], "b": "x,y"};2|NULL;3|[]`

// SHOW CREATE TABLE spells a JSON column as MySQL does.
func TestJSONShowCreate(t *testing.T) {
	db := open(t)
	mustRun(t, db, "CREATE TABLE jt (id INT, j JSON)")
	if got := tableText(t, db, "SHOW CREATE TABLE jt"); !strings.Contains(got, "`j` json DEFAULT NULL") {
		t.Errorf("SHOW CREATE TABLE:\n%s", got)
	}
}

// COPY TO CSV and Parquet read back as the same documents through every
// loader (a JSON column is written as its text, a string column).
func TestJSONCopyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	db := open(t)
	mustExec(t, db, `CREATE TABLE jt (id INT, j JSON);
		INSERT INTO jt VALUES (1, '{"b":"x,y","a":[1,2]}'), (2, NULL), (3, '[ ]')`, dir)
	cases := []struct{ write, load string }{
		{"copy jt to 'a.csv'", "load data infile 'a.csv' into table %s fields terminated by ',' enclosed by '\"' ignore 1 lines"},
		{"copy jt to 'b.parquet'", "import into %s from 'b.parquet' format 'parquet'"},
		{"copy jt to 'c.csv'", "insert into %s select * from read_csv('c.csv', columns={'id': 'INT', 'j': 'JSON'})"},
		{"copy jt to 'd.parquet'", "insert into %s select * from 'd.parquet'"},
	}
	for i, c := range cases {
		name := "r" + string(rune('a'+i))
		mustExec(t, db, c.write, dir)
		mustExec(t, db, "create table "+name+" (id int, j json);\n"+strings.ReplaceAll(c.load, "%s", name), dir)
		if got := tableText(t, db, "SELECT id, j FROM "+name+" ORDER BY id"); got != jsonRows {
			t.Errorf("%s: read back %s", c.write, got)
		}
	}
}

// Loading text that is not JSON into a JSON column fails naming the file's
// row, the table and column, with MySQL's reason and position.
func TestJSONLoadRejects(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("1|{\"a\": 1}\n2|{\"a\": tru}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := open(t)
	mustRun(t, db, "CREATE TABLE jt (id INT, j JSON)")
	_, err := db.Exec(context.Background(), "LOAD DATA INFILE 'bad.csv' INTO TABLE jt FIELDS TERMINATED BY '|'", dir)
	if err == nil || !strings.Contains(err.Error(), `Invalid JSON text: "Invalid value." at position 6 in value for column 'jt.j' at row 2`) {
		t.Errorf("load of invalid JSON: %v", err)
	}
	if got := tableText(t, db, "SELECT count(*) FROM jt"); got != "0" {
		t.Errorf("a failed load left rows: %s", got)
	}
}

// A database directory keeps JSON columns across reopening.
func TestJSONPersist(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE jt (id INT, j JSON);
		INSERT INTO jt VALUES (1, '{"b":"x,y","a":[1,2]}'), (2, NULL);
		INSERT INTO jt VALUES (3, '[]')`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "SELECT id, j FROM jt ORDER BY id"); got != jsonRows {
		t.Errorf("after reopening: %s", got)
	}
	if got := tableText(t, db, "SELECT j->>'$.a[1]', json_type(j) FROM jt WHERE id = 1"); got != "2|OBJECT" {
		t.Errorf("functions after reopening: %s", got)
	}
	mustRun(t, db, "CHECK DATABASE")
}
