package columnar

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadSSBSample loads the output of the reference SSB generator
// (dbgen, SF1: the whole date table, the first 50 rows of the others) into
// tables of the project's SSB schema.
func TestLoadSSBSample(t *testing.T) {
	if _, err := os.Stat(ssbSampleDir); err != nil {
		t.Skipf("SSB sample not found: %v", err)
	}
	schema := ssbSchema(t)
	counts := map[string]int{"date": 2556, "lineorder": 50, "customer": 50, "part": 50, "supplier": 50}
	tables := map[string]*Table{}
	for name, n := range counts {
		fields, ok := schema[name]
		if !ok {
			t.Fatalf("schema.sql has no table %s", name)
		}
		tb := mustLoad(t, NewEmptyTable(name, fields), filepath.Join(ssbSampleDir, name+".tbl"), tbl)
		if tb.Rows != n {
			t.Errorf("%s: %d rows, want %d", name, tb.Rows, n)
		}
		checkStatsExact(t, tb)
		tables[name] = tb
	}
	want := map[string]map[int]string{
		"lineorder": {
			0:  "1|1|25738|155190|828|19950218|2-HIGH|0|17|2116823|7730149|4|2032150|74711|2|19950331|TRUCK",
			49: "36|6|14578|51105|1851|19940118|3-MEDIUM|0|44|4646840|36786663|6|4368029|63366|2|19940218|SHIP",
		},
		"date": {
			0:    "19920101|January 1, 1992|Thursday|January|1992|199201|Jan1992|5|1|1|1|1|Winter|0|1|1|1",
			2555: "19981230|December 30, 1998|Thursday|December|1998|199812|Dec1998|5|30|364|12|53|Christmas|0|1|0|1",
		},
		"customer": {0: "1|Customer#000000001|j5JsirBM9P|MOROCCO  4|MOROCCO|AFRICA|25-214-662-5265|BUILDING"},
		"part":     {2: "3|green antique|MFGR#3|MFGR#32|MFGR#3210|dark|STANDARD POLISHED BRASS|21|WRAP CASE"},
		"supplier": {0: "1|Supplier#000000001|sdrGnXCDRcfriBvY0KL,i|PERU     7|PERU|AMERICA|27-989-741-2988"},
	}
	for name, byRow := range want {
		all := rows(tables[name])
		for r, w := range byRow {
			if all[r] != w {
				t.Errorf("%s row %d:\n got %s\nwant %s", name, r, all[r], w)
			}
		}
	}
	d := tables["date"]
	if s := d.ColumnSummary(d.ColumnIndex("d_year")); s.Min != 1992 || s.Max != 1998 || s.Distinct != 7 {
		t.Errorf("d_year summary %+v", s)
	}
	if got := d.Columns[d.ColumnIndex("d_dayofweek")].Dict.Len(); got != 7 {
		t.Errorf("d_dayofweek has %d distinct values", got)
	}
}
