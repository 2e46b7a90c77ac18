package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/exec"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rowsText is a result as "a,b;c,d" for comparisons.
func rowsText(r *exec.Result) string {
	var rows []string
	for i := 0; i < r.Rows; i++ {
		rows = append(rows, strings.Join(r.Row(i), ","))
	}
	return strings.Join(rows, ";")
}

// Files in FROM: read_csv with and without options, read_parquet, globs,
// bare quoted paths, CREATE TABLE AS and joins with tables.
func TestFilesInFrom(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.csv":   "id,name,price\n1,apple,1.50\n2,\"pear, ripe\",12.25\n3,\\N,\\N\n",
		"a2.csv":  "id,name,price\n4,kiwi,0.5\n",
		"p.txt":   "1|x\n2|y\n",
		"num.csv": "10\n20\n",
	})
	db := open(t)
	mustExec(t, db, "create table r (id int, note varchar(10)); insert into r values (1, 'one'), (4, 'four')", dir)
	cases := []struct{ query, want string }{
		{"select * from read_csv('a.csv') order by id", "1,apple,1.50;2,pear, ripe,12.25;3,NULL,NULL"},
		{"select name from 'a.csv' where price > 2", "pear, ripe"},
		{"select count(*), sum(price) from 'a*.csv'", "4,14.25"},
		{"select column1 from read_csv('p.txt', delim='|', header=false) order by column0 desc", "y;x"},
		{"select k, v from read_csv('p.txt', delim='|', columns={'k': 'BIGINT', 'v': 'VARCHAR(4)'}) where k = 2", "2,y"},
		{"select sum(column0) from read_csv_auto('num.csv')", "30"},
		{"select a.name, r.note from read_csv('a.csv') a join r on a.id = r.id", "apple,one"},
		{"select f.id from 'a.csv' as f, r where f.id = r.id", "1"},
		{"select (select count(*) from 'a.csv')", "3"},
	}
	for _, c := range cases {
		res := mustExec(t, db, c.query, dir)
		if got := rowsText(res[0].Result); got != c.want {
			t.Errorf("%s: got %s, want %s", c.query, got, c.want)
		}
	}
	// A view over a file reads it at each use.
	mustExec(t, db, "create view v as select name from 'a.csv' f where f.id < 3", dir)
	if got := rowsText(mustExec(t, db, "select * from v order by name", dir)[0].Result); got != "apple;pear, ripe" {
		t.Errorf("view over a file: %s", got)
	}
	mustExec(t, db, "create table t as select * from read_csv('a.csv'); copy t to 't.parquet'", dir)
	res := mustExec(t, db, "describe t; select id, name, price from read_parquet('t.parquet') order by id; select count(*) from 't.parquet'", dir)
	if got := rowsText(res[0].Result); !strings.HasPrefix(got, "id,int") || !strings.Contains(got, "price,decimal(4,2)") {
		t.Errorf("CREATE TABLE AS read_csv schema: %s", got)
	}
	if got := rowsText(res[1].Result); got != "1,apple,1.50;2,pear, ripe,12.25;3,NULL,NULL" {
		t.Errorf("read_parquet: %s", got)
	}
	if got := rowsText(res[2].Result); got != "3" {
		t.Errorf("bare parquet path: %s", got)
	}
}

func TestFilesInFromErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.csv": "x\n1\n"})
	db := open(t)
	for _, c := range []struct{ query, want string }{
		{"select * from 'missing.csv'", "line 1:15: read "},
		{"select *\n  from read_csv('a.csv', header=maybe)", "line 2:26: read_csv option header wants true or false"},
		{"select * from read_csv('a.csv', skip=2)", "line 1:33: unsupported: read_csv option skip"},
		{"select * from read_csv(a.csv)", "line 1:24: read_csv wants a quoted file name"},
		{"select * from read_csv('a.csv', columns={'a': 'INT', 'b': 'INT'})", "columns names 2 columns, the file has 1"},
		{"select * from read_csv('a.csv', columns={'a': 'BIT(65)'})", "unsupported type"},
		{"select * from read_parquet('a.csv')", "a.csv"},
		{"select * from 'none*.parquet'", "no file matches"},
	} {
		_, err := db.Exec(context.Background(), c.query, dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.query, err, c.want)
		}
	}
	// A string in a select list or WHERE clause is still a string.
	res := mustExec(t, db, "select 'a.csv', x from 'a.csv' where 'a.csv' like '%.csv'", dir)
	if got := rowsText(res[0].Result); got != "a.csv,1" {
		t.Errorf("strings outside FROM: %s", got)
	}
}

// FROM followed by a string outside a SELECT's FROM list is not a file.
func TestFromStringsThatAreNotFiles(t *testing.T) {
	db := open(t)
	res := mustExec(t, db, "select extract(year from '2024-03-01'), trim(leading 'x' from 'xxab'), substring('abcd' from 2)", "")
	if got := rowsText(res[0].Result); got != "2024,ab,bcd" {
		t.Errorf("got %s", got)
	}
}
