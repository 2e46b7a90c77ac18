package columnar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// ParquetOptions tunes LoadParquet.
type ParquetOptions struct {
	// BatchSize is the number of rows decoded per record batch; 0 means
	// 4*ChunkRows (larger batches amortize pqarrow's per-batch buffers).
	BatchSize int
	// Alloc is where the new columns live; nil means the default allocator.
	Alloc Allocator
	// Progress, when set, is called from one goroutine after each row
	// group is decoded with the rows read so far and the file's rows.
	Progress func(done, total int64)
}

// LoadParquet returns a new table holding t's rows followed by the rows of
// the Parquet file at path; t itself is not changed.
//
// Columns are matched to t's columns by name, ignoring case; the file may
// have more columns (they are not read) but not fewer. Parquet columns
// convert to the table's types where no value can be misread: integers of
// any width to INT or BIGINT (values checked against the range), integers,
// float and double to DOUBLE, integers and decimal128 to DECIMAL (rescaled, rounding
// half away from zero, checked against the precision), date32/date64 to
// DATE, boolean to BOOLEAN, and string, large_string, binary and
// dictionary-encoded strings to VARCHAR (checked against the width and
// UTF-8 once per distinct string, see FitString). NULLs come from the Arrow
// validity. Errors name the file, the 1-based row and the column:
//
//	load lineorder.parquet row 17, column 9 (lo_quantity): 3000000000 is out of range for INT
//
// Record batches are streamed through pqarrow, one row group at a time
// (columns decoded in parallel), while the previous batch is converted
// column by column on all cores. String columns are read as Arrow
// dictionaries, so a batch costs one map lookup per distinct string, not
// per row.
func LoadParquet(t *Table, path string, opts ParquetOptions) (*Table, error) {
	fail := func(err error) (*Table, error) { return nil, fmt.Errorf("load %s: %w", path, err) }
	if st, err := os.Stat(path); err != nil {
		return fail(unwrapPathError(err))
	} else if st.IsDir() {
		return fail(errors.New("is a directory"))
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return fail(fmt.Errorf("not a readable Parquet file: %w", err))
	}
	defer rdr.Close()

	batch := opts.BatchSize
	if batch <= 0 {
		batch = 4 * ChunkRows
	}
	props := pqarrow.ArrowReadProperties{Parallel: true, BatchSize: int64(batch)}
	probe, err := pqarrow.NewFileReader(rdr, props, memory.DefaultAllocator)
	if err != nil {
		return fail(err)
	}
	// Match the table's columns to the file's top-level fields.
	byName := map[string]int{}
	for i, f := range probe.Manifest.Fields {
		k := strings.ToLower(f.Field.Name)
		if _, dup := byName[k]; dup {
			byName[k] = -1
		} else {
			byName[k] = i
		}
	}
	leaves := make([]int, len(t.Fields))
	leafCol := map[int]int{} // leaf column index -> table column
	for c, f := range t.Fields {
		i, ok := byName[strings.ToLower(f.Name)]
		switch {
		case !ok:
			return fail(fmt.Errorf("column %d (%s) is not in the file (it has %s)", c+1, f.Name, fieldNames(probe.Manifest)))
		case i < 0:
			return fail(fmt.Errorf("column %d (%s): the file has several columns of that name", c+1, f.Name))
		}
		sf := probe.Manifest.Fields[i]
		if err := decimal256Readable(sf.Field.Type); err != nil {
			return fail(fmt.Errorf("column %d (%s): %w", c+1, f.Name, err))
		}
		leaf := leafOf(sf)
		if !leaf.IsLeaf() || !parquetConvertible(sf.Field.Type, f.Type) {
			return fail(fmt.Errorf("column %d (%s): cannot load Parquet type %s into %s", c+1, f.Name, sf.Field.Type, f.Type))
		}
		leaves[c] = leaf.ColIndex
		leafCol[leaf.ColIndex] = c
		if f.Type.ID == String {
			props.SetReadDict(sf.ColIndex, true)
		}
	}
	if len(t.Fields) == 0 {
		return fail(errors.New("the table has no columns"))
	}
	fr, err := pqarrow.NewFileReader(rdr, props, memory.DefaultAllocator)
	if err != nil {
		return fail(err)
	}
	// Read one row group at a time: a batch that spans row groups cannot
	// be read as a dictionary array (pqarrow does not implement changing
	// dictionaries within a batch).
	rgs := rdr.NumRowGroups()
	open := func(rg int) (pqarrow.RecordReader, error) {
		return fr.GetRecordReader(context.Background(), leaves, []int{rg})
	}
	var recCol []int // table column -> record column (records come in file order)
	if rgs > 0 {
		rr, err := open(0)
		if err != nil {
			return fail(err)
		}
		recCol = make([]int, len(t.Fields))
		for j, f := range rr.Schema().Fields() {
			i := byName[strings.ToLower(f.Name)]
			recCol[leafCol[leafOf(probe.Manifest.Fields[i]).ColIndex]] = j
		}
		rr.Release()
	}

	out := make([]*Builder, len(t.Fields))
	for c, f := range t.Fields {
		out[c] = newBuilderIn(opts.Alloc, f.Type)
		out[c].seed(t.Columns[c], int(rdr.NumRows()))
	}

	// Decode the next batch while this one is converted.
	recs := make(chan arrow.Record, 1)
	stop := make(chan struct{})
	var readErr error
	go func() {
		defer close(recs)
		var done int64
		for rg := 0; rg < rgs; rg++ {
			rr, err := open(rg)
			if err != nil {
				readErr = err
				return
			}
			for rr.Next() {
				rec := rr.Record()
				rec.Retain()
				select {
				case recs <- rec:
				case <-stop:
					rec.Release()
					rr.Release()
					return
				}
			}
			if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
				readErr = err
			}
			rr.Release()
			if opts.Progress != nil {
				done += rdr.MetaData().RowGroup(rg).NumRows()
				opts.Progress(done, rdr.NumRows())
			}
			if readErr != nil {
				return
			}
		}
	}()
	defer func() {
		close(stop)
		for rec := range recs {
			rec.Release()
		}
	}()

	rowsBefore := 0
	errs := make([]error, len(t.Fields))
	bad := make([]int, len(t.Fields))
	sem := make(chan struct{}, runtime.NumCPU())
	for rec := range recs {
		var wg sync.WaitGroup
		for c := range t.Fields {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				arr := rec.Column(recCol[c])
				if !t.Fields[c].Nullable && arr.NullN() > 0 {
					for i := 0; i < arr.Len(); i++ {
						if arr.IsNull(i) {
							bad[c], errs[c] = i, errors.New("NULL in a NOT NULL column")
							return
						}
					}
				}
				bad[c], errs[c] = appendArrow(out[c], arr)
			}()
		}
		wg.Wait()
		rec.Release()
		first := -1
		for c, err := range errs {
			if err != nil && (first < 0 || bad[c] < bad[first]) {
				first = c
			}
		}
		if first >= 0 {
			row := rowsBefore + bad[first] + 1
			if se, ok := errs[first].(*StringError); ok {
				errs[first] = se.At(t.Name, t.Fields[first].Name, row)
			}
			return nil, fmt.Errorf("load %s row %d, column %d (%s): %w", path, row, first+1, t.Fields[first].Name, errs[first])
		}
		rowsBefore += int(rec.NumRows())
	}
	if readErr != nil {
		return fail(readErr)
	}
	return appendTable(t, out), nil
}

func fieldNames(m *pqarrow.SchemaManifest) string {
	names := make([]string, len(m.Fields))
	for i, f := range m.Fields {
		names[i] = f.Field.Name
	}
	return strings.Join(names, ", ")
}

// leafOf is the leaf column that reads field sf: sf itself, or the one
// leaf of a list (a VECTOR's elements).
func leafOf(sf pqarrow.SchemaField) pqarrow.SchemaField {
	if len(sf.Children) == 1 && sf.Children[0].IsLeaf() {
		return sf.Children[0]
	}
	return sf
}
