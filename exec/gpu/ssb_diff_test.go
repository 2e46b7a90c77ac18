//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// Differential tests on the real query path: SSB data from ssbgen, loaded
// by the loaders, bound by sql.Bind and planned by planner.Plan under each
// hash strategy; the GPU's result must equal exec/cpu's on the same plan.

var ssbCats sync.Map

func ssbCatalog(tb testing.TB, sf float64, alloc columnar.Allocator) *catalog.Catalog {
	tb.Helper()
	key := fmt.Sprint(sf, alloc == columnar.HeapAllocator)
	if c, ok := ssbCats.Load(key); ok {
		return c.(*catalog.Catalog)
	}
	dir := filepath.Join(os.TempDir(), "gpusql-gpu-ssb-sf"+strconv.FormatFloat(sf, 'f', -1, 64))
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		if _, err := ssbgen.Generate(ssbgen.Options{SF: sf, Out: dir, Format: ssbgen.FormatTbl}); err != nil {
			tb.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "done"), nil, 0o644)
	}
	schema := ssbgen.SchemaSQL(ssbgen.FormatTbl)
	ps, err := sql.Parse(schema)
	if err != nil {
		tb.Fatal(err)
	}
	saved := columnar.DefaultAllocator()
	columnar.SetDefaultAllocator(alloc)
	defer columnar.SetDefaultAllocator(saved)
	cat := catalog.New()
	for _, p := range ps {
		st, err := sql.Bind(cat, p)
		if err != nil {
			tb.Fatal(err)
		}
		switch st := st.(type) {
		case *sql.CreateTable:
			if err := cat.Create(st.Name, st.Fields, false); err != nil {
				tb.Fatal(err)
			}
		case *sql.Load:
			err := cat.Update(st.Table, func(old *columnar.Table) (*columnar.Table, error) {
				nt, err := columnar.LoadDelimited(old, filepath.Join(dir, st.Path),
					columnar.DelimitedOptions{Delimiter: st.Delimiter, Enclosure: st.Enclosure})
				if err != nil {
					return nil, err
				}
				columnar.ComputeStats(nt)
				return nt, nil
			})
			if err != nil {
				tb.Fatal(err)
			}
		}
	}
	ssbCats.Store(key, cat)
	return cat
}

type namedQuery struct {
	name string
	q    *sql.Query
}

func ssbSQL(tb testing.TB, cat *catalog.Catalog) []namedQuery {
	text := ssbgen.QueriesSQL
	ps, err := sql.Parse(text)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	var out []namedQuery
	for _, p := range ps {
		st, err := sql.Bind(cat, p)
		if err != nil {
			tb.Fatal(err)
		}
		name := fmt.Sprintf("Q%d", len(out)+1)
		if p.Line >= 2 && strings.HasPrefix(lines[p.Line-2], "-- ") {
			name = strings.TrimPrefix(lines[p.Line-2], "-- ")
		}
		out = append(out, namedQuery{name, st.(*sql.Query)})
	}
	return out
}

// gpuOptions are the planner strategies the GPU runs.
var gpuOptions = []planner.Options{{}, {Join: "hash", GroupBy: "hash"}, {Join: "hash", GroupBy: "dense"}, {Join: "merge"}}

// The star pipeline must recognize every SSB plan the planner makes (no
// device needed).
func TestMatchSSBPlans(t *testing.T) {
	cat := ssbCatalog(t, 0.01, columnar.HeapAllocator)
	for _, q := range ssbSQL(t, cat) {
		for _, o := range gpuOptions {
			if o.Join == "merge" {
				continue // sort-merge joins run on the materializing executor
			}
			p, err := planner.Plan(q.q, o)
			if err != nil {
				t.Fatal(err)
			}
			_, body := splitTail(p.Root, true)
			agg, ok := body.(*planner.HashAggregate)
			if !ok {
				t.Errorf("%s %+v: body is %s\n%s", q.name, o, opName(body), p.Explain())
				continue
			}
			if _, _, err := matchStar(agg); err != nil {
				t.Errorf("%s %+v: %v\n%s", q.name, o, err, p.Explain())
			}
		}
	}
}

func TestSSBDifferential(t *testing.T) {
	needGPU(t)
	for _, alloc := range []columnar.Allocator{columnar.HeapAllocator, PinnedAllocator()} {
		cat := ssbCatalog(t, 0.05, alloc)
		for _, q := range ssbSQL(t, cat) {
			for _, o := range gpuOptions {
				p, err := planner.Plan(q.q, o)
				if err != nil {
					t.Fatal(err)
				}
				want, err := cpu.Run(context.Background(), p)
				if err != nil {
					t.Fatalf("%s cpu: %v", q.name, err)
				}
				eachTuningQuiet(func(tu tuning) {
					got, err := Run(context.Background(), p)
					if err != nil {
						t.Errorf("%s %+v %s: %v\n%s", q.name, o, tu, err, p.Explain())
						return
					}
					if d := diffResults(got, want); d != "" {
						t.Errorf("%s %+v %s: %s\n%s", q.name, o, tu, d, p.Explain())
					}
				})
			}
		}
	}
}

func eachTuningQuiet(fn func(tuning)) {
	saved := starTuning
	defer func() { starTuning = saved }()
	for _, tu := range tunings {
		starTuning = tu
		fn(tu)
	}
}

// diffResults compares two results row by row in order ("" when equal):
// strings by value, numbers exactly, doubles to 1e-9 relative.
func diffResults(got, want *exec.Result) string {
	if got.Rows != want.Rows || len(got.Columns) != len(want.Columns) {
		return fmt.Sprintf("shape %dx%d, want %dx%d\n got %v\nwant %v", got.Rows, len(got.Columns), want.Rows, len(want.Columns),
			renderRows(got, 5), renderRows(want, 5))
	}
	for r := 0; r < got.Rows; r++ {
		for c := range got.Columns {
			a, b := cellString(got.Columns[c], r), cellString(want.Columns[c], r)
			if a == b {
				continue
			}
			if x, err1 := strconv.ParseFloat(a, 64); err1 == nil {
				if y, err2 := strconv.ParseFloat(b, 64); err2 == nil && math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y)) {
					continue
				}
			}
			return fmt.Sprintf("row %d col %d = %s, want %s\n got %v\nwant %v", r, c, a, b, renderRows(got, 5), renderRows(want, 5))
		}
	}
	return ""
}

func cellString(c *columnar.Column, r int) string {
	switch {
	case c.IsNull(r):
		return "NULL"
	case c.Type.ID == columnar.String && c.Dict != nil:
		return c.StringAt(r)
	case c.F64 != nil:
		return strconv.FormatFloat(c.F64[r], 'g', -1, 64)
	case c.Type.ID == columnar.Decimal:
		return fmt.Sprintf("%de-%d", c.Int64At(r), c.Type.Scale)
	}
	return strconv.FormatInt(c.Int64At(r), 10)
}

func renderRows(res *exec.Result, n int) []string {
	var out []string
	for r := 0; r < min(n, res.Rows); r++ {
		var cells []string
		for _, c := range res.Columns {
			cells = append(cells, cellString(c, r))
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}
