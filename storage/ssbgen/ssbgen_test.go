package ssbgen

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

var tableNames = []string{"lineorder", "part", "supplier", "customer", "date"}

// readTbl splits a .tbl file into rows of fields, checking the trailing '|'.
func readTbl(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if !strings.HasSuffix(line, "|") {
			t.Fatalf("%s line %d has no trailing '|': %q", path, i+1, line)
		}
		rows = append(rows, strings.Split(strings.TrimSuffix(line, "|"), "|"))
	}
	return rows
}

// generate writes SF sf with the options' other fields into a fresh folder.
func generate(t *testing.T, opts Options) (string, Counts) {
	t.Helper()
	if opts.Out == "" {
		opts.Out = t.TempDir()
	}
	c, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	return opts.Out, c
}

// checkTable runs a row checker over rows, reporting the first few failures.
func checkTable(t *testing.T, name string, rows [][]string, width int, check func([]string) error) {
	t.Helper()
	bad := 0
	for i, f := range rows {
		err := error(nil)
		if len(f) != width {
			err = fmt.Errorf("%d fields, want %d", len(f), width)
		} else {
			err = check(f)
		}
		if err != nil {
			if bad++; bad <= 5 {
				t.Errorf("%s row %d %v: %v", name, i+1, f, err)
			}
		}
	}
}

func checkAll(t *testing.T, dir string, sz sizes, sample bool) {
	read := func(name string) [][]string { return readTbl(t, filepath.Join(dir, name+".tbl")) }
	checkTable(t, "customer", read("customer"), len(customerSpecs), func(f []string) error { return checkCustomer(f, sz) })
	checkTable(t, "supplier", read("supplier"), len(supplierSpecs), func(f []string) error { return checkSupplier(f, sz) })
	checkTable(t, "part", read("part"), len(partSpecs), func(f []string) error { return checkPart(f, sz) })
	lo := read("lineorder")
	checkTable(t, "lineorder", lo, len(lineorderSpecs), func(f []string) error { return checkLine(f, sz) })
	if err := checkOrders(lo, sample); err != nil {
		t.Error(err)
	}
}

// The row rules hold on dbgen's own rows, so they are dbgen's rules.
func TestRulesHoldOnDbgenSample(t *testing.T) {
	readSample(t, "lineorder.tbl")
	checkAll(t, dbgenSample, sizesFor(1), true)
}

func TestGenerateFollowsDbgenRules(t *testing.T) {
	const sf = 0.01
	dir, counts := generate(t, Options{SF: sf, Seed: 7})
	want := Counts{"customer": 300, "supplier": 20, "part": 2000, "date": 2556}
	want["lineorder"] = RowCounts(sf)["lineorder"]
	if fmt.Sprint(counts) != fmt.Sprint(want) || fmt.Sprint(RowCounts(sf)) != fmt.Sprint(want) {
		t.Fatalf("counts %v, RowCounts %v, want %v", counts, RowCounts(sf), want)
	}
	if lo := want["lineorder"]; math.Abs(float64(lo)/15000-4) > 0.05 {
		t.Errorf("%d lineorder rows for 15,000 orders; 1..7 lines average 4", lo)
	}
	for _, name := range tableNames {
		if n := len(readTbl(t, filepath.Join(dir, name+".tbl"))); int64(n) != counts[name] {
			t.Errorf("%s.tbl has %d rows, Generate says %d", name, n, counts[name])
		}
	}
	checkAll(t, dir, sizesFor(sf), false)

	// Every date lineorder refers to is a row of date.
	dates := map[string]bool{}
	for _, f := range readTbl(t, filepath.Join(dir, "date.tbl")) {
		dates[f[0]] = true
	}
	for _, f := range readTbl(t, filepath.Join(dir, "lineorder.tbl")) {
		if !dates[f[5]] || !dates[f[15]] {
			t.Fatalf("lineorder dates %s, %s not both in date", f[5], f[15])
		}
	}
}

func TestRowCounts(t *testing.T) {
	for _, c := range []struct {
		sf                        float64
		customer, supplier, parts int64
	}{
		{1, 30_000, 2_000, 200_000},
		{2, 60_000, 4_000, 400_000},
		{10, 300_000, 20_000, 800_000},
		{100, 3_000_000, 200_000, 1_400_000},
		{0.1, 3_000, 200, 20_000},
		{0.07, 2_100, 140, 14_000},
		{1e-7, 1, 1, 1},
	} {
		got := RowCounts(c.sf)
		if got["customer"] != c.customer || got["supplier"] != c.supplier || got["part"] != c.parts ||
			got["date"] != 2556 {
			t.Errorf("RowCounts(%v) = %v, want customer %d supplier %d part %d date 2556",
				c.sf, got, c.customer, c.supplier, c.parts)
		}
		if lo := got["lineorder"]; lo < 1 || lo > 7*scaled(ordersPerSF, c.sf) {
			t.Errorf("RowCounts(%v) lineorder %d", c.sf, lo)
		}
	}
	// dbgen has 6,001,171 lines at SF1; 1.5M orders of 1..7 lines give
	// 6,000,000 ± 2,450 (1σ).
	if lo := RowCounts(1)["lineorder"]; math.Abs(float64(lo-6_001_171)) > 15_000 {
		t.Errorf("SF1 lineorder %d, dbgen 6,001,171", lo)
	}
}

// Same SF and seed give the same bytes whatever the number of workers; the
// SF spans several lineorder blocks.
func TestDeterministic(t *testing.T) {
	const sf = 0.03 // 45,000 orders: 6 blocks
	a, _ := generate(t, Options{SF: sf, Seed: 1, Workers: 1})
	b, _ := generate(t, Options{SF: sf, Seed: 1, Workers: 5})
	c, _ := generate(t, Options{SF: sf, Seed: 2, Workers: 2})
	for _, name := range append(tableNames, "schema") {
		ext := ".tbl"
		if name == "schema" {
			ext = ".sql"
		}
		fa, _ := os.ReadFile(filepath.Join(a, name+ext))
		fb, _ := os.ReadFile(filepath.Join(b, name+ext))
		fc, _ := os.ReadFile(filepath.Join(c, name+ext))
		if len(fa) == 0 || !bytes.Equal(fa, fb) {
			t.Errorf("%s%s differs between 1 and 5 workers", name, ext)
		}
		if same := bytes.Equal(fa, fc); same != (name == "date" || name == "schema") {
			t.Errorf("%s%s: same bytes for seeds 1 and 2 is %v", name, ext, same)
		}
	}
}

// fillAll generates all of a table in memory.
func fillAll(specs []colSpec, units, block int64, fill func(*batch, int64, int64)) *batch {
	bt := newBatch(specs)
	for first := int64(1); first <= units; first += block {
		fill(bt, first, min(first+block-1, units))
	}
	return bt
}

func colIndex(specs []colSpec, name string) int {
	for i, s := range specs {
		if s.name == name {
			return i
		}
	}
	panic("no column " + name)
}

// The SSB predicates select the fractions their domains promise. Each is
// allowed 5 binomial standard deviations.
func TestSelectivity(t *testing.T) {
	const seed = 3
	sz := sizesFor(0.1)
	lo := fillAll(lineorderSpecs, sz.orders, orderBlock, func(bt *batch, a, b int64) { fillLineorder(bt, seed, sz, a, b) })
	part := fillAll(partSpecs, sz.parts, dimBlock, func(bt *batch, a, b int64) { fillPart(bt, seed, a, b) })
	// 200 suppliers at SF 0.1 are too few to measure 1/5 on; use SF 10's.
	supp := fillAll(supplierSpecs, 20_000, dimBlock, func(bt *batch, a, b int64) { fillSupplier(bt, seed, a, b) })
	cust := fillAll(customerSpecs, sz.customers, dimBlock, func(bt *batch, a, b int64) { fillCustomer(bt, seed, a, b) })

	ints := func(bt *batch, col string, pred func(int64) bool) (int, int) {
		n := 0
		for _, v := range bt.cols[colIndex(bt.specs, col)].ints {
			if pred(v) {
				n++
			}
		}
		return n, bt.rows
	}
	strs := func(bt *batch, col string, pred func(string) bool) (int, int) {
		n, c := 0, colIndex(bt.specs, col)
		for r := range bt.rows {
			if pred(string(bt.strAt(c, r))) {
				n++
			}
		}
		return n, bt.rows
	}
	for _, c := range []struct {
		pred string
		want float64
		n    func() (int, int)
	}{
		{"year(lo_orderdate) = 1993", 365.0 / orderDays, func() (int, int) {
			return ints(lo, "lo_orderdate", func(v int64) bool { return v/10000 == 1993 })
		}},
		{"lo_orderdate in 199401", 31.0 / orderDays, func() (int, int) {
			return ints(lo, "lo_orderdate", func(v int64) bool { return v/100 == 199401 })
		}},
		{"lo_discount between 1 and 3", 3.0 / 11, func() (int, int) {
			return ints(lo, "lo_discount", func(v int64) bool { return v >= 1 && v <= 3 })
		}},
		{"lo_custkey % 3 = 1 (dbgen moves multiples of 3 up by one)", 2.0 / 3, func() (int, int) {
			return ints(lo, "lo_custkey", func(v int64) bool { return v%3 == 1 })
		}},
		{"lo_quantity < 25", 24.0 / 50, func() (int, int) {
			return ints(lo, "lo_quantity", func(v int64) bool { return v < 25 })
		}},
		{"lo_quantity between 26 and 35", 10.0 / 50, func() (int, int) {
			return ints(lo, "lo_quantity", func(v int64) bool { return v >= 26 && v <= 35 })
		}},
		{"p_category = 'MFGR#12'", 1.0 / 25, func() (int, int) {
			return strs(part, "p_category", func(s string) bool { return s == "MFGR#12" })
		}},
		{"p_mfgr in ('MFGR#1', 'MFGR#2')", 2.0 / 5, func() (int, int) {
			return strs(part, "p_mfgr", func(s string) bool { return s == "MFGR#1" || s == "MFGR#2" })
		}},
		{"p_brand1 between 'MFGR#2221' and 'MFGR#2228'", 8.0 / 1000, func() (int, int) {
			return strs(part, "p_brand1", func(s string) bool { return s >= "MFGR#2221" && s <= "MFGR#2228" })
		}},
		{"s_region = 'AMERICA'", 1.0 / 5, func() (int, int) {
			return strs(supp, "s_region", func(s string) bool { return s == "AMERICA" })
		}},
		{"s_nation = 'UNITED STATES'", 1.0 / 25, func() (int, int) {
			return strs(supp, "s_nation", func(s string) bool { return s == "UNITED STATES" })
		}},
		{"c_city in ('UNITED KI1', 'UNITED KI5')", 2.0 / 250, func() (int, int) {
			return strs(cust, "c_city", func(s string) bool { return s == "UNITED KI1" || s == "UNITED KI5" })
		}},
	} {
		hit, n := c.n()
		got := float64(hit) / float64(n)
		sigma := math.Sqrt(c.want * (1 - c.want) / float64(n))
		if math.Abs(got-c.want) > 5*sigma {
			t.Errorf("%s: %.5f of %d rows, want %.5f ± %.5f", c.pred, got, n, c.want, 5*sigma)
		}
	}
}

// CSV and Parquet hold the same values as tbl.
func TestFormatsAgree(t *testing.T) {
	const sf = 0.01
	tbl, counts := generate(t, Options{SF: sf, Format: FormatTbl, Seed: 9})
	csvDir, _ := generate(t, Options{SF: sf, Format: FormatCSV, Seed: 9})
	pqDir, pqCounts := generate(t, Options{SF: sf, Format: FormatParquet, Seed: 9})
	if fmt.Sprint(counts) != fmt.Sprint(pqCounts) {
		t.Fatalf("parquet counts %v, tbl %v", pqCounts, counts)
	}
	for _, name := range tableNames {
		want := readTbl(t, filepath.Join(tbl, name+".tbl"))
		specs := tableSpecs(name)

		f, err := os.Open(filepath.Join(csvDir, name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s.csv: %v", name, err)
		}
		header := make([]string, len(specs))
		for i, s := range specs {
			header[i] = s.name
		}
		if fmt.Sprint(recs[0]) != fmt.Sprint(header) {
			t.Errorf("%s.csv header %v, want %v", name, recs[0], header)
		}
		if fmt.Sprint(recs[1:]) != fmt.Sprint(want) {
			t.Errorf("%s.csv rows differ from %s.tbl", name, name)
		}

		got := readParquet(t, filepath.Join(pqDir, name+".parquet"), specs)
		if int64(len(got)) != counts[name] || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s.parquet: %d rows, differing from %s.tbl", name, len(got), name)
		}
	}
}

func tableSpecs(name string) []colSpec {
	for _, t := range tables(1, 0, 0) {
		if t.name == name {
			return t.specs
		}
	}
	return nil
}

// readParquet reads a file back with pqarrow, checks its column types and
// formats its rows as text.
func readParquet(t *testing.T, path string, specs []colSpec) [][]string {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRowGroups() != int((pf.NumRows()+parquetRowGroup-1)/parquetRowGroup) {
		t.Errorf("%s: %d row groups for %d rows", path, pf.NumRowGroups(), pf.NumRows())
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	rows := make([][]string, tbl.NumRows())
	for i := range rows {
		rows[i] = make([]string, len(specs))
	}
	for c, s := range specs {
		col := tbl.Column(c)
		if col.Name() != s.name || !arrow.TypeEqual(col.DataType(), arrowSchema(specs).Field(c).Type) {
			t.Fatalf("%s column %d is %s %s, want %s", path, c, col.Name(), col.DataType(), s.name)
		}
		r := 0
		for _, chunk := range col.Data().Chunks() {
			for i := range chunk.Len() {
				switch a := chunk.(type) {
				case *array.Int32:
					rows[r][c] = fmt.Sprint(a.Value(i))
				case *array.Int64:
					rows[r][c] = fmt.Sprint(a.Value(i))
				case *array.String:
					rows[r][c] = a.Value(i)
				}
				r++
			}
		}
	}
	return rows
}

func TestSchemaSQL(t *testing.T) {
	want := string(readSample(t, "../../ssb/schema.sql"))
	tbl := SchemaSQL(FormatTbl)
	if !strings.Contains(want, createTables) {
		t.Errorf("CREATE TABLEs differ from /work/shared/ssb/schema.sql")
	}
	wantLoads := want[strings.Index(want, "load data"):]
	if !strings.HasSuffix(tbl, createTables+wantLoads) {
		t.Errorf("SchemaSQL(tbl) loads differ from /work/shared/ssb/schema.sql:\n%s", tbl)
	}
	for f, line := range map[Format]string{
		FormatCSV:     `load data infile 'lineorder.csv' into table lineorder fields terminated by ',' enclosed by '"' ignore 1 lines;`,
		FormatParquet: `import into date from 'date.parquet' format 'parquet';`,
	} {
		if !strings.Contains(SchemaSQL(f), line+"\n") {
			t.Errorf("SchemaSQL(%s) lacks %s", f, line)
		}
	}

	// The generators' columns are schema.sql's, names and types.
	types := map[string]kind{"int": kindInt32, "bigint": kindInt64}
	for _, stmt := range strings.Split(createTables, ";")[:5] {
		name := strings.Fields(stmt)[2]
		cols := strings.Split(stmt[strings.Index(stmt, "(")+1:strings.LastIndex(stmt, ")")], ",")
		specs := tableSpecs(name)
		if len(cols) != len(specs) {
			t.Fatalf("%s: %d columns in schema.sql, %d generated", name, len(cols), len(specs))
		}
		for i, c := range cols {
			f := strings.Fields(c)
			k, ok := types[f[1]]
			if !ok {
				k = kindString
			}
			if f[0] != specs[i].name || k != specs[i].kind {
				t.Errorf("%s column %d: schema.sql %v, generated %v", name, i, f, specs[i])
			}
		}
	}
}

func TestRunOrdered(t *testing.T) {
	for _, workers := range []int{1, 3, 16} {
		var got []int
		err := runOrdered(1000, workers, func(b int) (int, error) { return b * b, nil },
			func(v int) error { got = append(got, v); return nil })
		if err != nil || len(got) != 1000 {
			t.Fatalf("workers %d: %d results, %v", workers, len(got), err)
		}
		for i, v := range got {
			if v != i*i {
				t.Fatalf("workers %d: result %d is %d", workers, i, v)
			}
		}
		boom := errors.New("boom")
		err = runOrdered(1000, workers, func(b int) (int, error) {
			if b == 500 {
				return 0, boom
			}
			return b, nil
		}, func(int) error { return nil })
		if !errors.Is(err, boom) {
			t.Errorf("workers %d: produce error gave %v", workers, err)
		}
		n := 0
		err = runOrdered(1000, workers, func(b int) (int, error) { return b, nil },
			func(int) error {
				if n++; n == 10 {
					return boom
				}
				return nil
			})
		if !errors.Is(err, boom) || n != 10 {
			t.Errorf("workers %d: consume error gave %v after %d", workers, err, n)
		}
	}
}

func TestGenerateRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{
		{SF: 0, Out: t.TempDir()},
		{SF: math.NaN(), Out: t.TempDir()},
		{SF: 1, Out: t.TempDir(), Format: "xlsx"},
		{SF: 1},
	} {
		if _, err := Generate(o); err == nil {
			t.Errorf("Generate(%+v) succeeded", o)
		}
	}
}

func TestQueries(t *testing.T) {
	qs := Queries()
	if len(qs) != 13 || qs[0].Name != "Q1.1" || qs[12].Name != "Q4.3" {
		t.Fatalf("Queries() = %d queries, first %q", len(qs), qs[0].Name)
	}
	for _, q := range qs {
		if !strings.HasPrefix(q.SQL, "select") || strings.HasSuffix(q.SQL, ";") {
			t.Errorf("%s: %q", q.Name, q.SQL)
		}
	}
}
