package ssbgen

import (
	"io"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// parquetRowGroup is the row-group length of the Parquet files.
const parquetRowGroup = 1 << 20

func arrowSchema(specs []colSpec) *arrow.Schema {
	fields := make([]arrow.Field, len(specs))
	for i, s := range specs {
		var t arrow.DataType
		switch s.kind {
		case kindInt32:
			t = arrow.PrimitiveTypes.Int32
		case kindInt64:
			t = arrow.PrimitiveTypes.Int64
		default:
			t = arrow.BinaryTypes.String
		}
		fields[i] = arrow.Field{Name: s.name, Type: t}
	}
	return arrow.NewSchema(fields, nil)
}

// toRecord copies the batch into an Arrow record, so the batch can be
// reused while the record waits for its turn to be written.
func toRecord(schema *arrow.Schema, bt *batch) arrow.Record {
	n := bt.rows
	cols := make([]arrow.Array, len(bt.cols))
	for i, s := range bt.specs {
		c := &bt.cols[i]
		var data arrow.ArrayData
		switch s.kind {
		case kindInt32:
			v := make([]int32, n)
			for r, x := range c.ints {
				v[r] = int32(x)
			}
			data = array.NewData(arrow.PrimitiveTypes.Int32, n,
				[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v))}, nil, 0, 0)
		case kindInt64:
			v := append([]int64(nil), c.ints...)
			data = array.NewData(arrow.PrimitiveTypes.Int64, n,
				[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(v))}, nil, 0, 0)
		default:
			offs := append([]int32(nil), c.offs...)
			bytes := append([]byte(nil), c.data...)
			data = array.NewData(arrow.BinaryTypes.String, n,
				[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)),
					memory.NewBufferBytes(bytes)}, nil, 0, 0)
		}
		cols[i] = array.MakeFromData(data)
		data.Release()
	}
	rec := array.NewRecord(schema, cols, int64(n))
	for _, a := range cols {
		a.Release()
	}
	return rec
}

// newParquetWriter writes Snappy-compressed row groups of parquetRowGroup
// rows. Dictionary encoding, which costs a hash lookup per value, is kept for
// the columns of small domains and turned off for keys and prices, whose
// dictionaries would overflow and fall back to plain encoding anyway; that
// halves lineorder's writing time.
func newParquetWriter(specs []colSpec, schema *arrow.Schema, w io.Writer) (*pqarrow.FileWriter, error) {
	opts := []parquet.WriterProperty{
		parquet.WithMaxRowGroupLength(parquetRowGroup),
		parquet.WithCompression(compress.Codecs.Snappy),
	}
	for _, s := range specs {
		if s.kind == kindInt64 || strings.HasSuffix(s.name, "key") {
			opts = append(opts, parquet.WithDictionaryFor(s.name, false))
		}
	}
	return pqarrow.NewFileWriter(schema, w, parquet.NewWriterProperties(opts...), pqarrow.DefaultWriterProps())
}
