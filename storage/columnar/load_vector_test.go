package columnar

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

func vectorFields() []Field {
	return []Field{
		{Name: "id", Type: TInt32, Nullable: true},
		{Name: "v", Type: Type{ID: Vector, Dim: 3}, Nullable: true},
		{Name: "w", Type: Type{ID: Vector}, Nullable: true},
	}
}

// CSV with quoted vectors, parsed in many small blocks so rows land out of
// order in the builders; VECTOR(3) rows are fixed slots, VECTOR rows vary.
func TestLoadVectorsDelimited(t *testing.T) {
	setBlockSize(t, 64)
	var sb strings.Builder
	var want []string
	for i := range 300 {
		v, w := fmt.Sprintf("[%d,%d.5,-%d]", i, i%7, i%3), "["+strings.Repeat("1,", i%4)+"0]"
		switch i % 10 {
		case 3:
			fmt.Fprintf(&sb, "%d,\\N,\"%s\"\n", i, w)
			want = append(want, fmt.Sprintf("%d|NULL|%s", i, strings.ReplaceAll(w, " ", "")))
			continue
		case 5:
			w = "[]"
		}
		fmt.Fprintf(&sb, "%d,\"%s\",\"%s\"\n", i, strings.ReplaceAll(v, ",", ", "), w)
		want = append(want, fmt.Sprintf("%d|%s|%s", i, v, w)) // -0 stays -0, as TiDB prints it
	}
	path := writeFile(t, "v.csv", sb.String())
	tb := mustLoad(t, NewEmptyTable("vt", vectorFields()), path, DelimitedOptions{Enclosure: '"'})
	eqLines(t, rows(tb), want)

	for _, tc := range []struct{ text, err string }{
		{"1,\"[1,2]\",\\N\n", "line 2, column 2 (v): vector has 2 dimensions, does not fit VECTOR(3)"},
		{"1,\"[1,2,NaN]\",\\N\n", "line 2, column 2 (v): NaN not allowed in vector"},
		{"1,\\N,\"[1,-inf]\"\n", "line 2, column 3 (w): infinite value not allowed in vector"},
		{"1,\"[1,2,x]\",\\N\n", `line 2, column 2 (v): invalid vector text "[1,2,x]"`},
		{"1,\"[1,2,3e40]\",\\N\n", "line 2, column 2 (v): vector element 3e40 is out of range for float32"},
	} {
		before := image(tb)
		p := writeFile(t, "bad.csv", "7,\"[0,0,0]\",\"[1]\"\n"+tc.text)
		_, err := LoadDelimited(tb, p, DelimitedOptions{Enclosure: '"'})
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.err)
		}
		sameImage(t, before, tb)
	}
}

// Parquet lists of double (into VECTOR(3), NULL lists included) and of
// float (into VECTOR); bad elements name the row. (pqarrow v15 writes
// fixed-size lists with NULL elements, so this test cannot make one;
// typeOfArrow's mapping of them is checked directly.)
func TestLoadVectorsParquet(t *testing.T) {
	fields := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "v", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
		{Name: "w", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32)},
	}
	build := func(vs [][]float64) arrow.Record {
		return record(fields, func(b *array.RecordBuilder) {
			vb, wb := b.Field(1).(*array.ListBuilder), b.Field(2).(*array.ListBuilder)
			for i := range vs {
				b.Field(0).(*array.Int32Builder).Append(int32(i))
				if vs[i] == nil {
					vb.AppendNull()
				} else {
					vb.Append(true)
					vb.ValueBuilder().(*array.Float64Builder).AppendValues(vs[i], nil)
				}
				wb.Append(true)
				wb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{float32(i), 0.5}, nil)
			}
		})
	}
	rec := build([][]float64{{1, 2, 3}, nil, {0.5, -1, 1e3}})
	defer rec.Release()
	tb, err := LoadParquet(NewEmptyTable("vt", vectorFields()), writeParquet(t, "v.parquet", 2, rec), ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eqLines(t, rows(tb), []string{"0|[1,2,3]|[0,0.5]", "1|NULL|[1,0.5]", "2|[0.5,-1,1000]|[2,0.5]"})
	fs, err := ParquetFields(writeParquet(t, "v2.parquet", 2, rec))
	if err != nil || fs[1].Type != (Type{ID: Vector}) || fs[2].Type != (Type{ID: Vector}) {
		t.Errorf("read_parquet types %+v, %v", fs, err)
	}
	if ft, ok := typeOfArrow(arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32)); !ok || ft != (Type{ID: Vector, Dim: 4}) {
		t.Errorf("a fixed-size list of 4 floats types as %v", ft)
	}

	for _, tc := range []struct {
		v   []float64
		err string
	}{
		{[]float64{1, math.NaN(), 2}, "row 2, column 2 (v): NaN not allowed in vector"},
		{[]float64{1, math.Inf(-1), 2}, "row 2, column 2 (v): infinite value not allowed in vector"},
		{[]float64{1, 1e300, 2}, "row 2, column 2 (v): vector element 1e+300 is out of range for float32"},
	} {
		bad := build([][]float64{{0, 0, 0}, tc.v})
		before := image(tb)
		_, err := LoadParquet(tb, writeParquet(t, "bad.parquet", 10, bad), ParquetOptions{})
		bad.Release()
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("error %v, want %q", err, tc.err)
		}
		sameImage(t, before, tb)
	}
	// A list of 3 into VECTOR(2).
	short := []Field{{Name: "id", Type: TInt32}, {Name: "v", Type: Type{ID: Vector, Dim: 2}, Nullable: true}, {Name: "w", Type: Type{ID: Vector}, Nullable: true}}
	_, err = LoadParquet(NewEmptyTable("s", short), writeParquet(t, "v3.parquet", 2, rec), ParquetOptions{})
	if err == nil || !strings.Contains(err.Error(), "row 1, column 2 (v): vector has 3 dimensions, does not fit VECTOR(2)") {
		t.Errorf("dimension error %v", err)
	}
}

// Strings in the text form load into vector columns too (EXPORT DATABASE
// and other engines' dumps write them), with the same errors.
func TestLoadVectorsParquetText(t *testing.T) {
	fields := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "v", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "w", Type: arrow.BinaryTypes.String, Nullable: true},
	}
	build := func(v2 string) arrow.Record {
		return record(fields, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int32Builder).AppendValues([]int32{0, 1, 2}, nil)
			b.Field(1).(*array.StringBuilder).AppendValues([]string{"[1,2,3]", "", v2}, []bool{true, false, true})
			b.Field(2).(*array.StringBuilder).AppendValues([]string{"[]", "[0.5]", ""}, []bool{true, true, false})
		})
	}
	rec := build("[ 4, 5, 6e0 ]")
	defer rec.Release()
	tb, err := LoadParquet(NewEmptyTable("vt", vectorFields()), writeParquet(t, "t.parquet", 2, rec), ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eqLines(t, rows(tb), []string{"0|[1,2,3]|[]", "1|NULL|[0.5]", "2|[4,5,6]|NULL"})
	bad := build("[4,5]")
	defer bad.Release()
	before := image(tb)
	_, err = LoadParquet(tb, writeParquet(t, "bad.parquet", 2, bad), ParquetOptions{})
	if err == nil || !strings.Contains(err.Error(), "row 3, column 2 (v): vector has 2 dimensions, does not fit VECTOR(3)") {
		t.Errorf("error %v", err)
	}
	sameImage(t, before, tb)
}
