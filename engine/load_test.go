package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A load that fails part-way through its file leaves the table exactly as it
// was (rows, values and dictionary), names file, line and column, and the
// session goes on.
func TestFailedLoadLeavesTable(t *testing.T) {
	dir := t.TempDir()
	good := "1|apple|\n2|pear|\n"
	// Line 4 of 5 has a bad INT; earlier lines bring new strings that must
	// not leak into the dictionary.
	bad := "3|kiwi|\n4|fig|\n5|plum|\nxyz|lime|\n6|date|\n"
	for name, text := range map[string]string{"good.tbl": good, "bad.tbl": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := open(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, `create table f (id int, name varchar(10));
load data infile 'good.tbl' into table f fields terminated by '|';`, dir); err != nil {
		t.Fatal(err)
	}
	before, _ := db.Catalog().Table("f")
	_, err := db.Exec(ctx, "\n\nload data infile 'bad.tbl' into table f fields terminated by '|';", dir)
	if err == nil {
		t.Fatal("loading bad.tbl succeeded")
	}
	for _, want := range []string{"statement at line 3", "bad.tbl line 4, column 1 (id)", `"xyz" is not a valid INT`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	after, _ := db.Catalog().Table("f")
	if after != before || after.Rows != 2 || len(after.Columns[1].Dict.Values) != 2 {
		t.Fatalf("table changed by the failed load: %d rows, dictionary %v", after.Rows, after.Columns[1].Dict.Values)
	}
	res, err := db.Exec(ctx, "select id, name from f order by id", dir)
	if err != nil {
		t.Fatalf("session unusable after the failed load: %v", err)
	}
	r := res[0].Result
	if r.Rows != 2 || r.Columns[1].StringAt(0) != "apple" || r.Columns[1].StringAt(1) != "pear" {
		t.Fatalf("rows after the failed load: %d", r.Rows)
	}
	if _, err := db.Exec(ctx, "load data infile 'missing.tbl' into table f fields terminated by '|'", dir); err == nil ||
		!strings.Contains(err.Error(), "missing.tbl") {
		t.Errorf("missing file: %v", err)
	}
}

// A load reports its progress in bytes to the context's ProgressFunc,
// between the statement's start and end reports.
func TestLoadProgress(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("1|apple|\n", 1000)
	os.WriteFile(filepath.Join(dir, "f.tbl"), []byte(text), 0o644)
	db := open(t)
	var got []Progress
	ctx := WithProgress(context.Background(), func(p Progress) { got = append(got, p) })
	if _, err := db.Exec(ctx, "create table f (id int, name varchar(10));\nload data infile 'f.tbl' into table f fields terminated by '|'", dir); err != nil {
		t.Fatal(err)
	}
	if len(got) < 5 || got[0].Task != "create" || !got[1].Finished || got[2].Task != "load" || got[2].Line != 2 || !got[len(got)-1].Finished {
		t.Fatalf("reports %+v", got)
	}
	last := got[len(got)-2]
	if last.Task != "load f.tbl" || last.Unit != "bytes" || last.Done != int64(len(text)) || last.Total != int64(len(text)) {
		t.Errorf("last load report %+v", last)
	}
}
