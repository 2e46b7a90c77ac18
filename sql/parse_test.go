package sql

import (
	"errors"
	"testing"

	"gpusql/catalog"
)

func TestParseSplitsStatementsWithLines(t *testing.T) {
	text := "-- a comment\ncreate table date (d_datekey int);\n\n  /* block */ select d_datekey\n  from date;\nshow tables"
	ps, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line int
		text string
	}{
		{2, "create table date (d_datekey int)"},
		{4, "select d_datekey\n  from date"},
		{6, "show tables"},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d statements", len(ps))
	}
	for i, w := range want {
		if ps[i].Line != w.line || ps[i].Text != w.text {
			t.Errorf("statement %d: line %d text %q, want line %d text %q", i, ps[i].Line, ps[i].Text, w.line, w.text)
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for _, text := range []string{"", "  \n", "-- only a comment\n", ";"} {
		ps, err := Parse(text)
		if err != nil || len(ps) != 0 {
			t.Errorf("Parse(%q) = %d statements, %v", text, len(ps), err)
		}
	}
}

func TestSyntaxErrorPositionAndPrefix(t *testing.T) {
	text := "create table t (a int);\nselect a from t;\nselect a\n  from t wher a = 1;\nselect 1;"
	ps, err := Parse(text)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	if e.Line != 4 || e.Col != 15 {
		t.Errorf("error at %d:%d (%v), want 4:15", e.Line, e.Col, e)
	}
	if len(ps) != 2 || ps[1].Text != "select a from t" {
		t.Errorf("statements before the error: %+v", ps)
	}
}

// Bind errors carry absolute positions in the whole script.
func TestBindErrorPositionInScript(t *testing.T) {
	cat := catalog.New()
	text := "create table t (a int, b int);\n\nselect a,\n       nope from t;"
	ps, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	execDDL(t, cat, ps[0].Text)
	_, err = Bind(cat, ps[1])
	if err == nil || err.Error() != "line 4:8: Unknown column 'nope' in 'field list'" {
		t.Errorf("got %v", err)
	}
	// A Parsed built by hand (no source text) still reports lines from its
	// Line field.
	_, err = Bind(cat, Parsed{Node: ps[1].Node, Text: ps[1].Text, Line: 3})
	if err == nil {
		t.Fatal("want an error")
	}
}

func TestSSBDateTableNameParses(t *testing.T) {
	for _, q := range []string{
		"create table date (d_datekey int)",
		"select d_year from lineorder, date where lo_orderdate = d_datekey",
		"load data infile 'date.tbl' into table date fields terminated by '|'",
		"select date.d_year from date",
	} {
		if _, err := Parse(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}
