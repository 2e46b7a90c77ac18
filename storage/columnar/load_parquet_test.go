package columnar

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// writeParquet writes records to a Parquet file in row groups of
// rowGroup rows.
func writeParquet(t testing.TB, name string, rowGroup int64, recs ...arrow.Record) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	tbl := array.NewTableFromRecords(recs[0].Schema(), recs)
	defer tbl.Release()
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(true))
	// WriteTable closes f.
	if err := pqarrow.WriteTable(tbl, f, rowGroup, props, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	return p
}

// record builds one record batch; fill appends rows through the builders.
func record(fields []arrow.Field, fill func(b *array.RecordBuilder)) arrow.Record {
	b := array.NewRecordBuilder(memory.NewGoAllocator(), arrow.NewSchema(fields, nil))
	defer b.Release()
	fill(b)
	return b.NewRecord()
}

func TestParquetRoundTrip(t *testing.T) {
	fields := []arrow.Field{ // another order and case than the table's, plus a column it lacks
		{Name: "Score", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "extra", Type: arrow.PrimitiveTypes.Int64},
		{Name: "NAME", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "id", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 9, Scale: 3}, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "big", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
	}
	rec := record(fields, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Float32Builder).AppendValues([]float32{0.5, 2, -1}, []bool{true, false, true})
		b.Field(1).(*array.Int64Builder).AppendValues([]int64{9, 9, 9}, nil)
		b.Field(2).(*array.StringBuilder).AppendValues([]string{"kiwi", "", "apple"}, []bool{true, false, true})
		b.Field(3).(*array.Uint8Builder).AppendValues([]uint8{10, 11, 255}, nil)
		b.Field(4).(*array.Decimal128Builder).AppendValues([]decimal128.Num{
			decimal128.FromI64(1235), decimal128.FromI64(-1005), decimal128.FromI64(0)}, []bool{true, true, false})
		b.Field(5).(*array.Date32Builder).AppendValues([]arrow.Date32{0, 9179, -1}, nil)
		b.Field(6).(*array.Int64Builder).AppendValues([]int64{1 << 40, 0, -5}, []bool{true, true, false})
		b.Field(7).(*array.BooleanBuilder).AppendValues([]bool{true, false, true}, nil)
	})
	defer rec.Release()
	p := writeParquet(t, "rt.parquet", 2, rec)

	old := mustLoad(t, NewEmptyTable("m", mixedFields()), writeFile(t, "a.tbl", "1|pear|1.00|1995-01-01|1|1|1|\n"), tbl)
	before := image(old)
	nt, err := LoadParquet(old, p, ParquetOptions{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	sameImage(t, before, old)
	eqLines(t, rows(nt), []string{
		"1|pear|1.00|1995-01-01|1|1|1",
		"10|kiwi|1.24|1970-01-01|1099511627776|1|0.5",
		"11|NULL|-1.01|1995-02-18|0|0|NULL",
		"255|apple|NULL|1969-12-31|NULL|1|-1",
	})
	if got := strings.Join(nt.Columns[1].Dict.Values, ","); got != "apple,kiwi,pear" {
		t.Errorf("dictionary %s", got)
	}
	checkStatsExact(t, nt)

	// Strings stored plainly (no dictionary encoding), and large_string.
	plain := record([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.LargeString}, {Name: "t", Type: arrow.BinaryTypes.String}},
		func(b *array.RecordBuilder) {
			b.Field(0).(*array.LargeStringBuilder).AppendValues([]string{"b", "a"}, nil)
			b.Field(1).(*array.StringBuilder).AppendValues([]string{"y", "x"}, nil)
		})
	defer plain.Release()
	pf, _ := os.Create(filepath.Join(t.TempDir(), "plain.parquet"))
	tab := array.NewTableFromRecords(plain.Schema(), []arrow.Record{plain})
	defer tab.Release()
	if err := pqarrow.WriteTable(tab, pf, 10, parquet.NewWriterProperties(parquet.WithDictionaryDefault(false)), pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	st, err := LoadParquet(NewEmptyTable("s", []Field{{Name: "s", Type: TString}, {Name: "t", Type: TString}}), pf.Name(), ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eqLines(t, rows(st), []string{"b|y", "a|x"})
}

// TestParquetDictionaryColumn reads a column stored with its Arrow
// dictionary type (pqarrow keeps the Arrow schema in the file).
func TestParquetDictionaryColumn(t *testing.T) {
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	rec := record([]arrow.Field{{Name: "s", Type: dt, Nullable: true}}, func(b *array.RecordBuilder) {
		db := b.Field(0).(*array.BinaryDictionaryBuilder)
		for _, s := range []string{"red", "green", "red", "", "blue"} {
			if s == "" {
				db.AppendNull()
			} else if err := db.AppendString(s); err != nil {
				t.Fatal(err)
			}
		}
	})
	defer rec.Release()
	p := filepath.Join(t.TempDir(), "dict.parquet")
	f, _ := os.Create(p)
	tab := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	defer tab.Release()
	if err := pqarrow.WriteTable(tab, f, 3, parquet.NewWriterProperties(),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())); err != nil {
		t.Fatal(err)
	}
	nt, err := LoadParquet(NewEmptyTable("d", []Field{{Name: "S", Type: TString, Nullable: true}}), p, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eqLines(t, rows(nt), []string{"red", "green", "red", "NULL", "blue"})
}

func TestParquetErrors(t *testing.T) {
	const n = 1500
	rec := record([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 20, Scale: 2}},
	}, func(b *array.RecordBuilder) {
		for i := 1; i <= n; i++ {
			id := int64(i)
			if i == n {
				id = 3000000000
			}
			b.Field(0).(*array.Int64Builder).Append(id)
			b.Field(1).(*array.StringBuilder).Append("x")
			amount := int64(i)
			if i == 1234 {
				amount = 123456789 // 1234567.89 does not fit DECIMAL(7,2)
			}
			b.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(amount))
		}
	})
	defer rec.Release()
	p := writeParquet(t, "bad.parquet", 1000, rec)
	old := mustLoad(t, NewEmptyTable("m", mixedFields()[:3]), writeFile(t, "a.tbl", "1|pear|1.00|\n"), tbl)
	before := image(old)

	cases := []struct {
		name   string
		fields []Field
		path   string
		want   string
	}{
		{"decimal first", mixedFields()[:3], p, "load " + p + " row 1234, column 3 (amount): 1234567.89 is out of range for DECIMAL(7,2)"},
		{"int range", mixedFields()[:1], p, "load " + p + " row 1500, column 1 (id): 3000000000 is out of range for INT"},
		{"missing column", []Field{{Name: "id", Type: TInt64}, {Name: "nope", Type: TInt32}}, p,
			"load " + p + ": column 2 (nope) is not in the file (it has id, name, amount)"},
		{"bad type", []Field{{Name: "name", Type: TInt32}}, p,
			"load " + p + ": column 1 (name): cannot load Parquet type utf8 into INT"},
		{"not parquet", mixedFields()[:1], writeFile(t, "x.parquet", "1|2|3\n"), "load "},
		{"missing file", mixedFields()[:1], filepath.Join(t.TempDir(), "none.parquet"), "no such file or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := old
			if len(tc.fields) != 3 {
				base = NewEmptyTable("m", tc.fields)
			}
			nt, err := LoadParquet(base, tc.path, ParquetOptions{BatchSize: 512})
			if err == nil {
				t.Fatalf("loaded %d rows", nt.Rows)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "load "+tc.path) {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
		})
	}
	sameImage(t, before, old)
}
