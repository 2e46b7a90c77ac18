package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"gpusql/sql"
)

// A Parquet value past its column's range fails IMPORT INTO as MySQL's
// strict LOAD DATA fails a field past it: 1264 Out of range value for
// column 'c' at row n, naming the file's row (it was 1690, the loader's
// text read as a CAST's), and the table keeps what it had.
func TestParquetLoadOutOfRange(t *testing.T) {
	dir := t.TempDir()
	writeInts(t, filepath.Join(dir, "v.parquet"), []int64{5, 7, 300})
	db := open(t)
	cases := []struct{ column, want string }{
		{"tinyint", "Out of range value for column 'c' at row 3"},
		{"smallint unsigned", ""},
		{"decimal(3,1)", "Out of range value for column 'c' at row 3"},
	}
	for _, c := range cases {
		mustExec(t, db, "drop table if exists p; create table p (c "+c.column+"); insert into p values (1)", dir)
		_, err := db.Exec(context.Background(), "import into p from 'v.parquet' format 'parquet'", dir)
		code, msg := sql.MySQLCode(err)
		if c.want == "" && err != nil || c.want != "" && (code != 1264 || msg != c.want) {
			t.Errorf("%s: got %d %q (%v), want 1264 %q", c.column, code, msg, err, c.want)
		}
	}
	res := mustExec(t, db, "select count(*) from p", dir)
	if got := res[0].Result.Columns[0].I64[0]; got != 1 {
		t.Errorf("after the failed load p has %d rows, want 1", got)
	}
}

// An int32 Parquet column loads into YEAR by MySQL's numeric YEAR rule,
// as INSERT of the same numbers does: 99 is 1999, 5 is 2005, 0 is 0000,
// and 99999 fails with 1264 (the int32 fast path used to copy 99 and
// 99999 as they were).
func TestParquetLoadYear(t *testing.T) {
	dir := t.TempDir()
	writeInt32s(t, filepath.Join(dir, "y.parquet"), []int32{99, 5, 0, 2155})
	writeInt32s(t, filepath.Join(dir, "bad.parquet"), []int32{2000, 99999})
	db := open(t)
	mustExec(t, db, "create table y (c year)", dir)
	mustExec(t, db, "import into y from 'y.parquet' format 'parquet'", dir)
	if got := tableText(t, db, "select c from y"); got != "1999;2005;0000;2155" {
		t.Errorf("loaded %s, want 1999;2005;0000;2155", got)
	}
	_, err := db.Exec(context.Background(), "import into y from 'bad.parquet' format 'parquet'", dir)
	if code, msg := sql.MySQLCode(err); code != 1264 || msg != "Out of range value for column 'c' at row 2" {
		t.Errorf("99999 into YEAR: got %d %q (%v), want 1264", code, msg, err)
	}
}

// writeInts writes a Parquet file of one int64 column c.
func writeInts(t *testing.T, path string, vals []int64) {
	t.Helper()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), arrow.NewSchema([]arrow.Field{{Name: "c", Type: arrow.PrimitiveTypes.Int64}}, nil))
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues(vals, nil)
	writeRecord(t, path, b.NewRecord())
}

// writeInt32s writes a Parquet file of one int32 column c.
func writeInt32s(t *testing.T, path string, vals []int32) {
	t.Helper()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), arrow.NewSchema([]arrow.Field{{Name: "c", Type: arrow.PrimitiveTypes.Int32}}, nil))
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues(vals, nil)
	writeRecord(t, path, b.NewRecord())
}

// writeRecord writes rec as a Parquet file and releases it.
func writeRecord(t *testing.T, path string, rec arrow.Record) {
	t.Helper()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	defer tbl.Release()
	// WriteTable closes f.
	if err := pqarrow.WriteTable(tbl, f, 2, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
}
