package export

import (
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// rowGroupRows is the number of rows per Parquet row group, and per Arrow
// record built for it, so an export holds one group's copy of the result
// at a time.
var rowGroupRows = 1 << 20

// WriteParquet writes r as a Snappy-compressed Parquet file through Arrow's
// pqarrow. Types map as the result's Arrow schema says (exec.ArrowType):
// DECIMAL keeps its precision and scale (up to 38 digits; past that it is
// decimal256 of precision 57 or 76), DATE is date32, BOOLEAN boolean.
// VARCHAR columns are written as Arrow dictionaries whose indices are the
// column's own codes and whose dictionary is its sorted dictionary, so the
// strings are never decoded per row and the file's pages stay
// dictionary-encoded; the Arrow schema is stored in the file, so Arrow
// readers (and LOAD/read_parquet here) get dictionary columns back.
// VECTOR columns are lists of float32 (Parquet LIST of FLOAT), which is
// what embedding tools write and what the Parquet loader reads back.
func WriteParquet(w io.Writer, r *exec.Result) error {
	fields := make([]arrow.Field, len(r.Columns))
	for i, c := range r.Columns {
		fields[i] = arrow.Field{Name: r.Names[i], Type: parquetType(c.Type), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(true),
		parquet.WithMaxRowGroupLength(int64(rowGroupRows)))
	// The file writer closes a sink that is an io.Closer; the caller
	// still has to sync and rename it.
	sink := struct{ io.Writer }{w}
	fw, err := pqarrow.NewFileWriter(schema, sink, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return err
	}
	for lo := 0; lo < r.Rows || lo == 0; lo += rowGroupRows {
		hi := min(lo+rowGroupRows, r.Rows)
		cols := make([]arrow.Array, len(r.Columns))
		for i, c := range r.Columns {
			cols[i] = columnArray(c, lo, hi)
		}
		rec := array.NewRecord(schema, cols, int64(hi-lo))
		for _, a := range cols {
			a.Release()
		}
		err = fw.Write(rec)
		rec.Release()
		if err != nil {
			fw.Close()
			return err
		}
		if hi >= r.Rows {
			break
		}
	}
	return fw.Close()
}

func parquetType(t columnar.Type) arrow.DataType {
	switch t.ID {
	case columnar.String:
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	case columnar.Vector:
		return arrow.ListOf(arrow.PrimitiveTypes.Float32)
	}
	if t.IsWide() && t.Precision > 38 {
		// A precision whose values fill whole 8-byte words, which every
		// Parquet reader decodes (columnar.Decimal256ExportPrecision).
		return &arrow.Decimal256Type{Precision: columnar.Decimal256ExportPrecision(t.Precision), Scale: int32(t.Scale)}
	}
	return exec.ArrowType(t)
}

// columnArray is rows [lo, hi) of c as an Arrow array.
func columnArray(c *columnar.Column, lo, hi int) arrow.Array {
	mem := memory.DefaultAllocator
	n := hi - lo
	valid := func(i int) bool { return !c.IsNull(lo + i) }
	switch c.Type.ID {
	case columnar.Int32:
		b := array.NewInt32Builder(mem)
		defer b.Release()
		b.AppendValues(c.I32[lo:hi], validity(c, lo, hi))
		return b.NewArray()
	case columnar.Int64:
		if c.Type.Unsigned {
			return exec.UnsignedArray(mem, c, lo, hi)
		}
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.AppendValues(c.I64[lo:hi], validity(c, lo, hi))
		return b.NewArray()
	case columnar.Float64:
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		b.AppendValues(c.F64[lo:hi], validity(c, lo, hi))
		return b.NewArray()
	case columnar.Decimal:
		if c.Type.IsWide() {
			return exec.WideDecimalArray(mem, c, lo, hi, parquetType(c.Type))
		}
		b := array.NewDecimal128Builder(mem, exec.ArrowType(c.Type).(*arrow.Decimal128Type))
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if valid(i) {
				b.Append(decimal128.FromI64(c.I64[lo+i]))
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
	case columnar.Date:
		b := array.NewDate32Builder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if valid(i) {
				b.Append(arrow.Date32(c.I32[lo+i]))
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
	case columnar.Datetime:
		return exec.TimestampArray(mem, c, lo, hi)
	case columnar.Time:
		return exec.Time64Array(mem, c, lo, hi)
	case columnar.Bool:
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if valid(i) {
				b.Append(c.I32[lo+i] != 0)
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
	case columnar.Vector:
		b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float32)
		defer b.Release()
		vb := b.ValueBuilder().(*array.Float32Builder)
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if valid(i) {
				b.Append(true)
				vb.AppendValues(c.VectorAt(lo+i), nil)
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
	default:
		return dictionaryArray(c, lo, hi)
	}
}

// dictionaryArray wraps a string column's codes and dictionary. NULL rows
// may carry any code; they are masked by the validity.
func dictionaryArray(c *columnar.Column, lo, hi int) arrow.Array {
	mem := memory.DefaultAllocator
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	codes := c.I32[lo:hi]
	if c.Dict.Len() == 0 {
		// Every row is NULL: the codes must still index a dictionary.
		codes = make([]int32, hi-lo)
	}
	ib.AppendValues(codes, validity(c, lo, hi))
	idx := ib.NewArray()
	defer idx.Release()
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues(c.Dict.Values, nil)
	if c.Dict.Len() == 0 {
		sb.Append("")
	}
	dict := sb.NewArray()
	defer dict.Release()
	return array.NewDictionaryArray(parquetType(c.Type), idx, dict)
}

// validity is the per-row validity AppendValues wants; nil without NULLs.
func validity(c *columnar.Column, lo, hi int) []bool {
	if !c.HasNulls() {
		return nil
	}
	v := make([]bool, hi-lo)
	for i := range v {
		v[i] = !c.IsNull(lo + i)
	}
	return v
}
