package columnar

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// A NOT NULL column rejects an empty or \N field, naming the line and
// column, and the table stays as it was.
func TestLoadDelimitedNotNull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "n.tbl")
	if err := os.WriteFile(path, []byte("1|a|\n2|b|\n|c|\n4|\\N|\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fields := []Field{{Name: "id", Type: TInt32}, {Name: "name", Type: TString, Nullable: true}}
	old := NewEmptyTable("n", fields)
	_, err := LoadDelimited(old, path, DelimitedOptions{Delimiter: '|'})
	if err == nil || !strings.Contains(err.Error(), "line 3, column 1 (id)") || !strings.Contains(err.Error(), "NOT NULL") {
		t.Fatalf("error = %v, want line 3, column 1 (id): NULL in a NOT NULL column", err)
	}
	if old.Rows != 0 {
		t.Fatalf("old table changed: %d rows", old.Rows)
	}
	fields[0].Nullable, fields[1].Nullable = true, false
	_, err = LoadDelimited(NewEmptyTable("n", fields), path, DelimitedOptions{Delimiter: '|'})
	if err == nil || !strings.Contains(err.Error(), "line 4, column 2 (name)") {
		t.Fatalf("error = %v, want line 4, column 2 (name)", err)
	}
}

func TestLoadParquetNotNull(t *testing.T) {
	rec := record([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, func(b *array.RecordBuilder) {
		ib := b.Field(0).(*array.Int32Builder)
		ib.Append(1)
		ib.Append(2)
		ib.AppendNull()
	})
	defer rec.Release()
	p := filepath.Join(t.TempDir(), "n.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	tab := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	defer tab.Release()
	if err := pqarrow.WriteTable(tab, f, 3, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	_, err = LoadParquet(NewEmptyTable("n", []Field{{Name: "a", Type: TInt32}}), p, ParquetOptions{})
	if err == nil || !strings.Contains(err.Error(), "row 3, column 1 (a): NULL in a NOT NULL column") {
		t.Fatalf("error = %v", err)
	}
}
