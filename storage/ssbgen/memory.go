package ssbgen

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"gpusql/storage/columnar"
)

// TableOptions say what GenerateTables generates. SF, Seed and Skew mean
// what they mean in Options: the same three give the same values in
// memory as in the files Generate writes.
type TableOptions struct {
	SF   float64
	Seed uint64
	Skew float64
	// Workers is the number of generating goroutines; <= 0 means
	// runtime.NumCPU(). It does not change the tables.
	Workers int
	// Alloc is where the column vectors live; nil means
	// columnar.DefaultAllocator() (pinned host memory in a GPU session).
	Alloc columnar.Allocator
}

// GenerateTables returns the five SSB tables as columnar tables, as the
// loaders would build them from Generate's files with schema.sql's
// CREATE TABLE statements: the same columns and types, the same values,
// the same sorted string dictionaries and the same chunk statistics; the
// test checks this value by value. Order: lineorder, part, supplier,
// customer, date (schema.sql's).
//
// No text is made: workers draw rows (drawOrder, drawGeo, drawPart, as
// the text path does) straight into column vectors allocated once at
// their final size, each block of rows at its own row offset. Strings
// drawn from fixed vocabularies (lo_shipmode, c_city, p_brand1, ...) are
// written as codes of dictionaries known in advance (domain.go); names
// are their keys' order; only free text (addresses, phones: 6 M strings
// at SF 100) is sorted into a dictionary. So memory is the tables
// themselves, about 88 bytes per lineorder row, plus the free text while
// it is encoded.
func GenerateTables(opts TableOptions) ([]*columnar.Table, error) {
	if err := checkScale(opts.SF, opts.Skew); err != nil {
		return nil, err
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Alloc == nil {
		opts.Alloc = columnar.DefaultAllocator()
	}
	sz := sizesFor(opts.SF)
	if opts.Skew > 0 {
		sz.custKeys, sz.partKeys = newZipfKeys(sz.customers, opts.Skew), newZipfKeys(sz.parts, opts.Skew)
	}
	// The dimensions are generated alongside lineorder: their free-text
	// columns are encoded a column per goroutine, and the slowest (3 M
	// random addresses sorted at SF 100) would otherwise leave cores idle.
	var dims []*columnar.Table
	var wg sync.WaitGroup
	wg.Go(func() { dims = dimensionTables(&sz, opts) })
	byName := map[string]*columnar.Table{"lineorder": lineorderTable(&sz, opts)}
	wg.Wait()
	for _, t := range dims {
		byName[t.Name] = t
	}
	out := make([]*columnar.Table, 0, len(loadOrder))
	for _, name := range loadOrder {
		t := byName[name]
		if t == nil {
			return nil, fmt.Errorf("ssbgen: no generator for table %s", name)
		}
		out = append(out, t)
	}
	return out, nil
}

// varcharWidths are the n of the VARCHAR(n) columns of createTables, read
// from it so that the tables generated in memory carry exactly the types
// schema.sql declares.
var varcharWidths = func() map[string]int {
	w := map[string]int{}
	for _, m := range regexp.MustCompile(`(\w+) varchar\((\d+)\)`).FindAllStringSubmatch(createTables, -1) {
		w[m[1]], _ = strconv.Atoi(m[2])
	}
	return w
}()

// fieldsOf gives a table's columns as CREATE TABLE in schema.sql makes
// them: nullable (no NOT NULL), INT, BIGINT or VARCHAR(n).
func fieldsOf(specs []colSpec) []columnar.Field {
	fields := make([]columnar.Field, len(specs))
	for i, s := range specs {
		f := columnar.Field{Name: s.name, Nullable: true}
		switch s.kind {
		case kindInt32:
			f.Type = columnar.Type{ID: columnar.Int32}
		case kindInt64:
			f.Type = columnar.Type{ID: columnar.Int64}
		default:
			f.Type = columnar.Type{ID: columnar.String, Width: varcharWidths[s.name]}
		}
		fields[i] = f
	}
	return fields
}

// newTable wraps generated columns and computes their chunk statistics
// as a load does.
func newTable(name string, fields []columnar.Field, cols []*columnar.Column, rows int) *columnar.Table {
	t := &columnar.Table{Name: name, Fields: fields, Columns: cols, Rows: rows}
	columnar.ComputeStats(t)
	return t
}

// parallelFor calls do(w, i) for every i in [0, n) on up to workers
// goroutines, handing out i in increasing order; w in [0, workers) names
// the goroutine, for state kept per worker.
func parallelFor(n, workers int, do func(w, i int)) {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				do(w, i)
			}
		})
	}
	wg.Wait()
}

// ColumnBytes estimates the bytes of the column vectors GenerateTables
// allocates at scale factor sf (dictionaries not counted), without
// generating: lineorder's rows are taken as 4 per order, the mean of
// 1..7 lines (SF 10 has 60,001,361 rows for 60,000,000), so a caller can
// refuse a scale factor the machine's memory cannot hold before
// allocating anything.
func ColumnBytes(sf float64) int64 {
	sz := sizesFor(sf)
	var total int64
	for _, t := range []struct {
		specs []colSpec
		rows  int64
	}{
		{lineorderSpecs, 4 * sz.orders}, {partSpecs, sz.parts}, {supplierSpecs, sz.suppliers},
		{customerSpecs, sz.customers}, {dateSpecs, dateRows},
	} {
		for _, s := range t.specs {
			width := int64(4)
			if s.kind == kindInt64 {
				width = 8
			}
			total += width * t.rows
		}
	}
	return total
}
