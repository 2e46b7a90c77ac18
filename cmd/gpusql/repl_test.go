package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/engine"
	"gpusql/exec"
	"gpusql/storage/columnar"
)

// testSession is a REPL session writing to buffers, with a table t.
func testSession(t *testing.T) (*session, *bytes.Buffer, *bytes.Buffer, func(text, dir string)) {
	t.Helper()
	db, err := engine.Open(engine.Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	s := &session{db: db, format: "table", stdout: &out, stderr: &errb, msgOut: &out, explain: &out}
	s.rebuildPrinter()
	run := func(text, dir string) {
		if err := s.exec(context.Background(), text, dir); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	run("create table t (id int not null, name varchar(10), price decimal(6,2)); insert into t values (1, 'a', 1.5), (2, NULL, 2)", "")
	out.Reset()
	return s, &out, &errb, run
}

func TestReplCommands(t *testing.T) {
	s, out, errb, run := testSession(t)
	dir := t.TempDir()
	cases := []struct{ line, want string }{
		{`\d`, "| t                |"}, // under Tables_in_gpusql, as MySQL names it
		{`.tables`, "| t                |"},
		{`\d t`, "| price | decimal(6,2) | YES  |"},
		{`.schema`, "CREATE TABLE `t` (`id` INT NOT NULL, `name` VARCHAR(10), `price` DECIMAL(6,2));"},
		{`.schema t`, "CREATE TABLE `t`"},
		{`\timing`, "Timing is on."},
		{`.timer off`, "Timing is off."},
		{`.mode`, "mode table"},
		{`\?`, ".mode MODE"},
	}
	for _, c := range cases {
		out.Reset()
		if got := s.command(c.line, run); got != handled {
			t.Errorf("%s: %v", c.line, got)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%s: output %q lacks %q", c.line, out.String(), c.want)
		}
	}
	if s.command(`\q`, run) != quit || s.command(".quit", run) != quit {
		t.Error("\\q and .quit do not quit")
	}
	if s.command("select 1;", run) != notCommand {
		t.Error("SQL taken for a command")
	}
	s.command(`\frob`, run)
	if !strings.Contains(errb.String(), `unknown command \frob`) {
		t.Errorf("unknown command: %q", errb.String())
	}

	// .mode and .once / .output.
	s.command(".mode csv", run)
	once := filepath.Join(dir, "once.csv")
	s.command(".once "+once, run)
	run("select id, name from t order by id", "")
	run("select 7 as x", "")
	if b, _ := os.ReadFile(once); string(b) != "id,name\n1,a\n2,\\N\n" {
		t.Errorf(".once file %q", b)
	}
	if !strings.Contains(out.String(), "x\n7\n") {
		t.Errorf("after .once results go to the screen again: %q", out.String())
	}
	outFile := filepath.Join(dir, "all.md")
	s.command(".mode markdown", run)
	s.command(".output "+outFile, run)
	run("select id, price from t order by id; select name from t where id = 1", "")
	s.command(".output", run)
	want := "| id | price |\n|---:|---:|\n| 1 | 1.50 |\n| 2 | 2.00 |\n| name |\n|---|\n| a |\n"
	if b, _ := os.ReadFile(outFile); string(b) != want {
		t.Errorf(".output file %q, want %q", b, want)
	}
	out.Reset()
	s.command(".mode line", run)
	run("select id, name as longer from t order by id", "")
	if want := "    id = 1\nlonger = a\n\n    id = 2\nlonger = NULL\n"; out.String() != want {
		t.Errorf("line mode %q, want %q", out.String(), want)
	}
	s.command(".mode yaml", run)
	if !strings.Contains(errb.String(), `unknown format "yaml"`) {
		t.Errorf(".mode yaml: %q", errb.String())
	}
}

// A wide, long result on a narrow terminal keeps its first and last
// columns and rows and says what it left out.
func TestTableFitsTerminal(t *testing.T) {
	r := &exec.Result{Rows: 10}
	for j := 0; j < 8; j++ {
		c := columnar.NewColumn(columnar.TInt64, 10, false)
		for i := range c.I64 {
			c.I64[i] = int64(i * 1000000)
		}
		r.Names = append(r.Names, "column_"+string(rune('a'+j)))
		r.Columns = append(r.Columns, c)
	}
	var b bytes.Buffer
	tablePrinter{w: &b, width: 40, maxRows: 4}.rows(r)
	lines := strings.Split(b.String(), "\n")
	for _, l := range lines {
		if len([]rune(l)) > 40 {
			t.Errorf("line wider than 40: %q", l)
		}
	}
	for _, want := range []string{"| column_a | column_b | … | column_h |", "|        0 |        0 | … |        0 |",
		"|        · |        · | … |        · |", "|  9000000 |  9000000 | … |  9000000 |", "(4 of 10 rows, 3 of 8 columns shown)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("fitted table lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	tablePrinter{w: &b, width: 400, maxRows: 40}.rows(r)
	if strings.Contains(b.String(), "…") || strings.Contains(b.String(), "shown") {
		t.Errorf("a table that fits was cut:\n%s", b.String())
	}
}

// --format json writes one document for a whole run.
func TestJSONOneDocument(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"--executor", "cpu", "--format", "json", "-c", "create table t (a int); insert into t values (1), (2)",
		"-c", "select a from t order by a; select count(*) as n from t"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc [][]map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out.String())
	}
	if len(doc) != 2 || len(doc[0]) != 2 || doc[1][0]["n"] != float64(2) {
		t.Errorf("document %s", out.String())
	}
	out.Reset()
	run([]string{"--executor", "cpu", "--format", "json", "-c", "select 1 as x"}, nil, &out, &errb)
	if out.String() != "[\n{\"x\":1}\n]\n" {
		t.Errorf("one result set: %q", out.String())
	}
}

func TestCompletion(t *testing.T) {
	s, _, _, _ := testSession(t)
	c := &completer{db: s.db}
	cases := []struct {
		line string
		want []string
	}{
		{"SEL", []string{"ECT"}},
		{"sel", []string{"ect"}},
		{"select pri", []string{"ce", "mary"}},
		{"select t.na", []string{"me"}},
		{"select * from ", nil},
		{"select su", []string{"bdate(", "bstr(", "bstring(", "m("}},
		{".sch", []string{"ema"}},
		{"select .sch", nil},
	}
	for _, tc := range cases {
		got, _ := c.Do([]rune(tc.line), len([]rune(tc.line)))
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		if strings.Join(gs, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%q: completions %q, want %q", tc.line, gs, tc.want)
		}
	}
}
