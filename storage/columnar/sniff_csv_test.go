package columnar

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Sniffing awkward files: each case gives the file's text and the dialect
// and schema expected (name:TYPE, ...).
func TestSniffCSV(t *testing.T) {
	cases := []struct {
		name, text string
		delim      rune
		quote      rune
		header     bool
		schema     string
	}{
		{"plain", "id,name,price\n1,a,1.50\n2,b,22.125\n", ',', 0, true, "id:INT, name:VARCHAR, price:DECIMAL(5,3)"},
		{"no header", "1,a,2024-01-02\n2,b,2024-02-03\n", ',', 0, false, "column0:INT, column1:VARCHAR, column2:DATE"},
		{"dbgen trailing pipe", "1|x|3.5|\n2|y|4|\n", '|', 0, false, "column0:INT, column1:VARCHAR, column2:DECIMAL(2,1)"},
		{"semicolons", "a;b;c\n1;2;3\n4;5;6\n", ';', 0, true, "a:INT, b:INT, c:INT"},
		{"tabs with quotes", "k\tv\n1\t\"a\tb\"\n2\t\"say \"\"hi\"\"\"\n", '\t', '"', true, "k:INT, v:VARCHAR"},
		{"quoted newline and comma", "id,txt\n1,\"x,\ny\"\n2,z\n", ',', '"', true, "id:INT, txt:VARCHAR"},
		{"NULL spellings", "a,b,c\n\\N,,x\n5,2.5,\n", ',', 0, true, "a:INT, b:DECIMAL(2,1), c:VARCHAR"},
		{"int widens to bigint", "n\n1\n9000000000\n", ',', 0, true, "n:BIGINT"},
		{"mixed text is varchar", "n\n1\nabc\n", ',', 0, true, "n:VARCHAR"},
		{"past 2^63 is bigint unsigned", "n\n1\n18446744073709551615\n", ',', 0, true, "n:BIGINT UNSIGNED"},
		{"negative with past 2^63 is double", "n\n-1\n18446744073709551615\n", ',', 0, true, "n:DOUBLE"},
		{"past 2^64 is double", "n\n18446744073709551616\n", ',', 0, true, "n:DOUBLE"},
		{"wide decimal is double", "x\n1.5\n12345678901234567.25\n", ',', 0, true, "x:DOUBLE"},
		{"exponent is double", "x\n1e3\n2\n", ',', 0, true, "x:DOUBLE"},
		{"booleans", "flag,n\ntrue,1\nFALSE,2\n", ',', 0, true, "flag:BOOLEAN, n:INT"},
		{"crlf", "a,b\r\n1,x\r\n2,y\r\n", ',', 0, true, "a:INT, b:VARCHAR"},
		{"all strings with header", "city,country\nParis,France\nRome,Italy\n", ',', 0, true, "city:VARCHAR, country:VARCHAR"},
		{"all strings repeated first row", "x,y\nx,y\n", ',', 0, false, "column0:VARCHAR, column1:VARCHAR"},
		{"single column", "v\n1\n2\n", ',', 0, true, "v:INT"},
		{"empty column", "a,b\n1,\n2,\n", ',', 0, true, "a:INT, b:VARCHAR"},
		{"NA is NULL", "a,b,c\n1,NA,x\nNA,2.5,NA\n", ',', 0, true, "a:INT, b:DECIMAL(2,1), c:VARCHAR"},
		{"NULL word", "d|n\n2024-01-01|NULL\nNULL|7\n", '|', 0, true, "d:DATE, n:INT"},
		{"datetimes", "at,d\n2024-01-05 10:20:30,2024-01-05\n2024-01-06T00:00:00.25,2024-01-06 01:00:00\n", ',', 0, true, "at:DATETIME(2), d:DATETIME"},
		{"bad datetime is varchar", "at\n2024-01-05 10:20:30\n2024-01-05 25:00:00\n", ',', 0, true, "at:VARCHAR"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := SniffCSV(path, SniffOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, f := range d.Fields {
			got = append(got, f.Name+":"+f.Type.String())
		}
		if d.Delimiter != c.delim || d.Quote != c.quote || d.Header != c.header || strings.Join(got, ", ") != c.schema {
			t.Errorf("%s: delimiter %q quote %q header %v schema %s; want %q %q %v %s",
				c.name, d.Delimiter, d.Quote, d.Header, strings.Join(got, ", "), c.delim, c.quote, c.header, c.schema)
			continue
		}
		// The sniffed dialect loads the whole file.
		if _, err := ReadCSV("t", path, SniffOptions{}); err != nil {
			t.Errorf("%s: load: %v", c.name, err)
		}
	}
}

func TestSniffCSVErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, nil, 0o644)
	if _, err := ReadCSV("t", empty, SniffOptions{}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty file: %v", err)
	}
	if _, err := ReadCSV("t", filepath.Join(dir, "none*.csv"), SniffOptions{}); err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("glob without match: %v", err)
	}
	bracket := filepath.Join(dir, "data[1].csv")
	os.WriteFile(bracket, []byte("a\n1\n"), 0o644)
	if tb, err := ReadCSV("t", bracket, SniffOptions{}); err != nil || tb.Rows != 1 {
		t.Errorf("a file name with brackets: %v", err)
	}
	if _, err := ReadCSV("t", filepath.Join(dir, "missing.csv"), SniffOptions{}); err == nil || !strings.Contains(err.Error(), "missing.csv") {
		t.Errorf("missing file: %v", err)
	}
	// A sniffed NULL word is NULL in every column when loaded, an enclosed
	// one a string.
	na := filepath.Join(dir, "na.csv")
	os.WriteFile(na, []byte("a,s\n1,x\nNA,NA\n3,\"NA\"\n"), 0o644)
	tb, err := ReadCSV("t", na, SniffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Columns[0].IsNull(1) || !tb.Columns[1].IsNull(1) || tb.Columns[1].IsNull(2) || tb.Columns[1].StringAt(2) != "NA" {
		t.Errorf("NA: a null %v, s null %v, row 3 s null %v", tb.Columns[0].IsNull(1), tb.Columns[1].IsNull(1), tb.Columns[1].IsNull(2))
	}
	// A value past the sample that does not fit the sniffed type fails the
	// load at its line.
	var b strings.Builder
	b.WriteString("n\n")
	for b.Len() < sniffBytes+100 {
		b.WriteString("12345\n")
	}
	b.WriteString("oops\n")
	late := filepath.Join(dir, "late.csv")
	os.WriteFile(late, []byte(b.String()), 0o644)
	if _, err := ReadCSV("t", late, SniffOptions{}); err == nil || !strings.Contains(err.Error(), `"oops" is not a valid INT`) {
		t.Errorf("late bad value: %v", err)
	}
}

// FuzzReadCSV: any file is sniffed and loaded or refused with an error,
// never a panic.
//
//	go test ./storage/columnar -run '^$' -fuzz FuzzReadCSV -fuzztime 60s
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{"a,b\n1,x\n", "1|2|\n3|4|\n", "\"q\"\"x\",1\n\"y\n\",2\n", "x\tNA\n1\t2.5\n", "\n\n,\n"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		path := filepath.Join(dir, "f.csv")
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		ReadCSV("t", path, SniffOptions{})
	})
}
