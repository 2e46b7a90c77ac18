package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/exec"
)

const vectorRows = "1|[1,2,3]|[1];2|NULL|[1,2];3|[0.5,0,-1]|NULL;4|[3,0,4]|[]"

// SHOW CREATE TABLE spells the types as TiDB does.
func TestVectorShowCreate(t *testing.T) {
	db := open(t)
	mustRun(t, db, "CREATE TABLE vt (id INT, v VECTOR(3), w VECTOR)")
	got := tableText(t, db, "SHOW CREATE TABLE vt")
	for _, want := range []string{"`v` vector(3) DEFAULT NULL", "`w` vector DEFAULT NULL"} {
		if !strings.Contains(got, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, got)
		}
	}
}

// COPY TO CSV and Parquet read back as the same vectors, through every
// loader.
func TestVectorCopyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	db := open(t)
	mustExec(t, db, `CREATE TABLE vt (id INT, v VECTOR(3), w VECTOR);
		INSERT INTO vt VALUES (1,'[1,2,3]','[1]'), (2,NULL,'[1,2]'), (3,'[0.5,0,-1]',NULL), (4,'[3,0,4]','[]')`, dir)
	cases := []struct{ write, load string }{
		{"copy vt to 'a.csv'", "load data infile 'a.csv' into table %s fields terminated by ',' enclosed by '\"' ignore 1 lines"},
		{"copy vt to 'b.parquet'", "import into %s from 'b.parquet' format 'parquet'"},
		{"copy vt to 'c.csv'", "insert into %s select * from read_csv('c.csv', columns={'id': 'INT', 'v': 'VECTOR(3)', 'w': 'VECTOR'})"},
		{"copy vt to 'd.parquet'", "insert into %s select * from 'd.parquet'"},
	}
	for i, c := range cases {
		name := "r" + string(rune('a'+i))
		mustExec(t, db, c.write, dir)
		mustExec(t, db, "create table "+name+" (id int, v vector(3), w vector);\n"+strings.ReplaceAll(c.load, "%s", name), dir)
		if got := tableText(t, db, "SELECT id, v, w FROM "+name+" ORDER BY id"); got != vectorRows {
			t.Errorf("%s: read back %s", c.write, got)
		}
	}
}

// A database directory keeps vector columns: VECTOR(n) with appended runs
// (one INSERT after another), VECTOR rewritten whole; a failed load leaves
// the table as it was, also after reopening.
func TestVectorPersist(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE vt (id INT, v VECTOR(3), w VECTOR);
		INSERT INTO vt VALUES (1,'[1,2,3]','[1]'), (2,NULL,'[1,2]');
		INSERT INTO vt VALUES (3,'[0.5,0,-1]',NULL);
		INSERT INTO vt VALUES (4,'[3,0,4]','[]')`)
	if _, err := db.Exec(context.Background(), "INSERT INTO vt VALUES (5,'[1,2]',NULL)", ""); err == nil {
		t.Fatal("a 2-element vector went into VECTOR(3)")
	}
	if got := tableText(t, db, "SELECT id, v, w FROM vt ORDER BY id"); got != vectorRows {
		t.Fatalf("before reopening: %s", got)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	if got := tableText(t, db, "SELECT id, v, w FROM vt ORDER BY id"); got != vectorRows {
		t.Errorf("after reopening: %s", got)
	}
	if got := tableText(t, db, "SELECT id FROM vt WHERE v IS NOT NULL ORDER BY vec_l2_distance(v, '[3,0,3]') LIMIT 1"); got != "4" {
		t.Errorf("nearest neighbour after reopening: %s", got)
	}
	mustRun(t, db, "CHECK DATABASE")
}

// Vectors count in full against the memory limit: sorting 4096 rows of
// VECTOR(256) (4 MiB of elements) stops under 1 MiB, naming the operator.
func TestVectorMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	for i := range 4096 {
		fmt.Fprintf(&sb, "%d|[%s%d]\n", i, strings.Repeat("0.5,", 255), i)
	}
	if err := os.WriteFile(filepath.Join(dir, "v.tbl"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db := open(t)
	mustExec(t, db, "CREATE TABLE big (id INT, v VECTOR(256)); LOAD DATA INFILE 'v.tbl' INTO TABLE big FIELDS TERMINATED BY '|'", dir)
	db.SetMemoryLimit(1 << 20)
	_, err := db.Exec(context.Background(), "SELECT id, v FROM big ORDER BY id DESC", "")
	var me *exec.MemoryLimitError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "memory limit of 1.0 MiB exceeded") {
		t.Fatalf("sorting 4 MiB of vectors under 1 MiB: %v", err)
	}
	db.SetMemoryLimit(-1)
	if got := tableText(t, db, "SELECT id, vec_dims(v) FROM big ORDER BY id DESC LIMIT 1"); got != "4095|256" {
		t.Errorf("after the error: %s", got)
	}
}

// EXPORT DATABASE writes vectors in their text form; IMPORT DATABASE reads
// them back into the declared VECTOR(n) / VECTOR columns.
func TestVectorExportImportDatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	db := open(t)
	mustRun(t, db, `CREATE TABLE vt (id INT, v VECTOR(3), w VECTOR);
		INSERT INTO vt VALUES (1,'[1,2,3]','[1]'), (2,NULL,'[1,2]'), (3,'[0.5,0,-1]',NULL), (4,'[3,0,4]','[]')`)
	mustRun(t, db, "EXPORT DATABASE '"+dir+"'")
	db2 := open(t)
	mustRun(t, db2, "IMPORT DATABASE '"+dir+"'")
	if got := tableText(t, db2, "SELECT id, v, w FROM vt ORDER BY id"); got != vectorRows {
		t.Errorf("imported %s", got)
	}
	if got := tableText(t, db2, "DESCRIBE vt"); !strings.Contains(got, "v|vector(3)") || !strings.Contains(got, "w|vector|") {
		t.Errorf("imported types: %s", got)
	}
}
