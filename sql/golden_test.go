package sql

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"gpusql/catalog"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.test")

// Data-driven binder tests: testdata/bind.test holds records
//
//	== name
//	SQL (one statement)
//	----
//	expected output
//
// The output of a query is its plan (FormatPlan) and result names; of other
// statements a one-line summary; of a failing statement "error: " and the
// message with its line:column. go test ./sql -update rewrites the expected
// parts from the binder's current output, for review in the diff.

type record struct {
	name, sql, want string
}

func readRecords(t testing.TB, path string) []record {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []record
	var cur *record
	inWant := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "== "):
			recs = append(recs, record{name: strings.TrimSpace(line[3:])})
			cur, inWant = &recs[len(recs)-1], false
		case cur == nil:
		case line == "----" && !inWant:
			inWant = true
		case inWant:
			cur.want += line + "\n"
		default:
			cur.sql += line + "\n"
		}
	}
	for i := range recs {
		recs[i].sql = strings.TrimRight(recs[i].sql, "\n")
		recs[i].want = strings.TrimRight(recs[i].want, "\n")
	}
	return recs
}

func writeRecords(t testing.TB, path string, recs []record) {
	var sb strings.Builder
	for _, r := range recs {
		fmt.Fprintf(&sb, "== %s\n%s\n----\n%s\n\n", r.name, r.sql, r.want)
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testCatalog is a small schema with dictionaries on some string columns.
func testCatalog(t testing.TB) *catalog.Catalog {
	cat := catalog.New()
	execDDL(t, cat, `
create table emp (id int not null primary key, name varchar(20), dept varchar(10), salary decimal(10,2),
  bonus double, hired date, mgr int, active bool, code bigint);
create table dept (code varchar(10), title varchar(30), budget bigint not null, region varchar(10));
create table t (a int, b bigint, c varchar(5), d date);
create table u (a int, x int);`)
	withDict(t, cat, "emp", "dept", "eng", "ops", "sales")
	withDict(t, cat, "emp", "name", "ann", "bob", "cid", "dan")
	withDict(t, cat, "dept", "code", "eng", "ops", "sales")
	withDict(t, cat, "dept", "region", "east", "west")
	return cat
}

func bindOutput(cat *catalog.Catalog, text string) string {
	ps, err := Parse(text)
	if err != nil {
		return "error: " + err.Error()
	}
	if len(ps) != 1 {
		return fmt.Sprintf("error: %d statements", len(ps))
	}
	st, err := Bind(cat, ps[0])
	if err != nil {
		return "error: " + err.Error()
	}
	return describe(st)
}

func describe(st Statement) string {
	switch st := st.(type) {
	case *Query:
		return strings.TrimRight(FormatPlan(st.Plan), "\n") + "\nnames: " + strings.Join(st.Names, ", ")
	case *Explain:
		return fmt.Sprintf("Explain analyze=%v\n", st.Analyze) + describe(st.Query)
	case *CreateTableAs:
		return "CreateTableAs " + st.Name + "\n" + describe(st.Query)
	case *Insert:
		return fmt.Sprintf("Insert %s targets=%v\n%s", st.Table, st.Targets, strings.TrimRight(FormatPlan(st.Source), "\n"))
	case *CreateTable:
		var cols []string
		for _, f := range st.Fields {
			n := ""
			if !f.Nullable {
				n = " NOT NULL"
			}
			cols = append(cols, f.Name+" "+f.Type.String()+n)
		}
		return fmt.Sprintf("CreateTable %s ifNotExists=%v (%s)", st.Name, st.IfNotExists, strings.Join(cols, ", "))
	case *Load:
		return fmt.Sprintf("Load %s path=%q format=%s delimiter=%q enclosure=%q ignore=%d", st.Table, st.Path, st.Format, st.Delimiter, st.Enclosure, st.IgnoreLines)
	}
	return fmt.Sprintf("%T %+v", st, st)
}

func TestBindGolden(t *testing.T) {
	const path = "testdata/bind.test"
	recs := readRecords(t, path)
	cat := testCatalog(t)
	for i := range recs {
		got := bindOutput(cat, recs[i].sql)
		if *update {
			recs[i].want = got
			continue
		}
		if got != recs[i].want {
			t.Errorf("%s:\n%s\n--- got:\n%s\n--- want:\n%s", recs[i].name, recs[i].sql, got, recs[i].want)
		}
	}
	if *update {
		writeRecords(t, path, recs)
	}
}
