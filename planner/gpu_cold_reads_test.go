package planner_test

import (
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// q12 is SSB Q1.2.
const q12 = "select sum(lo_extendedprice*lo_discount) as revenue from lineorder, date where lo_orderdate = d_datekey and d_yearmonthnum = 199401 and lo_discount between 4 and 6 and lo_quantity between 26 and 35"

// starColumns plans q as a star for prof and returns the names of the
// plan's columns that has.
func starColumns(t *testing.T, cat *catalog.Catalog, prof *planner.GPUProfile, q string, has func(planner.GPUColumn) bool) map[string]bool {
	t.Helper()
	p := planSQL(t, cat, q, planner.Options{GPU: prof})
	if p.GPU.Star == nil {
		t.Fatalf("not a star:\n%s", p.Explain())
	}
	m := map[string]bool{}
	for _, c := range p.GPU.Columns {
		if has(c) {
			m[c.Column] = true
		}
	}
	return m
}

// A cold run reads in place the columns sent packed that the kernel reads
// after selective filters (SSB Q1.2: lo_quantity, lo_discount and
// lo_extendedprice, read for a few % of the rows), not the one it reads
// in full first (lo_orderdate: copying is cheaper at the pinned copy
// rate), not a column the expression VM reads too, and none when the
// profile says cold runs copy (GPUSQL_COLD_IN_PLACE=off) or the columns
// are kept packed on the device.
func TestColdReadsInPlace(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	inPlace := func(prof *planner.GPUProfile, q string) map[string]bool {
		t.Helper()
		return starColumns(t, cat, prof, q, func(c planner.GPUColumn) bool {
			if c.Packing == nil || !c.Packing.ColdInPlace {
				return false
			}
			if c.Packing.ColdBytes <= 0 || c.Packing.ColdBytes > c.Packing.Bytes {
				t.Errorf("%s: est %d bytes in place of %d packed", c.Column, c.Packing.ColdBytes, c.Packing.Bytes)
			}
			return true
		})
	}
	transfer := h100(t)
	transfer.PackTransfer, transfer.ForcePacking = true, true // this scale's columns are too small to pack otherwise
	got := inPlace(transfer, q12)
	for _, c := range []string{"lo_quantity", "lo_discount", "lo_extendedprice"} {
		if !got[c] {
			t.Errorf("Q1.2: %s not read in place (%v)", c, got)
		}
	}
	if got["lo_orderdate"] {
		t.Error("Q1.2: lo_orderdate, read for every row, read in place")
	}
	// lo_quantity + lo_discount goes through the expression VM: both are
	// read as 4-byte columns, so neither is read in place.
	got = inPlace(transfer, "select sum(lo_extendedprice) from lineorder, date where lo_orderdate = d_datekey and d_yearmonthnum = 199401 and lo_quantity + lo_discount > 40")
	if got["lo_quantity"] || got["lo_discount"] {
		t.Errorf("columns the VM reads read in place: %v", got)
	}
	copies := *transfer
	copies.ColdCopies = true
	if got := inPlace(&copies, q12); len(got) > 0 {
		t.Errorf("cold copies: %v read in place", got)
	}
	kept := packing(t)
	kept.ForcePacking = true
	if got := inPlace(kept, q12); len(got) > 0 {
		t.Errorf("kept packed: %v read in place", got)
	}
}

// Every column a cold star run copies (sent packed, not read in place) is
// copied ahead of its dimension builds: SSB Q1.2's lo_orderdate, read in
// full first; none when the profile says copies wait for their readers
// (GPUSQL_COPY_AHEAD=off), when the columns are kept packed on the device,
// or when the star has no dimension to build.
func TestCopyAheadPlanned(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	ahead := func(prof *planner.GPUProfile, q string) map[string]bool {
		t.Helper()
		return starColumns(t, cat, prof, q, func(c planner.GPUColumn) bool {
			if c.Packing == nil || !c.Packing.CopyAhead {
				return false
			}
			if c.Packing.ColdInPlace || !c.Packing.Transfer || !c.Fact {
				t.Errorf("%s copied ahead: %+v, fact %v", c.Column, *c.Packing, c.Fact)
			}
			return true
		})
	}
	transfer := h100(t)
	transfer.PackTransfer, transfer.ForcePacking = true, true
	if got := ahead(transfer, q12); len(got) != 1 || !got["lo_orderdate"] {
		t.Errorf("Q1.2 copied ahead: %v, want lo_orderdate", got)
	}
	p := planSQL(t, cat, q12, planner.Options{GPU: transfer})
	if !strings.Contains(p.Explain(), "lineorder.lo_orderdate resident") || !strings.Contains(p.Explain(), "copied ahead of the dimension builds while not resident") {
		t.Errorf("EXPLAIN does not say lo_orderdate is copied ahead:\n%s", p.Explain())
	}
	whenRead := *transfer
	whenRead.CopiesWhenRead = true
	if got := ahead(&whenRead, q12); len(got) > 0 {
		t.Errorf("copies when read: %v copied ahead", got)
	}
	kept := packing(t)
	kept.ForcePacking = true
	if got := ahead(kept, q12); len(got) > 0 {
		t.Errorf("kept packed: %v copied ahead", got)
	}
	if got := ahead(transfer, "select sum(lo_revenue) from lineorder where lo_discount = 3 group by lo_quantity"); len(got) > 0 {
		t.Errorf("a star without dimensions: %v copied ahead", got)
	}
}
