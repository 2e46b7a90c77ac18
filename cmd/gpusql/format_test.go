package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// sample is a two-row result with a NULL, an empty string and characters
// that need quoting.
func sample() *exec.Result {
	id := columnar.NewColumn(columnar.TInt32, 2, false)
	id.I32[0], id.I32[1] = 1, 22
	name := columnar.NewColumn(columnar.TString, 2, false)
	name.Dict = columnar.BuildDictionary([]string{"", `a, "b"`})
	name.I32[0], name.I32[1] = 1, 0
	price := columnar.NewColumn(columnar.TDecimal(8, 2), 2, true)
	price.I64[0] = 1250
	price.SetValid(0)
	f := columnar.NewColumn(columnar.TFloat64, 2, false)
	f.F64[0], f.F64[1] = 0.1, 1e20
	return &exec.Result{Names: []string{"id", "name", "price", "f"}, Columns: []*columnar.Column{id, name, price, f}, Rows: 2}
}

func TestTableFormat(t *testing.T) {
	var b bytes.Buffer
	tablePrinter{w: &b}.rows(sample())
	want := `+----+--------+-------+------+
| id | name   | price | f    |
+----+--------+-------+------+
|  1 | a, "b" | 12.50 |  0.1 |
| 22 |        |  NULL | 1e20 |
+----+--------+-------+------+
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestCSVFormat(t *testing.T) {
	var b bytes.Buffer
	csvPrinter{&b}.rows(sample())
	want := "id,name,price,f\n1,\"a, \"\"b\"\"\",12.50,0.1\n22,\"\",\\N,1e20\n"
	if b.String() != want {
		t.Errorf("csv %q, want %q", b.String(), want)
	}
}

func TestJSONFormat(t *testing.T) {
	var b bytes.Buffer
	jsonPrinter{w: &b}.rows(sample())
	want := "[\n{\"id\":1,\"name\":\"a, \\\"b\\\"\",\"price\":12.50,\"f\":0.1},\n{\"id\":22,\"name\":\"\",\"price\":null,\"f\":100000000000000000000}\n]\n"
	if b.String() != want {
		t.Errorf("json %q, want %q", b.String(), want)
	}
	var v []map[string]any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil || len(v) != 2 {
		t.Errorf("not valid JSON: %v", err)
	}
	b.Reset()
	jsonPrinter{w: &b}.rows(&exec.Result{Names: []string{"x"}, Columns: []*columnar.Column{columnar.NewColumn(columnar.TInt32, 0, false)}})
	if b.String() != "[]\n" {
		t.Errorf("empty json %q", b.String())
	}
}

// TestJSONColumnFormats: a JSON column is its normalized text in the
// table and CSV formats, and embedded as JSON (not a quoted string) in
// --format json.
func TestJSONColumnFormats(t *testing.T) {
	sql := `create table d (id int, j json); insert into d values (1, '{"b":[1, "x,y"],"a":null}'), (2, NULL); select id, j from d order by id`
	for format, want := range map[string]string{
		"json": "[\n{\"id\":1,\"j\":{\"a\": null, \"b\": [1, \"x,y\"]}},\n{\"id\":2,\"j\":null}\n]\n",
		"csv":  "id,j\n1,\"{\"\"a\"\": null, \"\"b\"\": [1, \"\"x,y\"\"]}\"\n2,\\N\n",
	} {
		var out, errb bytes.Buffer
		if code := run([]string{"--executor", "cpu", "--format", format, "-c", sql}, nil, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errb.String())
		}
		if out.String() != want {
			t.Errorf("%s: %q, want %q", format, out.String(), want)
		}
	}
}
