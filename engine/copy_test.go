package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// copySource is a table of the values a CSV writer can get wrong: NULL in
// every type, the empty string, quotes, delimiters, line breaks, a string
// spelled like NULL, negative and zero decimals, extreme doubles, dates.
const copySource = `create table t (id int, name varchar(20), d date, x decimal(10,2), f double, b boolean, big bigint);
insert into t values
 (1, 'a', '2024-01-02', 1.50, 0.1, true, 9223372036854775807),
 (2, '', NULL, NULL, NULL, NULL, NULL),
 (3, NULL, '1999-12-31', -3.25, 1e20, false, -1),
 (4, 'he said "hi", ok', '2000-02-29', 0.00, -2.5, true, 0),
 (5, 'two
lines', '1970-01-01', 12345678.99, 3, false, 5),
 (6, '\\N', '2020-01-01', 1, 1, true, 6),
 (7, ' padded	tab ', '0001-01-01', -0.01, 1e-7, false, 7);
`

// same counts the rows of t matched by a row of other with every column
// equal or both NULL.
const sameRows = `select count(*) from t a join %s b on a.id = b.id and a.name <=> b.name and a.d <=> b.d
 and a.x <=> b.x and a.f <=> b.f and a.b <=> b.b and a.big <=> b.big`

// Writing a table with COPY / INTO OUTFILE and loading the file back gives
// the same table, in every format and dialect.
func TestCopyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	db := open(t)
	ctx := context.Background()
	mustExec(t, db, copySource, dir)
	cols := "(id int, name varchar(20), d date, x decimal(10,2), f double, b boolean, big bigint)"
	cases := []struct{ write, load string }{
		{"copy t to 'a.csv'", "load data infile 'a.csv' into table %s fields terminated by ',' enclosed by '\"' ignore 1 lines"},
		{"copy (select * from t order by id desc) to 'b.csv' with (header false, delimiter '|')", "load data infile 'b.csv' into table %s fields terminated by '|' enclosed by '\"'"},
		{"copy t to 'c.parquet'", "import into %s from 'c.parquet' format 'parquet'"},
		{"copy (select * from t) to 'd.out' (format parquet)", "import into %s from 'd.out' format 'parquet'"},
		{"select * from t into outfile 'e.tsv' fields enclosed by '\"'", "load data infile 'e.tsv' into table %s fields enclosed by '\"'"},
		{"select * from t into outfile 'f.tsv' fields terminated by ';' optionally enclosed by '\"'", "load data infile 'f.tsv' into table %s fields terminated by ';' enclosed by '\"'"},
		{"copy t to 'g.csv'", "insert into %s select * from read_csv('g.csv')"},
		{"copy t to 'h.txt' (null 'NA', delimiter '|')", "insert into %s select * from read_csv('h.txt', nullstr='NA', delim='|')"},
		{"copy (select * from t order by id) to 'i.csv' (null 'NULL')", "insert into %s select * from 'i.csv'"},
		{"copy t to 'j.parquet'", "insert into %s select * from 'j.parquet'"},
	}
	for i, c := range cases {
		name := string(rune('a' + i))
		res, err := db.Exec(ctx, c.write, dir)
		if err != nil {
			t.Fatalf("%s: %v", c.write, err)
		}
		if res[0].RowsAffected != 7 {
			t.Errorf("%s: %d rows written", c.write, res[0].RowsAffected)
		}
		mustExec(t, db, "create table "+name+" "+cols+";\n"+strings.ReplaceAll(c.load, "%s", name), dir)
		got := mustExec(t, db, strings.ReplaceAll(sameRows, "%s", name), dir)
		if n := got[0].Result.Columns[0].I64[0]; n != 7 {
			t.Errorf("%s: %d of 7 rows read back the same", c.write, n)
		}
	}
	text, _ := os.ReadFile(filepath.Join(dir, "a.csv"))
	for _, want := range []string{"id,name,d,x,f,b,big\n", "\n2,\"\",\\N,\\N,\\N,\\N,\\N\n", "\n3,\\N,1999-12-31,-3.25,1e20,0,-1\n",
		`"he said ""hi"", ok"`, "\n6,\"\\N\",", "\"two\nlines\""} {
		if !strings.Contains(string(text), want) {
			t.Errorf("a.csv lacks %q:\n%s", want, text)
		}
	}
}

// Parquet string columns are written as dictionaries.
func TestCopyParquetDictionary(t *testing.T) {
	dir := t.TempDir()
	db := open(t)
	mustExec(t, db, copySource+"copy t to 'p.parquet';", dir)
	rdr, err := file.OpenParquetFile(filepath.Join(dir, "p.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	if typ := schema.Field(1).Type; typ.ID() != arrow.DICTIONARY {
		t.Errorf("name is stored as %v, want a dictionary", typ)
	}
	if typ := schema.Field(3).Type.String(); typ != "decimal(10, 2)" {
		t.Errorf("x is stored as %s", typ)
	}
	if cc, err := rdr.MetaData().RowGroup(0).ColumnChunk(1); err != nil || !cc.HasDictionaryPage() {
		t.Error("name's pages are not dictionary-encoded")
	}
}

// A failed export leaves no file under the target name and no temporary
// file beside it; INTO OUTFILE does not overwrite, COPY does.
func TestCopyFailureLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	db := open(t)
	ctx := context.Background()
	mustExec(t, db, copySource, dir)
	for _, c := range []struct{ stmt, want string }{
		// A tab inside a value cannot be written tab-separated unenclosed.
		{"select * from t order by id into outfile 'x.tsv'", `row 5, column 2 (name): the value "two\nlines" holds the delimiter or a line break`},
		{"select * from t where name = '\\\\N' into outfile 'y.tsv'", `would read back as NULL`},
		{"copy (select 1/0 + id from t) to 'nodir/z.csv'", "nodir"},
		{"copy (select * from t) to 'w.csv' (format json)", "line 1:36: unsupported: COPY FORMAT 'json'"},
		{"copy missing to 'w.csv'", "line 1:6: Table 'gpusql.missing' doesn't exist"},
		{"\n  copy (select nope from t) to 'w.csv'", "line 2:16: Unknown column 'nope' in 'field list'"},
		{"copy t from 'w.csv'", "line 1:8: unsupported: COPY ... FROM"},
		{"copy (select 1) 'w.csv'", "line 1:17: COPY wants TO 'file'"},
	} {
		_, err := db.Exec(ctx, c.stmt, dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.stmt, err, c.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("failed exports left %s", e.Name())
	}
	mustExec(t, db, "select * from t into outfile 'o.tsv' fields enclosed by '\"'; copy t to 'c.csv'; copy t to 'c.csv'", dir)
	if _, err := db.Exec(ctx, "select 1 into outfile 'o.tsv'", dir); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("INTO OUTFILE over an existing file: %v", err)
	}
	// The session goes on after a COPY in a script, and statements around
	// it keep their lines.
	res := mustExec(t, db, "select 1;\ncopy (select 2) to 'n.csv' with (header false);\nselect 3;", dir)
	if len(res) != 3 || res[2].Line != 3 || res[1].Message != "wrote 1 row to n.csv" {
		t.Errorf("script around COPY: %d results", len(res))
	}
	if text, _ := os.ReadFile(filepath.Join(dir, "n.csv")); string(text) != "2\n" {
		t.Errorf("n.csv = %q", text)
	}
}

func mustExec(t *testing.T, db *DB, text, dir string) []*StatementResult {
	t.Helper()
	res, err := db.Exec(context.Background(), text, dir)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return res
}
