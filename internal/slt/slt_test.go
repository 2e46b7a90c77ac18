package slt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `# comment
statement ok
CREATE TABLE t (a INT)

skipif sqlite
statement error unknown column
SELECT x FROM t

query IT rowsort
SELECT a, b FROM t
----
2 y
1	x

query R
SELECT 1.5

query T valuesort
SELECT b
----
z
a
`

func TestParseAndCompare(t *testing.T) {
	f, err := Parse("x.test", sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 5 {
		t.Fatalf("%d records", len(f.Records))
	}
	st := f.Records[1]
	if !st.ExpectError || st.ErrorSubstr != "unknown column" || !st.Skipped("sqlite") || st.Skipped("gpusql") {
		t.Errorf("statement error record: %+v", st)
	}
	q := f.Records[2]
	got, err := Format(q, [][]Cell{{{Text: "2", Num: 2, IsNum: true}, {Text: "y"}}, {{Text: "1", Num: 1, IsNum: true}, {Text: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(q, got); d != "" {
		t.Errorf("rowsort diff: %s", d)
	}
	if d := Diff(q, []string{"1\tx"}); !strings.Contains(d, "missing") {
		t.Errorf("diff of a short result: %q", d)
	}
	if s := Render('R', Cell{Text: "1.5", Num: 1.5, IsNum: true}); s != "1.500" {
		t.Errorf("R renders %q", s)
	}
	if s := Render('I', Cell{Text: "12.0000", Num: 12, IsNum: true}); s != "12" {
		t.Errorf("I renders %q", s)
	}
	if s := Render('T', Cell{}); s != "(empty)" {
		t.Errorf("empty renders %q", s)
	}
	if got := ExpectedRows(f.Records[4]); strings.Join(got, ",") != "a,z" {
		t.Errorf("valuesort expected %v", got)
	}
}

func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.test")
	os.WriteFile(path, []byte(sample), 0o644)
	f, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Records[2].SetResult([]string{"1\tx", "2\ty"})
	f.Records[3].SetResult([]string{"1.500"}) // gets a block it lacked
	f.Records[4].SetResult([]string{"a"})
	if err := f.Write(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := strings.Replace(sample, "----\n2 y\n1\tx\n", "----\n1\tx\n2\ty\n", 1)
	want = strings.Replace(want, "SELECT 1.5\n", "SELECT 1.5\n----\n1.500\n", 1)
	want = strings.Replace(want, "----\nz\na\n", "----\na\n", 1)
	if string(b) != want {
		t.Errorf("rewritten file:\n%s\nwant:\n%s", b, want)
	}
}

const classicSample = `hash-threshold 2

onlyif mysql # DIV
query II rowsort label-7
SELECT a, b FROM t
----
4 values hashing to 87d06a601da8a77a7281310ce10e3012

skipif mysql
query T nosort
SELECT c
----
y z

onlyif oracle
halt

skipif mssql
DROP TABLE t
`

func TestClassicHash(t *testing.T) {
	f, err := Parse("c.test", classicSample)
	if err != nil {
		t.Fatal(err)
	}
	q, txt, h := f.Records[0], f.Records[1], f.Records[2]
	if bad := f.Records[3]; bad.Kind != Invalid || bad.SQL != "DROP TABLE t" || !bad.Skipped("mssql") {
		t.Errorf("unknown record type in a classic file: %+v", bad)
	}
	if _, err := Parse("r.test", "DROP TABLE t\n"); err == nil {
		t.Errorf("a repository file with an unknown record type parsed")
	}
	if q.Label != "label-7" || q.Sort != "rowsort" || q.HashThreshold != 2 {
		t.Errorf("query header: %+v", q)
	}
	if q.Skipped("gpusql", "mysql") || !q.Skipped("sqlite") || !txt.Skipped("gpusql", "mysql") || !h.Skipped("gpusql", "mysql") {
		t.Errorf("onlyif/skipif mysql applied wrongly")
	}
	// md5 of "1\n2\n3\nNULL\n", the rows (3, NULL), (1, 2) sorted.
	rows := [][]Cell{{{Text: "3", Num: 3, IsNum: true}, {Null: true}}, {{Text: "1", Num: 1, IsNum: true}, {Text: "2", Num: 2, IsNum: true}}}
	got, _ := Format(q, rows)
	if d := Diff(q, got); d != "" {
		t.Errorf("hash diff: %s", d)
	}
	if d := Diff(q, got[:1]); !strings.Contains(d, "2 values hashing to") {
		t.Errorf("short result's diff: %q", d)
	}
	q.SetResult(got)
	if len(q.Expected) != 1 || q.Expected[0] != "4 values hashing to 87d06a601da8a77a7281310ce10e3012" {
		t.Errorf("-update writes %q", q.Expected)
	}
	if w := ExpectedRows(txt); len(w) != 1 || w[0] != "y z" {
		t.Errorf("one value per line: %q", w)
	}
}

func TestRenderConversions(t *testing.T) {
	for _, c := range []struct {
		ty   byte
		cell Cell
		want string
	}{
		{'I', Cell{Text: "12abc"}, "12"},
		{'I', Cell{Text: "abc"}, "0"},
		{'I', Cell{Text: " -7.9"}, "-7"},
		{'I', Cell{Text: "3.5000", Num: 3.5, IsNum: true}, "3"},
		{'I', Cell{Text: "-3.5", Num: -3.5, IsNum: true}, "-3"},
		{'R', Cell{Text: "2.5e1x"}, "25.000"},
		{'R', Cell{Text: "1e"}, "1.000"},
		{'R', Cell{Text: "x"}, "0.000"},
		{'R', Cell{Text: "-0.0001", Num: -0.0001, IsNum: true}, "0.000"},
	} {
		if got := RenderClassic(c.ty, c.cell); got != c.want {
			t.Errorf("RenderClassic(%c, %+v) = %q, want %q", c.ty, c.cell, got, c.want)
		}
	}
	if got := printable("a\tb\u00e9"); got != "a@b@@" {
		t.Errorf("printable: %q", got)
	}
}

func TestQueryHeader(t *testing.T) {
	for _, c := range []struct{ header, sort, label string }{
		{"query I", "nosort", ""},
		{"query I rowsort label-sum", "rowsort", "label-sum"},
		{"query I valuesort mylabel # a comment", "valuesort", "mylabel"},
		{"query I label-3", "nosort", "label-3"},
		{"query I rowsort # comment words", "rowsort", ""},
	} {
		f, err := Parse("h.test", c.header+"\nSELECT 1\n")
		if err != nil {
			t.Errorf("%q: %v", c.header, err)
			continue
		}
		if r := f.Records[0]; r.Sort != c.sort || r.Label != c.label {
			t.Errorf("%q: sort %q label %q, want %q %q", c.header, r.Sort, r.Label, c.sort, c.label)
		}
	}
	if _, err := Parse("h.test", "query I sideways\nSELECT 1\n"); err == nil {
		t.Errorf("an unknown sort mode parsed")
	}
}
