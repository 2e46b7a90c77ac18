package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A value too long for its VARCHAR(n) or not valid UTF-8 fails the whole
// INSERT or LOAD with MySQL's message naming table, column and row (and file
// and line for a load); the table keeps its snapshot, rows and dictionary.
func TestVarcharChecksLeaveTable(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"long.csv": "id,c\n5,\"new\"\n6,\"abcd\"\n",
		"utf8.csv": "id,c\n5,\"new\"\n6,\"ok\"\n7,\"a\xc3\"\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := open(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, `create table v (id int, c varchar(3));
insert into v values (1, 'héé'), (2, 'abc');
create table s (id int, c varchar(10));
insert into s values (3, 'ok'), (4, 'toolong'), (5, 'zz')`, dir); err != nil {
		t.Fatal(err)
	}
	before, _ := db.Catalog().Table("v")
	cases := []struct{ sql, want string }{
		{"insert into v values (3, 'x'),\n (4, 'wxyz')",
			"line 2:6: Data too long for column 'c' at row 2 (v.c is VARCHAR(3), the value has 4 characters)"},
		{"insert into v select id, c from s order by id",
			"Data too long for column 'c' at row 2 (v.c is VARCHAR(3), the value has 7 characters)"},
		{"insert into v select id, concat(c, 'éé') from s where id = 3", "Data too long for column 'c' at row 1 (v.c is VARCHAR(3), the value has 4 characters)"},
		{"load data infile 'long.csv' into table v fields terminated by ',' enclosed by '\"' ignore 1 lines",
			"long.csv line 3, column 2 (c): Data too long for column 'c' at row 2"},
		{"load data infile 'utf8.csv' into table v fields terminated by ',' enclosed by '\"' ignore 1 lines",
			`utf8.csv line 4, column 2 (c): Incorrect string value: '\xC3' for column 'c' at row 3 (not valid UTF-8; v.c is VARCHAR(3))`},
	}
	for _, tc := range cases {
		_, err := db.Exec(ctx, tc.sql, dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\nerror %v\nwant  %s", tc.sql, err, tc.want)
		}
		after, _ := db.Catalog().Table("v")
		if after != before || after.Rows != 2 || !slices.Equal(after.Columns[1].Dict.Values, []string{"abc", "héé"}) {
			t.Fatalf("%s: table changed: %d rows, dictionary %q", tc.sql, after.Rows, after.Columns[1].Dict.Values)
		}
	}
	// The session goes on, and values that fit are stored.
	if _, err := db.Exec(ctx, "insert into v select id, c from s where id <> 4", dir); err != nil {
		t.Fatal(err)
	}
	if after, _ := db.Catalog().Table("v"); after.Rows != 4 {
		t.Fatalf("%d rows after a good insert", after.Rows)
	}
}
