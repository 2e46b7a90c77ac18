//go:build cuda

package gpu

import (
	"context"
	"testing"
	"time"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// DATEDIFF on the GPU counts MySQL's day numbers, which give year 0 no
// February 29 (calc_daynr): over dates on both sides of 0000-03-01 the
// expression VM must give the answer worked out here from the calendar,
// and the CPU's, for a table not a multiple of the block size.
func TestDateDiffYearZero(t *testing.T) {
	needGPU(t)
	day := func(y int, m time.Month, d int) int32 {
		return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	}
	march := day(0, time.March, 1)
	// mysqlDays counts a proleptic Gregorian day before 0000-03-01 one
	// day later: year 0's February 29 does not exist in MySQL.
	mysqlDays := func(v int32) int64 {
		if v < march {
			return int64(v) + 1
		}
		return int64(v)
	}
	dates := []int32{day(0, time.January, 15), day(0, time.February, 28), march, day(0, time.June, 1),
		day(1, time.January, 1), day(2024, time.March, 1)}
	const n = 5003
	a := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TDate, n, false)
	b := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TDate, n, false)
	for i := 0; i < n; i++ {
		a.I32[i], b.I32[i] = dates[i%len(dates)], dates[(i/len(dates))%len(dates)]
	}
	y0 := &columnar.Table{Name: "y0", Rows: n, Fields: []columnar.Field{{Name: "a", Type: columnar.TDate}, {Name: "b", Type: columnar.TDate}},
		Columns: []*columnar.Column{a, b}}
	columnar.ComputeStats(y0)
	cat := catalog.New()
	cat.Put(y0)
	ps, err := sql.Parse("select datediff(a, b) from y0")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Plan(st.(*sql.Query), planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Run(context.Background(), p)
	if err != nil {
		t.Fatalf("the GPU did not run it: %v\n%s", err, p.Explain())
	}
	want, err := cpu.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffResults(got, want); d != "" {
		t.Errorf("GPU against CPU: %s", d)
	}
	col := got.Columns[0]
	for i := 0; i < n; i++ {
		v := col.I64[i]
		if col.I32 != nil {
			v = int64(col.I32[i])
		}
		if w := mysqlDays(a.I32[i]) - mysqlDays(b.I32[i]); v != w {
			t.Fatalf("row %d: DATEDIFF(%d, %d) = %d, want %d", i, a.I32[i], b.I32[i], v, w)
		}
	}
}
