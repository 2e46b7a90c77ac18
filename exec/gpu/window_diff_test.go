//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
)

// TestWindowDifferential runs window functions on both executors over
// sortTable (integers, doubles with -0, dictionary strings, dates and
// decimals, each with NULLs, many ties): ROW_NUMBER over total orders,
// RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST and NTILE over ties, LAG and
// LEAD (offsets 0 to 2, a default), COUNT / SUM / AVG / MIN / MAX / FIRST_VALUE
// / LAST_VALUE / NTH_VALUE over frames from the partition's first row to
// the row, its last peer or the partition's end, and COUNT / SUM / AVG and the
// value functions over ROWS frames with offsets (empty ones too) and RANGE
// frames from the current row's peers or with offsets (integers ascending
// and descending, past int64, fractional over integers, doubles, decimals,
// INTERVALs in days, weeks and hours over dates), MIN / MAX and DOUBLE
// SUM / AVG over sliding frames (the segment tree); with and without partitions,
// several functions sharing a sort, and operators above the Window (a filter on its column, ORDER BY
// with LIMIT). Sizes: empty, one row, around the scans' 2,048-row tile,
// and past 1,024 tiles (the carry kernel's threads then take several).
// Every query must run on the GPU: none may be refused.
func TestWindowDifferential(t *testing.T) {
	needGPU(t)
	queries := []string{
		"select id, row_number() over (partition by i32 % 5 order by i64, id) from T",
		"select id, rank() over (partition by s order by f), dense_rank() over (partition by s order by f) from T",
		"select id, rank() over (order by d desc), dense_rank() over (order by `dec`), row_number() over (order by id desc) from T",
		"select id, count(*) over (partition by s), count(f) over (partition by s), sum(i32) over (partition by s), min(f) over (partition by s), max(d) over (partition by s) from T",
		"select id, sum(i64 % 1000) over (partition by i32 % 3 order by f), count(*) over (partition by i32 % 3 order by f), min(`dec`) over (partition by i32 % 3 order by f), max(s is null) over (partition by i32 % 3 order by f) from T",
		"select id, sum(`dec`) over (partition by s order by id rows between unbounded preceding and current row), max(i32) over (order by id rows unbounded preceding), count(i64) over (partition by d order by id rows unbounded preceding) from T",
		"select id, sum(i32) over (), count(*) over (), min(i64) over (), max(f) over (order by i32 range between unbounded preceding and unbounded following) from T",
		"select id, rank() over (partition by s, d order by i32 desc, f) from T",
		"select * from (select id, s, row_number() over (partition by s order by id) rn from T) x where rn <= 2",
		"select id, rank() over (order by i32) r from T order by r, id limit 10",
		"select id, sum(i32) over w, min(i32) over w, max(i32) over w from T window w as (partition by `dec` order by d)",
		"select id, percent_rank() over (partition by s order by f), cume_dist() over (partition by s order by f), ntile(4) over (partition by i32 % 3 order by id), ntile(7) over (order by id) from T",
		"select id, lag(i32) over (partition by s order by id), lead(f, 2) over (order by id), lag(d, 3, d) over (partition by i32 % 4 order by id), lead(s) over (partition by d order by id), lag(i64, 0) over (order by id) from T",
		"select id, first_value(f) over (partition by s order by d), last_value(s) over (partition by i32 % 5 order by id rows unbounded preceding), nth_value(`dec`, 3) over (partition by s order by id), last_value(i32) over (partition by s), nth_value(d, 2) over (order by i32) from T",
		"select id, sum(i32) over (partition by s order by id rows between 2 preceding and current row), count(f) over (order by id rows between 3 preceding and 1 preceding), count(*) over (partition by d order by id rows between 1 following and 4 following), sum(`dec`) over (partition by i32 % 3 order by id rows between current row and unbounded following) from T",
		"select id, avg(i32) over (partition by s order by id rows between 3 preceding and current row), avg(i32) over (partition by d), avg(i32) over (order by d), avg(i32) over (order by id rows between 2 following and 5 following) from T",
		"select id, sum(i64 % 100) over (partition by s order by i32 range between current row and unbounded following), count(*) over (order by d range between current row and current row), first_value(f) over (partition by s order by id rows between 2 preceding and 2 following), last_value(d) over (order by id rows between 1 following and 3 following), nth_value(i32, 2) over (partition by s order by i32 range between current row and unbounded following) from T",
		"select id, sum(i32) over (partition by s order by i32 range between 3 preceding and 2 following), count(*) over (order by i64 desc range between 4611686018427387904 preceding and 5 following), avg(i32) over (order by f range between 0.5 preceding and 0.25 following), count(f) over (partition by i32 % 3 order by i32 range between 1.5 preceding and 1.5 following) from T",
		"select id, sum(f) over (partition by s order by id rows between 2 preceding and 1 following), avg(f) over (order by i32 range between 5 preceding and current row), sum(f) over (partition by i32 % 3 order by id), avg(f) over (partition by d), min(i32) over (order by id rows between 3 preceding and 3 following), max(f) over (partition by s order by d range between current row and interval 30 day following), min(d) over (order by id rows between current row and unbounded following), max(`dec`) over (partition by i32 % 4 order by id rows between 5 preceding and 2 preceding) from T",
		"select id, sum(`dec`) over (order by `dec` range between 2.5 preceding and current row), first_value(id) over (order by d range between interval 3 day preceding and interval 1 day following), last_value(id) over (partition by s order by d desc range between current row and interval 2 week following), sum(i32) over (order by d range between interval 36 hour preceding and current row), count(*) over (order by d range between interval 10 day following and unbounded following) from T",
	}
	for _, n := range []int{0, 1, 2047, 2048, 2049, 4097, 100_003, 2_500_001} {
		cat := catalog.New()
		tb := sortTable(n, uint64(n)+3)
		cat.Put(tb)
		for qi, text := range queries {
			if n > 200_000 && qi%3 != 0 {
				continue // the CPU's side of the big table takes long
			}
			text = strings.ReplaceAll(text, " T", " "+tb.Name)
			p := windowPlan(t, cat, text)
			if p.CPUOnly != "" {
				t.Errorf("%s: kept on the CPU: %s", text, p.CPUOnly)
				continue
			}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("n=%d %s cpu: %v", n, text, err)
			}
			got, err := Run(context.Background(), p)
			if err != nil {
				t.Errorf("n=%d %s: %v\n%s", n, text, err, p.Explain())
				continue
			}
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Errorf("n=%d %s: %s\n%s", n, text, d, p.Explain())
			}
		}
	}
}

// TestWindowOverflow: a running SUM past BIGINT's range fails the GPU's
// run with errOverflow (the engine then reruns it on the CPU, which sums
// in 128 bits) instead of returning a wrapped total.
func TestWindowOverflow(t *testing.T) {
	needGPU(t)
	cat := catalog.New()
	tb := overflowTable(5000, 0, func(i int) int64 { return 1 << 61 }, func(i int) int64 { return int64(i) })
	cat.Put(tb)
	p := windowPlan(t, cat, fmt.Sprintf("select a, sum(a) over (order by b) from %s", tb.Name))
	if _, err := Run(context.Background(), p); !errors.Is(err, errOverflow) {
		t.Fatalf("want errOverflow, got %v", err)
	}
}

func windowPlan(t testing.TB, cat *catalog.Catalog, text string) *planner.Physical {
	t.Helper()
	ps, err := sql.Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	p, err := planner.Plan(st.(*sql.Query), planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWindowParamLayout checks the Go twins of kernels/window.cu's
// parameter structs against the sizes the kernels report.
func TestWindowParamLayout(t *testing.T) {
	d := needGPU(t)
	var got [5]int64
	err := d.do(func() error {
		out, err := d.pool.get(40)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		f, err := d.fn("win_param_sizes")
		if err != nil {
			return err
		}
		arg := uint64(out)
		if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&got[0]), out, 40)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [5]int64{int64(unsafe.Sizeof(winBoundsParams{})), int64(unsafe.Sizeof(winScanParams{})),
		int64(unsafe.Sizeof(winEndsParams{})), int64(unsafe.Sizeof(winFinishParams{})), int64(unsafe.Sizeof(winTreeParams{}))}
	if got != want {
		t.Errorf("kernel struct sizes %v, Go's %v", got, want)
	}
}

// TestWindowDeviceMemory: a window whose working memory does not fit the
// device fails with an error wrapping ErrUnsupported (the engine's auto
// executor then answers on the CPU), and the device runs it once the
// memory is there.
func TestWindowDeviceMemory(t *testing.T) {
	needGPU(t)
	cat := catalog.New()
	tb := sortTable(300_000, 5)
	cat.Put(tb)
	p := windowPlan(t, cat, fmt.Sprintf("select id, sum(i32) over (partition by s order by id rows between 2 preceding and current row) from %s", tb.Name))
	poolLimit.Store(1 << 20)
	_, err := Run(context.Background(), p)
	poolLimit.Store(0)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "device memory") {
		t.Fatalf("want a device memory error wrapping ErrUnsupported, got %v", err)
	}
	want, err := cpu.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffResults(sorted(got), sorted(want)); d != "" {
		t.Error(d)
	}
}
