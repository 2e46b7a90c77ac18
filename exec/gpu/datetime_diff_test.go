//go:build cuda

package gpu

import (
	"context"
	"errors"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// datetimeTables makes ev (n rows: ts DATETIME(3) with NULLs every 11th row,
// heavy duplicates and a skewed hot value; d DATE; g INT) and dim (the
// distinct instants of ev's first 500 rows, as join keys).
func datetimeTables(n int) (*columnar.Table, *columnar.Table) {
	base, _ := columnar.ParseDatetime("2024-01-05 00:00:00", 0)
	ts := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TDatetime(3), n, true)
	d := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TDate, n, false)
	g := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, false)
	for i := 0; i < n; i++ {
		v := base + int64(i%5003)*37_001_000 // 37.001 s apart: several days, 5003 distinct
		if i%4 == 0 {
			v = base + 12*3600*columnar.MicrosPerSecond // a quarter of the rows share noon
		}
		d.I32[i] = int32(columnar.DatetimeDays(v))
		g.I32[i] = int32(i % 17)
		if i%11 == 5 {
			ts.I64[i] = columnar.MaxDatetime // a NULL's slot: must never count
			continue
		}
		ts.I64[i] = v
		ts.SetValid(i)
	}
	ev := &columnar.Table{Name: "ev", Rows: n, Fields: []columnar.Field{
		{Name: "ts", Type: columnar.TDatetime(3), Nullable: true}, {Name: "d", Type: columnar.TDate}, {Name: "g", Type: columnar.TInt32}},
		Columns: []*columnar.Column{ts, d, g}}
	columnar.ComputeStats(ev)
	m := min(n, 500)
	at := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TDatetime(0), m, false)
	k := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, m, false)
	for i := 0; i < m; i++ {
		at.I64[i] = base + int64(i)*37_001_000/1000*1000 // whole seconds: only some match ev's .001 instants
		k.I32[i] = int32(i)
	}
	dim := &columnar.Table{Name: "dim", Rows: m, Fields: []columnar.Field{
		{Name: "at", Type: columnar.TDatetime(0)}, {Name: "k", Type: columnar.TInt32}},
		Columns: []*columnar.Column{at, k}}
	columnar.ComputeStats(dim)
	return ev, dim
}

var datetimeQueries = []string{
	"select ts, g from ev where ts >= '2024-01-05 10:00:00' and ts < '2024-01-06 12:00:00.001'",
	"select count(*) from ev where ts = '2024-01-05 12:00:00'",
	"select count(*), count(ts) from ev where ts > '2024-01-06' or ts is null",
	"select g, min(ts), max(ts), count(ts) from ev group by g",
	"select ts, count(*) from ev group by ts",
	"select distinct ts from ev",
	"select count(*), sum(k) from ev join dim on ev.ts = dim.at",
	"select ts from ev order by ts desc limit 20",
	"select ts from ev where ts < '1000-01-01 00:00:00'",
	"select count(*) from ev where ts >= d",
	"select hour(ts), count(*) from ev group by hour(ts)",
	"select g, count(*) from ev where ts between '2024-01-05 00:00:37' and '2024-01-05 03:00:00' group by g",
}

// TestDatetimeDifferential: DATETIME filters, grouping, DISTINCT, joins and
// sorts compare int64 microseconds on the GPU and must give the CPU's rows;
// what the GPU does not run (conversions such as DATE to DATETIME, HOUR())
// it must refuse with ErrUnsupported, never answer differently. Sizes: empty,
// one row, and not a multiple of the block size.
func TestDatetimeDifferential(t *testing.T) {
	needGPU(t)
	for _, n := range []int{0, 1, 100_003} {
		ev, dim := datetimeTables(n)
		cat := catalog.New()
		cat.Put(ev)
		cat.Put(dim)
		for _, text := range datetimeQueries {
			ps, err := sql.Parse(text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			st, err := sql.Bind(cat, ps[0])
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			for _, o := range []planner.Options{{}, {Join: "hash", GroupBy: "hash"}, {Join: "merge"}} {
				p, err := planner.Plan(st.(*sql.Query), o)
				if err != nil {
					t.Fatal(err)
				}
				want, err := cpu.Run(context.Background(), p)
				if err != nil {
					t.Fatalf("%d rows %s cpu: %v", n, text, err)
				}
				got, err := Run(context.Background(), p)
				switch {
				case errors.Is(err, ErrUnsupported):
					t.Logf("%d rows %s: %v", n, text, err)
				case err != nil:
					t.Errorf("%d rows %s %+v: %v\n%s", n, text, o, err, p.Explain())
				default:
					if d := diffResults(sorted(got), sorted(want)); d != "" {
						t.Errorf("%d rows %s %+v: %s\n%s", n, text, o, d, p.Explain())
					}
				}
			}
		}
	}
}
