package gpu

import (
	"strings"
	"testing"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// EXPLAIN ANALYZE's kernel table: rates from bytes read and written over
// the kernel's time against the profile's limit, "-" where the launch
// site does not count, and the totals line with the dimension builds.
func TestQueryProfileTable(t *testing.T) {
	p := &QueryProfile{HBMGBs: 2000, WallMs: 1.5, KernelMs: 1, HostMs: 0.5, ColumnBytes: 3e6, DimBuildsCached: 3, DimBuildsMade: 1,
		Kernels: []KernelStat{
			{Name: "dim_mark", Ms: 0.25, BytesRead: 1e6, BytesWritten: -1, RowsIn: 1000, RowsOut: -1},
			{Name: "star_fast_8", Ms: 0.5, GapMs: 0.125, BytesRead: 9e5, BytesWritten: 1e5, RowsIn: 60, RowsOut: 7},
			{Name: "fill_i64", Ms: 0.25, BytesRead: -1, BytesWritten: -1, RowsIn: -1, RowsOut: -1},
		}}
	got := p.Table()
	lines := strings.Split(got, "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines:\n%s", len(lines), got)
	}
	for i, want := range [][]string{
		{"dim_mark", "0.2500", "0.0000", "1.00", "-", "4", "0", "1000", "-"},     // 1 MB / 0.25 ms = 4 GB/s, 0.2 % rounds to 0
		{"star_fast_8", "0.5000", "0.1250", "0.90", "0.10", "2", "0", "60", "7"}, // (0.9+0.1) MB / 0.5 ms
		{"fill_i64", "0.2500", "0.0000", "-", "-", "-", "-", "-", "-"},
	} {
		if f := strings.Fields(lines[i+2]); !equalFields(f, want) {
			t.Errorf("kernel %d: %q, want %q", i, f, want)
		}
	}
	for _, want := range []string{"limit: HBM reads 2000 GB/s", "3 kernels: 1.0000 ms on the device, 0.5000 ms host time (wall 1.5000 ms)",
		"columns read 3.00 MB", "dimension builds: 3 cached, 1 made"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if GBps(2e9, 1000) != 2 || GBps(5, 0) != 0 || GBps(-1, 1) != 0 {
		t.Error("GBps")
	}
}

func equalFields(a, b []string) bool {
	return strings.Join(a, " ") == strings.Join(b, " ")
}

// A dimension build is cached under its filters' text only when the text
// determines the filter: not with subqueries, parameters or functions of
// the clock or of chance, wherever they sit in the expression.
func TestSameEveryRun(t *testing.T) {
	col := &sql.ColRef{Index: 0, Col: sql.Column{Name: "d_year", Type: columnar.TInt32}}
	lit := &sql.Const{T: columnar.TInt32, I: 1994}
	eq := func(r sql.Expr) sql.Expr { return &sql.Binary{Op: sql.OpEQ, L: col, R: r, T: columnar.TBool} }
	and := func(l, r sql.Expr) sql.Expr { return &sql.Binary{Op: sql.OpAnd, L: l, R: r, T: columnar.TBool} }
	for _, c := range []struct {
		e    sql.Expr
		want bool
	}{
		{eq(lit), true},
		{and(eq(lit), &sql.Not{E: eq(&sql.Func{Name: "abs", Args: []sql.Expr{lit}, T: columnar.TInt32})}), true},
		{and(eq(lit), eq(&planner.Subquery{T: columnar.TInt32})), false},
		{and(eq(lit), eq(&sql.Param{ID: 1, T: columnar.TInt32})), false},
		{eq(&sql.Func{Name: "YEAR", Args: []sql.Expr{&sql.Func{Name: "NOW", T: columnar.TInt64}}, T: columnar.TInt32}), false},
		{and(eq(lit), eq(&sql.Func{Name: "rand", T: columnar.TFloat64})), false},
	} {
		if got := sameEveryRun(c.e); got != c.want {
			t.Errorf("sameEveryRun(%s) = %v, want %v", c.e, got, c.want)
		}
	}
}
