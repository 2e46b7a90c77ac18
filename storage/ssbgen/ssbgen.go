// Package ssbgen generates Star Schema Benchmark data (O'Neil et al., "The
// Star Schema Benchmark and Augmented Fact Table Indexing", TPCTC 2009) the
// way ssb-dbgen does: the same row counts, key domains, value lists, string
// formats and arithmetic, so the 13 SSB queries select the same fractions of
// rows as on dbgen's data. The date table is dbgen's, byte for byte.
//
// The random numbers are not dbgen's: every row (every order, for
// lineorder) draws from its own SplitMix64 generator seeded by (Seed, table,
// key), so blocks of rows are generated in parallel and concatenated in key
// order, and the output depends on SF and Seed only. The number of lines of
// each order depends on the order alone, so lineorder's size is the same for
// every seed and RowCounts can tell it without a seed.
//
// Known differences from ssb-dbgen, none of which changes the fraction of
// rows an SSB predicate selects:
//   - values are different draws from the same distributions, so no row
//     equals dbgen's row of the same key, and the lineorder count differs
//     from dbgen's by a few thousand at SF1 (6,000,365 here, 6,001,171 there);
//   - lo_partkey ranges over all parts. dbgen draws it from
//     1..200,000×(1+floor(ln SF)) while part has 200,000×(1+floor(log2 SF))
//     rows, so from SF 2 on its lineorder never references the top parts
//     (half of them at SF 2, a quarter at SF 10); at SF <= 1 the two agree;
//   - date always has dbgen's 2,556 rows; below SF 1 dbgen scales the date
//     table's row count with the others (driver.c multiplies every base by
//     the fraction), leaving most order dates without a date row.
package ssbgen

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// Format is the file format of the generated tables.
type Format string

const (
	// FormatTbl is dbgen's: '|' after every field, no header, no quoting.
	FormatTbl Format = "tbl"
	// FormatCSV is RFC 4180 with a header line of column names.
	FormatCSV Format = "csv"
	// FormatParquet is one Parquet file per table, typed as in schema.sql.
	FormatParquet Format = "parquet"
)

// Options say what to generate and where.
type Options struct {
	// SF is the scale factor; fractions such as 0.01 work, and every table
	// gets at least one row.
	SF float64
	// Out is the folder for the table files and schema.sql; it is created.
	Out string
	// Format is the file format; empty means FormatTbl.
	Format Format
	// Seed varies the data; the same SF and Seed give the same bytes.
	Seed uint64
	// Workers is the number of generating goroutines; <= 0 means
	// runtime.NumCPU(). It does not change the output.
	Workers int
	// Skew, when positive, draws lo_custkey and lo_partkey under Zipf
	// skew θ = Skew instead of uniformly (skew.go); 0 is dbgen's data.
	Skew float64
}

// Counts maps a table name to its number of rows.
type Counts map[string]int64

// Rows (or, for lineorder, orders) per block of parallel work. A lineorder
// block is about 32K rows, 3 MB of text.
const (
	dimBlock   = 1 << 14
	orderBlock = 1 << 13
)

// table is one table to generate: units are rows, or orders for lineorder,
// numbered from 1; fill appends the rows of units first..last to a batch.
type table struct {
	name  string
	specs []colSpec
	units int64
	block int64
	fill  func(bt *batch, first, last int64)
}

func tables(sf float64, seed uint64, skew float64) []table {
	sz := sizesFor(sf)
	if skew > 0 {
		sz.custKeys, sz.partKeys = newZipfKeys(sz.customers, skew), newZipfKeys(sz.parts, skew)
	}
	return []table{
		{"date", dateSpecs, 1, 1, func(bt *batch, _, _ int64) { fillDate(bt) }},
		{"customer", customerSpecs, sz.customers, dimBlock, func(bt *batch, a, b int64) { fillCustomer(bt, seed, a, b) }},
		{"supplier", supplierSpecs, sz.suppliers, dimBlock, func(bt *batch, a, b int64) { fillSupplier(bt, seed, a, b) }},
		{"part", partSpecs, sz.parts, dimBlock, func(bt *batch, a, b int64) { fillPart(bt, seed, a, b) }},
		{"lineorder", lineorderSpecs, sz.orders, orderBlock, func(bt *batch, a, b int64) { fillLineorder(bt, seed, sz, a, b) }},
	}
}

// RowCounts returns the number of rows Generate writes per table at scale
// factor sf, for any seed. Lineorder's count comes from drawing every
// order's line count, a hash per order on all CPUs: 4 ms at SF1 on two
// cores, seconds at SF1000.
func RowCounts(sf float64) Counts {
	sz := sizesFor(sf)
	return Counts{
		"date":      dateRows,
		"customer":  sz.customers,
		"supplier":  sz.suppliers,
		"part":      sz.parts,
		"lineorder": lineorderRows(sz.orders),
	}
}

// lineorderRows sums the line counts of orders 1..orders on all CPUs.
func lineorderRows(orders int64) int64 {
	workers := int64(runtime.NumCPU())
	per := (orders + workers - 1) / workers
	sums := make([]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w*per + 1; i <= min(orders, (w+1)*per); i++ {
				sums[w] += int64(lineCount(i))
			}
		})
	}
	wg.Wait()
	var total int64
	for _, s := range sums {
		total += s
	}
	return total
}

// checkScale rejects a scale factor or skew that generates nothing sensible.
func checkScale(sf, skew float64) error {
	if !(sf > 0) || math.IsInf(sf, 0) {
		return fmt.Errorf("ssbgen: scale factor %v must be positive", sf)
	}
	if !(skew >= 0) || math.IsInf(skew, 0) {
		return fmt.Errorf("ssbgen: skew %v must be 0 (uniform) or a positive Zipf θ", skew)
	}
	return nil
}

// Generate writes the five SSB tables and schema.sql into opts.Out and
// returns the rows written per table.
func Generate(opts Options) (Counts, error) {
	if opts.Format == "" {
		opts.Format = FormatTbl
	}
	switch opts.Format {
	case FormatTbl, FormatCSV, FormatParquet:
	default:
		return nil, fmt.Errorf("ssbgen: unknown format %q (want tbl, csv or parquet)", opts.Format)
	}
	if err := checkScale(opts.SF, opts.Skew); err != nil {
		return nil, err
	}
	if opts.Out == "" {
		return nil, errors.New("ssbgen: no output folder")
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, fmt.Errorf("ssbgen: %w", err)
	}
	schema := filepath.Join(opts.Out, "schema.sql")
	if err := os.WriteFile(schema, []byte(SchemaSQL(opts.Format)), 0o644); err != nil {
		return nil, fmt.Errorf("ssbgen: %w", err)
	}
	counts := Counts{}
	for _, t := range tables(opts.SF, opts.Seed, opts.Skew) {
		n, err := writeTable(t, opts)
		if err != nil {
			return nil, fmt.Errorf("ssbgen: %s: %w", t.name, err)
		}
		counts[t.name] = n
	}
	return counts, nil
}

// chunk is one encoded block on its way to the file.
type chunk struct {
	rows int64
	text *[]byte
	rec  arrow.Record
}

// writeTable generates t into its file in opts.Out: workers fill and encode
// blocks, and the calling goroutine writes them in order.
func writeTable(t table, opts Options) (rows int64, err error) {
	path := filepath.Join(opts.Out, t.name+"."+string(opts.Format))
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)

	var (
		schema *arrow.Schema
		pw     *pqarrow.FileWriter
	)
	switch opts.Format {
	case FormatCSV:
		if _, err := w.Write(csvHeader(t.specs)); err != nil {
			return 0, err
		}
	case FormatParquet:
		schema = arrowSchema(t.specs)
		// The Parquet writer closes its sink; hide the file's Close.
		if pw, err = newParquetWriter(t.specs, schema, struct{ *bufio.Writer }{w}); err != nil {
			return 0, err
		}
	}

	batches := sync.Pool{New: func() any { return newBatch(t.specs) }}
	texts := sync.Pool{New: func() any { return new([]byte) }}
	produce := func(b int) (chunk, error) {
		bt := batches.Get().(*batch)
		defer batches.Put(bt)
		bt.reset()
		first := int64(b)*t.block + 1
		t.fill(bt, first, min(first+t.block-1, t.units))
		ch := chunk{rows: int64(bt.rows)}
		switch opts.Format {
		case FormatParquet:
			ch.rec = toRecord(schema, bt)
		case FormatCSV:
			ch.text = texts.Get().(*[]byte)
			*ch.text = appendCSV((*ch.text)[:0], bt)
		default:
			ch.text = texts.Get().(*[]byte)
			*ch.text = appendTbl((*ch.text)[:0], bt)
		}
		return ch, nil
	}
	consume := func(ch chunk) error {
		rows += ch.rows
		if ch.rec != nil {
			defer ch.rec.Release()
			return pw.WriteBuffered(ch.rec)
		}
		defer texts.Put(ch.text)
		_, err := w.Write(*ch.text)
		return err
	}
	blocks := int((t.units + t.block - 1) / t.block)
	if err := runOrdered(blocks, opts.Workers, produce, consume); err != nil {
		return 0, err
	}
	if pw != nil {
		if err := pw.Close(); err != nil {
			return 0, err
		}
	}
	return rows, w.Flush()
}
