package planner_test

import (
	"strings"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// The plan gives a star to the star_scan kernels when it has one group,
// every dimension only filters, and its aggregates are integer COUNTs and
// SUMs of columns without NULLs; EXPLAIN says so.
func TestStarScanChosen(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	const q11 = "select sum(lo_extendedprice*lo_discount) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25"
	for _, c := range []struct {
		name, sql string
		scan      bool
	}{
		{"Q1.1", q11, true},
		{"count", "select count(*), sum(lo_revenue) from lineorder where lo_quantity < 10", true},
		{"group by a dimension", "select d_year, sum(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_year", false},
		{"group by the fact", "select lo_discount, count(*) from lineorder group by lo_discount", false},
		{"min", "select min(lo_revenue) from lineorder where lo_quantity < 10", false},
		{"double", "select sum(lo_revenue * 1.5e0) from lineorder", false},
		{"two-column predicate", "select count(*) from lineorder where lo_quantity < lo_discount", false},
	} {
		p := planSQL(t, cat, c.sql, planner.Options{GPU: h100(t)})
		if p.GPU == nil || p.GPU.Star == nil {
			t.Errorf("%s: not a star\n%s", c.name, p.Explain())
			continue
		}
		if p.GPU.Star.Scan != c.scan || strings.Contains(p.Explain(), "(star_scan:") != c.scan {
			t.Errorf("%s: scan %v, want %v\n%s", c.name, p.GPU.Star.Scan, c.scan, p.Explain())
		}
	}
	packed := h100(t)
	packed.Packing, packed.ForcePacking = true, true
	if p := planSQL(t, cat, q11, planner.Options{GPU: packed}); p.GPU.Star.Scan {
		t.Errorf("bit-packed columns (only star_fast reads them) planned for star_scan\n%s", p.Explain())
	}
	lo, _ := cat.Table("lineorder")
	disc := lo.Columns[lo.ColumnIndex("lo_discount")]
	disc.Valid = make([]uint64, (lo.Rows+63)/64)
	if p := planSQL(t, cat, q11, planner.Options{GPU: h100(t)}); p.GPU.Star.Scan {
		t.Errorf("a nullable filter column planned for star_scan\n%s", p.Explain())
	}
}
