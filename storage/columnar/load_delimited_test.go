package columnar

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	arrowcsv "github.com/apache/arrow/go/v15/arrow/csv"
)

func mixedFields() []Field {
	return []Field{
		{Name: "id", Type: TInt32, Nullable: true},
		{Name: "name", Type: TString, Nullable: true},
		{Name: "amount", Type: TDecimal(7, 2), Nullable: true},
		{Name: "day", Type: TDate, Nullable: true},
		{Name: "big", Type: TInt64, Nullable: true},
		{Name: "ok", Type: TBool, Nullable: true},
		{Name: "score", Type: TFloat64, Nullable: true},
	}
}

var tbl = DelimitedOptions{Delimiter: '|'}
var csvOpts = DelimitedOptions{Delimiter: ',', Enclosure: '"', IgnoreLines: 1}

func TestLoadTblTrailingDelimiter(t *testing.T) {
	p := writeFile(t, "mixed.tbl", ""+
		"1|pear|12.5|1995-02-18|9000000000|true|0.25|\n"+
		"2||-0.125|2000-02-29|-1|0|1e3|\n"+ // empty string, rounding
		"3|\\N||||||\n"+ // NULLs everywhere
		"4|apple|1|1970-01-01|7|FALSE|-2|") // no final line break
	nt := mustLoad(t, NewEmptyTable("m", mixedFields()), p, tbl)
	eqLines(t, rows(nt), []string{
		"1|pear|12.50|1995-02-18|9000000000|1|0.25",
		"2||-0.13|2000-02-29|-1|0|1000",
		"3|NULL|NULL|NULL|NULL|NULL|NULL",
		"4|apple|1.00|1970-01-01|7|0|-2",
	})
	if nt.Columns[0].HasNulls() {
		t.Errorf("id has no NULLs but got a validity bitmap")
	}
}

func TestLoadPlainWithoutTrailingDelimiter(t *testing.T) {
	p := writeFile(t, "plain.csv", "id,name\r\n\r\n7,x y\r\n8,\r\n\n9,z")
	nt := mustLoad(t, NewEmptyTable("p", mixedFields()[:2]), p, DelimitedOptions{Delimiter: ',', IgnoreLines: 1})
	eqLines(t, rows(nt), []string{"7|x y", "8|", "9|z"})
}

func TestLoadQuotedCSV(t *testing.T) {
	p := writeFile(t, "q.csv", ""+
		"id,name,amount\r\n"+
		"1,\"a,b\",1.5\r\n"+
		"2,\"line one\nline two\",2\r\n"+
		"3,\"say \"\"hi\"\"\",\"3.25\"\r\n"+
		"4,\"\",\r\n"+
		"5,\\N,\\N\r\n"+
		"6,\"\\N\",\"\"\r\n"+
		"\"7\",plain,7\n")
	nt := mustLoad(t, NewEmptyTable("q", mixedFields()[:3]), p, csvOpts)
	eqLines(t, rows(nt), []string{
		"1|a,b|1.50",
		"2|line one\nline two|2.00",
		"3|say \"hi\"|3.25",
		"4||NULL",
		"5|NULL|NULL",
		`6|\N|NULL`,
		"7|plain|7.00",
	})
}

func TestLoadQuotedTrailingDelimiter(t *testing.T) {
	p := writeFile(t, "q.tbl", "1|\"a|b\"|\n2|\"\"|\n")
	nt := mustLoad(t, NewEmptyTable("q", mixedFields()[:2]), p, DelimitedOptions{Delimiter: '|', Enclosure: '"'})
	eqLines(t, rows(nt), []string{"1|a|b", "2|"})
}

// TestLoadErrors checks that every kind of bad input names the file, the
// physical line and the column, and leaves the old table as it was.
func TestLoadErrors(t *testing.T) {
	good := writeFile(t, "good.tbl", "1|pear|1.00|1995-01-01|1|1|1|\n2|fig|2.00|1995-01-02|2|0|2|\n")
	old := mustLoad(t, NewEmptyTable("m", mixedFields()), good, tbl)
	before := image(old)
	row := "1|pear|1.00|1995-01-01|1|1|1|\n"
	cases := []struct {
		name, text string
		opts       DelimitedOptions
		want       string // after "load PATH "
	}{
		{"int.tbl", row + row + "3|x|1|1995-01-01|abc|1|1|\n", tbl,
			`line 3, column 5 (big): "abc" is not a valid BIGINT`},
		{"int32.tbl", row + "3000000000|x|1|1995-01-01|1|1|1|\n", tbl,
			`line 2, column 1 (id): "3000000000" is out of range for INT`},
		{"date.tbl", row + "1|x|1|1995-02-30|1|1|1|\n", tbl,
			`line 2, column 4 (day): "1995-02-30" is not a valid DATE (want YYYY-MM-DD)`},
		{"decimal.tbl", row + "1|x|123456.7|1995-02-03|1|1|1|\n", tbl,
			`line 2, column 3 (amount): "123456.7" is out of range for DECIMAL(7,2)`},
		{"bool.tbl", row + "1|x|1|1995-02-03|1|maybe|1|\n", tbl,
			`line 2, column 6 (ok): "maybe" is not a valid BOOLEAN`},
		{"double.tbl", row + "1|x|1|1995-02-03|1|1|1.2.3|\n", tbl,
			`line 2, column 7 (score): "1.2.3" is not a valid DOUBLE`},
		{"few.tbl", row + "1|x|1|1995-02-03|\n", tbl,
			`line 2, column 5 (big): missing field: the line has 4 fields, the table has 7 columns`},
		{"many.tbl", row + "1|x|1|1995-02-03|1|1|1|8|\n", tbl,
			`line 2, column 8: unexpected extra field: the table has 7 columns`},
		{"notrail.tbl", row + "1|x|1|1995-02-03|1|1|1\n", tbl,
			`line 2, column 7 (score): missing the delimiter that ends every line of this file`},
		{"blank.tbl", "\n" + row + "\r\n\n" + "x|x|1|1995-02-03|1|1|1|\n", tbl,
			`line 5, column 1 (id): "x" is not a valid INT`},
		{"few.csv", "id,name\n1,a,1,1995-01-01,1,1,1\n2,b\n", csvOpts,
			`line 3, column 3 (amount): missing field: the line has 2 fields, the table has 7 columns`},
		{"many.csv", "h\n1,a,1,1995-01-01,1,1,1,9\n", csvOpts,
			`line 2, column 8: unexpected extra field: the table has 7 columns`},
		{"unterminated.csv", "h\n1,a,1,1995-01-01,1,1,1\n2,\"open\nstill open,1,1995-01-01,1,1,1\n", csvOpts,
			`line 3, column 2 (name): unterminated quoted field`},
		{"bare.csv", "h\n1,a,1,1995-01-01,1,1,1\n2,ab\"c,1,1995-01-01,1,1,1\n", csvOpts,
			`line 3, column 2 (name): quote character in an unquoted field "ab\"c"`},
		{"afterquote.csv", "h\n1,\"a\"b,1,1995-01-01,1,1,1\n", csvOpts,
			`line 2, column 2 (name): unexpected 'b' after the closing quote`},
		{"multiline.csv", "h\n1,\"x\ny\nz\",1,1995-01-01,1,1,1\n2,a,1,1995-01-01,1,1,zz\n", csvOpts,
			`line 5, column 7 (score): "zz" is not a valid DOUBLE`},
		{"inquote.csv", "h\n1,\"x\ny\",1,1995-01-01,1,1,1\n2,\"a\nb\",1,1995-01-01,1,bad,1\n", csvOpts,
			`line 5, column 6 (ok): "bad" is not a valid BOOLEAN`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.name, tc.text)
			nt, err := LoadDelimited(old, p, tc.opts)
			if err == nil {
				t.Fatalf("loaded %d rows, want an error", nt.Rows)
			}
			if want := "load " + p + " " + tc.want; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error\n%s\nwant\n%s", err, want)
			}
			sameImage(t, before, old)
		})
	}

	missing := filepath.Join(t.TempDir(), "nope.tbl")
	if _, err := LoadDelimited(old, missing, tbl); err == nil || err.Error() != "load "+missing+": no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
	if _, err := LoadDelimited(old, t.TempDir(), tbl); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	if _, err := LoadDelimited(old, good, DelimitedOptions{Delimiter: '|', Enclosure: '|'}); err == nil {
		t.Errorf("delimiter == enclosure accepted")
	}
	sameImage(t, before, old)
}

// TestLoadFirstErrorInFileOrder puts bad lines in many blocks parsed in
// parallel; the earliest one must be reported, every time.
func TestLoadFirstErrorInFileOrder(t *testing.T) {
	setBlockSize(t, 1<<10)
	var sb strings.Builder
	for i := 1; i <= 20000; i++ {
		switch i {
		case 5003, 9000, 15000:
			fmt.Fprintf(&sb, "%d|bad%d|\n", i, i)
		default:
			fmt.Fprintf(&sb, "%d|%d|\n", i, i)
		}
	}
	p := writeFile(t, "errs.tbl", sb.String())
	fields := []Field{{Name: "a", Type: TInt32}, {Name: "b", Type: TInt32}}
	for i := 0; i < 10; i++ {
		_, err := LoadDelimited(NewEmptyTable("e", fields), p, DelimitedOptions{Delimiter: '|', Workers: 4})
		if want := fmt.Sprintf(`load %s line 5003, column 2 (b): "bad5003" is not a valid INT`, p); err == nil || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	}
}

// TestLoadBlockBoundaries loads the same text with blocks of many sizes
// (records split at every possible place, records longer than a block,
// more rows than a statistics chunk) and compares with one big block.
func TestLoadBlockBoundaries(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var plain, quoted strings.Builder
	quoted.WriteString("id,name,amount\n")
	n := ChunkRows + 1234
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("s%d", r.IntN(500))
		if i%1000 == 7 {
			name = strings.Repeat("long", 300) // longer than the smallest block
		}
		fmt.Fprintf(&plain, "%d|%s|%d.%02d|\n", i, name, r.IntN(10000), r.IntN(100))
		q := name
		if i%3 == 0 {
			q = fmt.Sprintf("\"%s,\"\"x\"\"\n\"", name)
			name += ",\"x\"\n"
		}
		fmt.Fprintf(&quoted, "%d,%s,%d\n", i, q, i%100)
		_ = name
	}
	fields := mixedFields()[:3]
	pp := writeFile(t, "p.tbl", plain.String())
	qp := writeFile(t, "q.csv", quoted.String())
	var wantP, wantQ []string
	for _, size := range []int{64 << 20, 1 << 20, 4099, 1000, 97} {
		setBlockSize(t, size)
		gotP := rows(mustLoad(t, NewEmptyTable("p", fields), pp, tbl))
		gotQ := rows(mustLoad(t, NewEmptyTable("q", fields), qp, csvOpts))
		if wantP == nil {
			wantP, wantQ = gotP, gotQ
			if len(gotP) != n || len(gotQ) != n {
				t.Fatalf("rows %d, %d, want %d", len(gotP), len(gotQ), n)
			}
			continue
		}
		if strings.Join(gotP, "\n") != strings.Join(wantP, "\n") {
			t.Errorf("block size %d: the .tbl load differs", size)
		}
		if strings.Join(gotQ, "\n") != strings.Join(wantQ, "\n") {
			t.Errorf("block size %d: the CSV load differs", size)
		}
	}
	if !strings.HasPrefix(wantQ[3], "3|s") || !strings.HasSuffix(wantQ[3], ",\"x\"\n|3.00") {
		t.Errorf("quoted row 3 = %q", wantQ[3])
	}
}

// TestLoadAppendTwice appends files whose strings overlap and interleave:
// the dictionary stays sorted and distinct, the old rows are re-coded, and
// every snapshot keeps its own values.
func TestLoadAppendTwice(t *testing.T) {
	fields := mixedFields()[:2]
	t0 := NewEmptyTable("s", fields)
	a := writeFile(t, "a.tbl", "1|delta|\n2|bravo|\n3|delta|\n4|\\N|\n")
	b := writeFile(t, "b.tbl", "5|alpha|\n6|delta|\n7|charlie|\n8|echo|\n9||\n")
	t1 := mustLoad(t, t0, a, tbl)
	im1 := image(t1)
	t2 := mustLoad(t, t1, b, tbl)
	sameImage(t, im1, t1)
	if t0.Rows != 0 || t0.Columns[1].Dict.Len() != 0 {
		t.Errorf("the empty table changed")
	}
	eqLines(t, rows(t1), []string{"1|delta", "2|bravo", "3|delta", "4|NULL"})
	eqLines(t, rows(t2), []string{"1|delta", "2|bravo", "3|delta", "4|NULL", "5|alpha", "6|delta", "7|charlie", "8|echo", "9|"})
	if got := strings.Join(t2.Columns[1].Dict.Values, ","); got != ",alpha,bravo,charlie,delta,echo" {
		t.Errorf("dictionary %q", got)
	}
	// Codes order as strings do.
	c := t2.Columns[1]
	for i := 0; i+1 < t2.Rows; i++ {
		for j := i + 1; j < t2.Rows; j++ {
			if c.IsNull(i) || c.IsNull(j) {
				continue
			}
			if (c.I32[i] < c.I32[j]) != (c.StringAt(i) < c.StringAt(j)) {
				t.Fatalf("codes of rows %d, %d do not order as their strings", i, j)
			}
		}
	}
	checkStatsExact(t, t2)
	// A third load with no new string leaves codes alone.
	t3 := mustLoad(t, t2, writeFile(t, "c.tbl", "10|echo|\n"), tbl)
	if t3.Columns[1].I32[0] != t2.Columns[1].I32[0] || t3.Rows != 10 {
		t.Errorf("re-coded without new strings")
	}
}

// TestLoadEmpty: empty files, headers only, nothing but blank lines.
func TestLoadEmpty(t *testing.T) {
	old := mustLoad(t, NewEmptyTable("m", mixedFields()[:2]), writeFile(t, "a.tbl", "1|a|\n"), tbl)
	for _, text := range []string{"", "\n\n", "header only\n", "header only"} {
		opts := tbl
		if strings.HasPrefix(text, "header") {
			opts.IgnoreLines = 1
		}
		nt := mustLoad(t, old, writeFile(t, "e.tbl", text), opts)
		eqLines(t, rows(nt), []string{"1|a"})
	}
	nt := mustLoad(t, old, writeFile(t, "h.tbl", "h1\nh2\n2|b|\n"), DelimitedOptions{Delimiter: '|', IgnoreLines: 5})
	eqLines(t, rows(nt), []string{"1|a"})
}

// TestLoadCSVAgreesWithArrow compares the enclosed form with Arrow's CSV
// reader on random RFC 4180 text full of quotes, delimiters and line
// breaks.
func TestLoadCSVAgreesWithArrow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "b", ",", "\"", "\n", " ", "é", "\\", "N", "|"}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	const ncol = 4
	for i := 0; i < 3000; i++ {
		rec := make([]string, ncol)
		for c := range rec {
			var sb strings.Builder
			for k := r.IntN(8); k > 0; k-- {
				sb.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			rec[c] = sb.String()
			if rec[c] == `\N` || rec[c] == "" {
				rec[c] = "x" // the NULL marker and empty lines differ by design
			}
		}
		w.Write(rec)
	}
	w.Flush()
	p := writeFile(t, "r.csv", buf.String())
	fields := make([]Field, ncol)
	arrowFields := make([]arrow.Field, ncol)
	for c := range fields {
		fields[c] = Field{Name: fmt.Sprint("c", c), Type: TString}
		arrowFields[c] = arrow.Field{Name: fields[c].Name, Type: arrow.BinaryTypes.String}
	}
	setBlockSize(t, 2000)
	got := mustLoad(t, NewEmptyTable("r", fields), p, DelimitedOptions{Delimiter: ',', Enclosure: '"'})

	f, _ := os.Open(p)
	defer f.Close()
	rd := arrowcsv.NewReader(f, arrow.NewSchema(arrowFields, nil), arrowcsv.WithChunk(1000))
	defer rd.Release()
	row := 0
	for rd.Next() {
		rec := rd.Record()
		for i := 0; i < int(rec.NumRows()); i++ {
			for c := 0; c < ncol; c++ {
				want := rec.Column(c).(*array.String).Value(i)
				if g := cell(got, c, row); g != want {
					t.Fatalf("row %d column %d: %q, arrow reads %q", row, c, g, want)
				}
			}
			row++
		}
	}
	if rd.Err() != nil || row != got.Rows {
		t.Fatalf("arrow: %v, %d rows; loader %d rows", rd.Err(), row, got.Rows)
	}
}

// FuzzLoadDelimited: no input may panic the loader; a load that succeeds
// yields a consistent table; and cutting the text into tiny blocks parsed
// in parallel gives the same table, or the same first error, as one block.
func FuzzLoadDelimited(f *testing.F) {
	f.Add([]byte("1|a|1995-01-01|\n2|b|1995-01-02|\n"), false)
	f.Add([]byte("id,s,d\n1,\"a,\"\"b\",1995-01-01\n"), true)
	f.Add([]byte("1,\"open\n"), true)
	fields := []Field{{Name: "i", Type: TInt32}, {Name: "s", Type: TString}, {Name: "d", Type: TDate}}
	saved := loadBlockSize
	f.Cleanup(func() { loadBlockSize = saved })
	f.Fuzz(func(t *testing.T, data []byte, quoted bool) {
		p := filepath.Join(t.TempDir(), "f.txt")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := DelimitedOptions{Delimiter: '|', Workers: 3}
		if quoted {
			opts = DelimitedOptions{Delimiter: ',', Enclosure: '"', Workers: 3}
		}
		load := func(block int) (*Table, error) {
			loadBlockSize = block
			return LoadDelimited(NewEmptyTable("f", fields), p, opts)
		}
		nt, err := load(64)
		one, oneErr := load(1 << 20)
		if (err == nil) != (oneErr == nil) || (err != nil && err.Error() != oneErr.Error()) {
			t.Fatalf("small blocks: %v\none block: %v", err, oneErr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "load "+p) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if a, b := rows(nt), rows(one); strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("small blocks: %q\none block: %q", a, b)
		}
		for _, c := range nt.Columns {
			if c.Len != nt.Rows || len(c.I32) != nt.Rows {
				t.Fatalf("column of %d rows in a table of %d", c.Len, nt.Rows)
			}
		}
		d := nt.Columns[1].Dict.Values
		for i := 1; i < len(d); i++ {
			if d[i-1] >= d[i] {
				t.Fatalf("dictionary not sorted: %q", d)
			}
		}
	})
}
