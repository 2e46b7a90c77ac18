package export

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// sample has a string column (with NULL, "", a quote, the NULL spellings)
// and a decimal one.
func sample() *exec.Result {
	s := columnar.NewColumn(columnar.TString, 5, true)
	s.Dict = columnar.BuildDictionary([]string{"", `\N`, `a"b`, "NA", "x,y"})
	for i, v := range []string{`a"b`, "", "", "x,y", `\N`} {
		code, _ := s.Dict.Lookup(v)
		s.I32[i] = code
		s.SetValid(i)
	}
	s.SetNull(2)
	d := columnar.NewColumn(columnar.TDecimal(6, 2), 5, false)
	copy(d.I64, []int64{150, -5, 0, 100000, 7})
	return &exec.Result{Names: []string{"s", "d d"}, Columns: []*columnar.Column{s, d}, Rows: 5}
}

func TestWriteCSV(t *testing.T) {
	cases := []struct {
		name string
		opts CSVOptions
		want string
	}{
		{"default", DefaultCSV, "s,d d\n\"a\"\"b\",1.50\n\"\",-0.05\n\\N,0.00\n\"x,y\",1000.00\n\"\\N\",0.07\n"},
		{"quote all, tabs, NA", CSVOptions{Delimiter: '\t', Quote: '"', QuoteAll: true, Null: "NA"},
			"\"a\"\"b\"\t\"1.50\"\n\"\"\t\"-0.05\"\nNA\t\"0.00\"\n\"x,y\"\t\"1000.00\"\n\"\\N\"\t\"0.07\"\n"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		if err := WriteCSV(w, sample(), c.opts); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w.Flush()
		if b.String() != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, b.String(), c.want)
		}
	}
	// Unenclosed, a value holding the delimiter cannot be written.
	var b bytes.Buffer
	err := WriteCSV(bufio.NewWriter(&b), sample(), CSVOptions{Delimiter: ',', Null: `\N`})
	if err == nil || !strings.Contains(err.Error(), "row 4, column 1 (s)") {
		t.Errorf("unenclosed delimiter: %v", err)
	}
}

// WriteFile leaves the target untouched and no temporary file when the
// write fails, and replaces the target whole when it succeeds.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	os.WriteFile(path, []byte("old\n"), 0o644)
	err := WriteFile(path, sample(), Options{Format: "csv", CSV: CSVOptions{Delimiter: ',', Null: `\N`}})
	if err == nil {
		t.Fatal("a failing write succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("failed write changed the target: %q", b)
	}
	if err := WriteFile(path, sample(), Options{Format: "parquet"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !bytes.HasPrefix(b, []byte("PAR1")) {
		t.Errorf("target not replaced by the Parquet file")
	}
	if err := WriteFile(path, sample(), Options{Format: "csv", CSV: DefaultCSV, NoOverwrite: true}); err == nil ||
		!strings.Contains(err.Error(), "already exists") {
		t.Errorf("NoOverwrite: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left: %d", len(entries))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
}
