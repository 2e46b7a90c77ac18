package columnar

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

func TestFitString(t *testing.T) {
	v3 := Type{ID: String, Width: 3}
	b3 := Type{ID: String, Width: 3, Binary: true}
	cases := []struct {
		t        Type
		in, want string
		err      string
	}{
		{v3, "abc", "abc", ""},
		{v3, "héé", "héé", ""}, // 5 bytes, 3 characters
		{v3, "日本語", "日本語", ""},
		{v3, "", "", ""},
		{v3, "abcd", "", "Data too long for column 'c' at row 7 (t.c is VARCHAR(3), the value has 4 characters)"},
		{v3, "日本語x", "", "Data too long"},
		{v3, "ab     ", "ab ", ""}, // excess trailing spaces are cut
		{v3, "日本語  ", "日本語", ""},
		{v3, "ab  x", "", "Data too long"},
		{v3, "a\xffb", "", `Incorrect string value: '\xFFb' for column 'c' at row 7`},
		{v3, "ab\xc3", "", `Incorrect string value: '\xC3' for column 'c'`},
		{TString, "x\xf0\x9f\x98\x80 and \xff then more", "", `'\xFF then...'`},
		{TString, "\xed\xa0\x80", "", `'\xED\xA0\x80'`}, // a UTF-16 surrogate is not utf8mb4
		{TString, strings.Repeat("long ", 1000), strings.Repeat("long ", 1000), ""},
		{Type{ID: String, Width: 3, Char: true}, "a  ", "a", ""}, // CHAR keeps no trailing spaces
		{Type{ID: String, Width: 3, Char: true}, "a   \t ", "", "(t.c is CHAR(3), the value has 6 characters)"},
		{b3, "a\xffb", "a\xffb", ""}, // binary: bytes, no UTF-8
		{b3, "hé", "hé", ""},
		{b3, "héé", "", "(t.c is VARBINARY(3), the value has 5 bytes)"},
	}
	for _, tc := range cases {
		got, err := tc.t.FitString(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("%s FitString(%q) = %q, %v; want %q", tc.t, tc.in, got, err, tc.want)
			}
			continue
		}
		se, ok := err.(*StringError)
		if !ok {
			t.Errorf("%s FitString(%q) = %q, %v; want a *StringError", tc.t, tc.in, got, err)
			continue
		}
		if msg := se.At("t", "c", 7).Error(); !strings.Contains(msg, tc.err) {
			t.Errorf("%s FitString(%q): %s; want %s", tc.t, tc.in, msg, tc.err)
		}
	}
}

// The delimited loader checks strings per distinct value of a block but
// reports the first offending row in file order, across block boundaries,
// with its line and its row (record) number, and leaves the table as it was.
func TestLoadDelimitedStringChecks(t *testing.T) {
	fields := []Field{{Name: "id", Type: TInt32, Nullable: true}, {Name: "c", Type: Type{ID: String, Width: 3}, Nullable: true}}
	old := mustLoad(t, NewEmptyTable("v", fields), writeFile(t, "a.tbl", "1|abc|\n2|héé|\n"), tbl)
	before := image(old)
	var sb strings.Builder
	sb.WriteString("# header\n")
	for i := 1; i <= 400; i++ {
		v := []string{"x", "yy", "日本語", "zz  "}[i%4]
		switch i {
		case 250:
			v = "a\xffb"
		case 300:
			v = "long"
		}
		fmt.Fprintf(&sb, "%d|%s|\n", i, v)
	}
	p := writeFile(t, "b.tbl", sb.String())
	for _, block := range []int{64, 1 << 20} {
		setBlockSize(t, block)
		_, err := LoadDelimited(old, p, DelimitedOptions{Delimiter: '|', IgnoreLines: 1})
		want := `b.tbl line 251, column 2 (c): Incorrect string value: '\xFFb' for column 'c' at row 250`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("block %d: error %v, want %s", block, err, want)
		}
		sameImage(t, before, old)
	}
	// Without the bad byte, row 300 is too long.
	p = writeFile(t, "c.tbl", strings.Replace(sb.String(), "a\xffb", "ok", 1))
	_, err := LoadDelimited(old, p, DelimitedOptions{Delimiter: '|', IgnoreLines: 1})
	if want := "c.tbl line 301, column 2 (c): Data too long for column 'c' at row 300"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
	// Without either, the load succeeds and trailing spaces are cut.
	p = writeFile(t, "d.tbl", strings.Replace(strings.Replace(sb.String(), "a\xffb", "ok", 1), "long", "lon", 1))
	nt := mustLoad(t, old, p, DelimitedOptions{Delimiter: '|', IgnoreLines: 1})
	if got := cell(nt, 1, 2+2); got != "zz " {
		t.Errorf("row 4 = %q, want %q", got, "zz ")
	}
	if nt.Columns[1].Dict.Len() != 8 { // abc héé x yy 日本語 zz␠ ok lon
		t.Errorf("dictionary %q", nt.Columns[1].Dict.Values)
	}
	// CHAR(3) cuts all trailing spaces; values that become equal share an
	// entry of a still distinct dictionary.
	fields[1].Type.Char = true
	nt = mustLoad(t, NewEmptyTable("v", fields), writeFile(t, "e.tbl", "1|a|\n2|a  |\n3|b |\n4|a |\n5|b|\n"), tbl)
	if d := nt.Columns[1].Dict.Values; !slices.Equal(d, []string{"a", "b"}) {
		t.Errorf("CHAR(3): dictionary %q", d)
	}
	eqLines(t, rows(nt), []string{"1|a", "2|a", "3|b", "4|a", "5|b"})
}

// Parquet strings are checked once per dictionary entry (or, plain, once per
// distinct value); the error names the first row holding the bad value,
// counted across record batches.
func TestLoadParquetStringChecks(t *testing.T) {
	write := func(dt arrow.DataType, vals []string) string {
		rec := record([]arrow.Field{{Name: "c", Type: dt, Nullable: true}}, func(b *array.RecordBuilder) {
			for _, s := range vals {
				switch fb := b.Field(0).(type) {
				case *array.BinaryDictionaryBuilder:
					if err := fb.AppendString(s); err != nil {
						t.Fatal(err)
					}
				case *array.BinaryBuilder:
					fb.AppendString(s)
				}
			}
		})
		defer rec.Release()
		p := filepath.Join(t.TempDir(), "s.parquet")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		tab := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
		defer tab.Release()
		if err := pqarrow.WriteTable(tab, f, int64(len(vals)), parquet.NewWriterProperties(),
			pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())); err != nil {
			t.Fatal(dt, err)
		}
		return p
	}
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	vals := []string{"ab", "c", "ab", "c", "ab", "héé", "abcd", "ab"}
	for _, dt := range []arrow.DataType{dict, arrow.BinaryTypes.Binary} {
		typ := Type{ID: String, Width: 3}
		_, err := LoadParquet(NewEmptyTable("p", []Field{{Name: "c", Type: typ, Nullable: true}}), write(dt, vals), ParquetOptions{BatchSize: 3})
		if want := "row 7, column 1 (c): Data too long for column 'c' at row 7"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %s", dt, err, want)
		}
		bad := append([]string(nil), vals...)
		bad[6] = "a\xff"
		_, err = LoadParquet(NewEmptyTable("p", []Field{{Name: "c", Type: typ, Nullable: true}}), write(dt, bad), ParquetOptions{BatchSize: 3})
		if want := `row 7, column 1 (c): Incorrect string value: '\xFF' for column 'c' at row 7`; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %s", dt, err, want)
		}
		// CHAR(3) cuts trailing spaces: "c" and "c  " are one entry.
		ch := Type{ID: String, Width: 3, Char: true}
		nt, err := LoadParquet(NewEmptyTable("p", []Field{{Name: "c", Type: ch, Nullable: true}}), write(dt, []string{"c  ", "ab", "c", "c ", "ab  "}), ParquetOptions{BatchSize: 3})
		if err != nil {
			t.Fatal(err)
		}
		if d := nt.Columns[0].Dict.Values; !slices.Equal(d, []string{"ab", "c"}) {
			t.Errorf("%s CHAR(3): dictionary %q", dt, d)
		}
		eqLines(t, rows(nt), []string{"c", "ab", "c", "c", "ab"})
		typ.Binary = true // VARBINARY(3): bytes, so 'héé' (5) is too long
		_, err = LoadParquet(NewEmptyTable("p", []Field{{Name: "c", Type: typ, Nullable: true}}), write(dt, bad), ParquetOptions{BatchSize: 3})
		if want := "row 6, column 1 (c): Data too long"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s binary: error %v, want %s", dt, err, want)
		}
	}
}
