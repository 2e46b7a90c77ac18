package columnar

import (
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// TestParquetUnsigned: a uint64 Parquet column loads into BIGINT UNSIGNED
// with every value kept (2^64-1 included) and is sniffed as that type;
// into INT UNSIGNED a value past 2^32-1, and from a signed column a
// negative value, are out of range, naming row and column.
func TestParquetUnsigned(t *testing.T) {
	rec := record([]arrow.Field{
		{Name: "u", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "s", Type: arrow.PrimitiveTypes.Int64},
	}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Uint64Builder).AppendValues([]uint64{18446744073709551615, 0, 7}, []bool{true, true, false})
		b.Field(1).(*array.Int64Builder).AppendValues([]int64{1, -2, 3}, nil)
	})
	defer rec.Release()
	p := writeParquet(t, "u.parquet", 10, rec)
	fields, err := ParquetFields(p)
	if err != nil || fields[0].Type != TUint64 {
		t.Fatalf("sniffed %v, %v; want BIGINT UNSIGNED", fields, err)
	}
	nt, err := LoadParquet(NewEmptyTable("u", []Field{{Name: "u", Type: TUint64, Nullable: true}}), p, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := nt.Columns[0]
	if uint64(c.I64[0]) != 18446744073709551615 || c.I64[1] != 0 || !c.IsNull(2) {
		t.Errorf("values %v (nulls %v)", c.I64, c.IsNull(2))
	}
	for _, tc := range []struct {
		field Field
		want  string
	}{
		{Field{Name: "u", Type: TUint32, Nullable: true}, "row 1, column 1 (u): 18446744073709551615 is out of range for INT UNSIGNED"},
		{Field{Name: "s", Type: TUint64}, "row 2, column 1 (s): -2 is out of range for BIGINT UNSIGNED"},
		{Field{Name: "u", Type: TInt64, Nullable: true}, "row 1, column 1 (u): 18446744073709551615 is out of range for BIGINT"},
	} {
		_, err := LoadParquet(NewEmptyTable("x", []Field{tc.field}), p, ParquetOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.field.Type, err, tc.want)
		}
	}
}
