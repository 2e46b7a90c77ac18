package columnar

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	arrowcsv "github.com/apache/arrow/go/v15/arrow/csv"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// Load throughput, as MB/s of input file (b.SetBytes). With
// GPUSQL_BENCH_DIR naming a folder that holds SF1 lineorder.tbl,
// lineorder.csv and lineorder.parquet (e.g. from ssbgen), the *SF1
// variants load those; the
// others write ~50 MB of lineorder-shaped data to a temporary folder and
// always run. cpu-MB/s is the input size over the process's CPU time: the
// throughput per core, whatever else the machine is doing.

func benchFile(b *testing.B, name string) string {
	dir := os.Getenv("GPUSQL_BENCH_DIR")
	if dir == "" {
		b.Skip("set GPUSQL_BENCH_DIR to a folder with SF1 " + name)
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s: %v", p, err)
	}
	return p
}

func benchLoad(b *testing.B, path string, load func(*Table) (*Table, error)) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	empty := NewEmptyTable("lineorder", lineorderFields())
	b.SetBytes(st.Size())
	b.ResetTimer()
	cpu0 := processCPU()
	var rows int
	for i := 0; i < b.N; i++ {
		t, err := load(empty)
		if err != nil {
			b.Fatal(err)
		}
		rows = t.Rows
	}
	cpu := processCPU() - cpu0
	b.ReportMetric(float64(rows), "rows")
	b.ReportMetric(float64(st.Size())*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
}

func loadTbl(path string) func(*Table) (*Table, error) {
	return func(t *Table) (*Table, error) { return LoadDelimited(t, path, DelimitedOptions{Delimiter: '|'}) }
}

func loadParquet(path string) func(*Table) (*Table, error) {
	return func(t *Table) (*Table, error) { return LoadParquet(t, path, ParquetOptions{}) }
}

// syntheticLineorder writes ~50 MB of lineorder text (and, if asked, the
// same rows as Parquet) once per benchmark run.
func syntheticLineorder(b *testing.B, withParquet bool) (tbl, pq string) {
	dir := b.TempDir()
	tbl = filepath.Join(dir, "lineorder.tbl")
	writeLineorderTbl(b, tbl, 500_000)
	if withParquet {
		t, err := LoadDelimited(NewEmptyTable("lineorder", lineorderFields()), tbl, DelimitedOptions{Delimiter: '|'})
		if err != nil {
			b.Fatal(err)
		}
		pq = filepath.Join(dir, "lineorder.parquet")
		writeTableParquet(b, t, pq)
	}
	return tbl, pq
}

func BenchmarkLoadTbl(b *testing.B) {
	p, _ := syntheticLineorder(b, false)
	benchLoad(b, p, loadTbl(p))
}

func BenchmarkLoadParquet(b *testing.B) {
	_, p := syntheticLineorder(b, true)
	benchLoad(b, p, loadParquet(p))
}

func BenchmarkLoadTblSF1(b *testing.B) {
	p := benchFile(b, "lineorder.tbl")
	benchLoad(b, p, loadTbl(p))
}

func BenchmarkLoadCSVSF1(b *testing.B) {
	p := benchFile(b, "lineorder.csv")
	benchLoad(b, p, func(t *Table) (*Table, error) {
		return LoadDelimited(t, p, DelimitedOptions{Delimiter: ',', Enclosure: '"', IgnoreLines: 1})
	})
}

func BenchmarkLoadParquetSF1(b *testing.B) {
	p := benchFile(b, "lineorder.parquet")
	benchLoad(b, p, loadParquet(p))
}

// writeTableParquet writes a table of INT, BIGINT and VARCHAR columns as
// Parquet the way ssbgen does: Snappy, row groups of 2^20 rows.
func writeTableParquet(b *testing.B, t *Table, path string) {
	fields := make([]arrow.Field, len(t.Fields))
	for i, f := range t.Fields {
		switch f.Type.ID {
		case Int32:
			fields[i] = arrow.Field{Name: f.Name, Type: arrow.PrimitiveTypes.Int32}
		case Int64:
			fields[i] = arrow.Field{Name: f.Name, Type: arrow.PrimitiveTypes.Int64}
		default:
			fields[i] = arrow.Field{Name: f.Name, Type: arrow.BinaryTypes.String}
		}
	}
	rec := record(fields, func(rb *array.RecordBuilder) {
		for c, col := range t.Columns {
			switch bld := rb.Field(c).(type) {
			case *array.Int32Builder:
				bld.AppendValues(col.I32, nil)
			case *array.Int64Builder:
				bld.AppendValues(col.I64, nil)
			case *array.StringBuilder:
				for r := 0; r < t.Rows; r++ {
					bld.Append(col.StringAt(r))
				}
			}
		}
	})
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	tab := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	defer tab.Release()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithAllocator(memory.NewGoAllocator()))
	if err := pqarrow.WriteTable(tab, f, 1<<20, props, pqarrow.DefaultWriterProps()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkArrowCSVReader reads the same synthetic lineorder text with
// arrow/csv's typed reader, the alternative LoadDelimited's comment weighs
// (and it would still have to copy the records into columns).
func BenchmarkArrowCSVReader(b *testing.B) {
	p, _ := syntheticLineorder(b, false)
	var fields []arrow.Field
	for _, f := range lineorderFields() {
		typ := arrow.DataType(arrow.BinaryTypes.String)
		switch f.Type.ID {
		case Int32:
			typ = arrow.PrimitiveTypes.Int32
		case Int64:
			typ = arrow.PrimitiveTypes.Int64
		}
		fields = append(fields, arrow.Field{Name: f.Name, Type: typ})
	}
	fields = append(fields, arrow.Field{Name: "trailing", Type: arrow.BinaryTypes.String})
	schema := arrow.NewSchema(fields, nil)
	st, _ := os.Stat(p)
	b.SetBytes(st.Size())
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		r := arrowcsv.NewReader(f, schema, arrowcsv.WithComma('|'), arrowcsv.WithChunk(1<<16))
		n := 0
		for r.Next() {
			n += int(r.Record().NumRows())
		}
		if r.Err() != nil || n != 500_000 {
			b.Fatal(r.Err(), n)
		}
		r.Release()
		f.Close()
	}
	b.ReportMetric(float64(st.Size())*float64(b.N)/(processCPU()-cpu0).Seconds()/1e6, "cpu-MB/s")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkComputeStats computes the statistics of 6M lineorder rows (the
// synthetic 500K rows twelve times over, or SF1 lineorder.tbl when
// GPUSQL_BENCH_DIR is set) from scratch.
func BenchmarkComputeStats(b *testing.B) {
	must := func(t *Table, err error) *Table {
		if err != nil {
			b.Fatal(err)
		}
		return t
	}
	var t *Table
	if dir := os.Getenv("GPUSQL_BENCH_DIR"); dir != "" {
		t = must(LoadDelimited(NewEmptyTable("lineorder", lineorderFields()), filepath.Join(dir, "lineorder.tbl"), DelimitedOptions{Delimiter: '|'}))
	} else {
		p, _ := syntheticLineorder(b, false)
		t = must(LoadDelimited(NewEmptyTable("lineorder", lineorderFields()), p, DelimitedOptions{Delimiter: '|'}))
		for t.Rows < 6_000_000 {
			t = must(LoadDelimited(t, p, DelimitedOptions{Delimiter: '|'}))
		}
	}
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		t.Stats = nil
		ComputeStats(t)
	}
	b.ReportMetric(float64(t.Rows), "rows")
	b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}
