package columnar

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"gpusql/internal/decimal"
)

// ReadCSV and ReadParquet give the table a query reads straight from files
// (read_csv, read_parquet, FROM 'f.csv'): the schema comes from the first
// file (sniffed for CSV, the file's own for Parquet), and every file the
// pattern names is loaded, in name order, through the same loaders as LOAD
// DATA and IMPORT INTO, so executors see an ordinary table. The table is
// built on the Go heap, not in the default (on GPU builds pinned) memory:
// it belongs to one statement, nothing frees columns explicitly, and the
// garbage collector reclaims only heap memory.

// Glob expands a path that may hold wildcards (*, ?, [...]) into the files
// it names, sorted; a plain path, or one naming an existing file (data[1].csv),
// is returned as it is.
func Glob(pattern string) ([]string, error) {
	if _, err := os.Stat(pattern); err == nil || !strings.ContainsAny(pattern, "*?[") {
		return []string{pattern}, nil
	}
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", pattern, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("read %s: no file matches", pattern)
	}
	sort.Strings(paths)
	return paths, nil
}

// ReadCSV loads the delimited files a pattern names into a new table.
func ReadCSV(name, pattern string, opts SniffOptions) (*Table, error) {
	paths, err := Glob(pattern)
	if err != nil {
		return nil, err
	}
	d, err := SniffCSV(paths[0], opts)
	if err != nil {
		return nil, err
	}
	t := NewEmptyTable(name, d.Fields)
	for _, p := range paths {
		lo := DelimitedOptions{Delimiter: d.Delimiter, Enclosure: d.Quote, Alloc: HeapAllocator, Null: d.Null}
		if d.Header {
			lo.IgnoreLines = 1
		}
		if t, err = LoadDelimited(t, p, lo); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ReadParquet loads the Parquet files a pattern names into a new table.
func ReadParquet(name, pattern string) (*Table, error) {
	paths, err := Glob(pattern)
	if err != nil {
		return nil, err
	}
	fields, err := ParquetFields(paths[0])
	if err != nil {
		return nil, err
	}
	t := NewEmptyTable(name, fields)
	for _, p := range paths {
		if t, err = LoadParquet(t, p, ParquetOptions{Alloc: HeapAllocator}); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ParquetFields is the table schema of a Parquet file's top-level columns.
func ParquetFields(path string) ([]Field, error) {
	fail := func(err error) ([]Field, error) { return nil, fmt.Errorf("read %s: %w", path, err) }
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return fail(unwrapPathError(err))
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return fail(err)
	}
	var fields []Field
	for i, f := range fr.Manifest.Fields {
		t, ok := typeOfArrow(f.Field.Type)
		if leaf := leafOf(f); !ok || !leaf.IsLeaf() {
			return fail(fmt.Errorf("column %d (%s): Parquet type %s is not supported", i+1, f.Field.Name, f.Field.Type))
		}
		fields = append(fields, Field{Name: f.Field.Name, Type: t, Nullable: true})
	}
	if len(fields) == 0 {
		return fail(errors.New("the file has no columns"))
	}
	return fields, nil
}

// typeOfArrow is the column type an Arrow type loads into.
func typeOfArrow(dt arrow.DataType) (Type, bool) {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		dt = d.ValueType
	}
	if isArrowFloatList(dt) {
		// A list of floats is a vector: of its fixed size when it has one.
		if l, ok := dt.(*arrow.FixedSizeListType); ok && l.Len() <= MaxVectorDim {
			return Type{ID: Vector, Dim: int(l.Len())}, true
		}
		return Type{ID: Vector}, true
	}
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.UINT8, arrow.UINT16:
		return TInt32, true
	case arrow.INT64:
		return TInt64, true
	case arrow.UINT32:
		return TUint32, true
	case arrow.UINT64:
		return TUint64, true
	case arrow.FLOAT32, arrow.FLOAT64:
		return TFloat64, true
	case arrow.DECIMAL128:
		d := dt.(*arrow.Decimal128Type)
		if d.Scale > decimal.MaxScale || d.Scale < 0 {
			return TFloat64, false
		}
		return TDecimal(int(d.Precision), int(d.Scale)), true
	case arrow.DECIMAL256:
		d := dt.(*arrow.Decimal256Type)
		if d.Scale > decimal.MaxScale || d.Scale < 0 {
			return TFloat64, false
		}
		// decimal256(76, s), as EXPORT writes 58 to 65 digits (see
		// wide_decimal.go), holds DECIMAL(65, s) values; a larger value
		// fails the load's range check.
		return TDecimal(min(int(d.Precision), decimal.MaxPrecision), int(d.Scale)), true
	case arrow.DATE32, arrow.DATE64:
		return TDate, true
	case arrow.TIMESTAMP:
		// Every unit loads as DATETIME: seconds keep no fraction digits,
		// milliseconds three, micro- and nanoseconds six (nanoseconds round).
		fsp := map[arrow.TimeUnit]int{arrow.Second: 0, arrow.Millisecond: 3}[dt.(*arrow.TimestampType).Unit]
		if u := dt.(*arrow.TimestampType).Unit; u == arrow.Microsecond || u == arrow.Nanosecond {
			fsp = MaxFsp
		}
		return TDatetime(fsp), true
	case arrow.TIME32:
		if dt.(*arrow.Time32Type).Unit == arrow.Millisecond {
			return TTime(3), true
		}
		return TTime(0), true
	case arrow.TIME64:
		return TTime(MaxFsp), true
	case arrow.BOOL:
		return TBool, true
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return TString, true
	}
	return Type{}, false
}
