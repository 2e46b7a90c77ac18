package planner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/planner"
	"gpusql/sql"
)

// The compaction rule on the h100 profile: small tables (every SSB
// query's surviving groups) come back whole, large mostly-empty ones are
// compacted, large full ones come back whole (compaction would copy more:
// a slot index per row), one group never is compacted.
func TestGroupCompactionFor(t *testing.T) {
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		groups, width int64
		rowsIn        float64
		want          bool
	}{
		{"SSB Q4.3's 800 surviving groups", 800, 2, 1e6, false},
		{"SSB Q3.2's 600 surviving groups", 600, 2, 1e6, false},
		{"one group", 1, 2, 1, false},
		{"10 M slots, 1,000 rows", 10_000_000, 2, 1000, true},
		{"1 M slots × 4 words, 50 K rows", 1_000_000, 4, 50_000, true},
		{"10 M slots, 1 G rows (every slot filled)", 10_000_000, 2, 1e9, false},
		{"64 K slots, 100 rows", 1 << 16, 2, 100, true},
		{"4 K slots, 10 rows (the copy is cheaper than the launches)", 4096, 2, 10, false},
	}
	for _, c := range cases {
		if got := planner.GroupCompactionFor(prof, c.groups, c.width, c.rowsIn); got != c.want {
			t.Errorf("%s: compact = %v, want %v", c.name, got, c.want)
		}
	}
	forced := *prof
	forced.ForceGroupCompact = true
	if !planner.GroupCompactionFor(&forced, 2, 2, 1e9) || planner.GroupCompactionFor(&forced, 1, 2, 1) {
		t.Error("ForceGroupCompact should compact every table of more than one group, and only those")
	}
}

// TestGroupCompactionGolden: a star grouping by a wide dimension key and
// a day, with a fact filter that lets few rows through, is compacted on
// the device and EXPLAIN says so; grouping by the day alone is not
// (testdata/explain/group_compact_h100.txt; go test ./planner -update).
func TestGroupCompactionGolden(t *testing.T) {
	cat := catalog.New()
	const m = 1 << 20
	cat.Put(statsTable("sales", 64*m,
		statsCol{"s_cust", 0, 100_000 - 1, 60000, false},
		statsCol{"s_day", 0, 99, 100, false},
		statsCol{"s_qty", 0, 9_999, 10000, false},
	))
	cat.Put(statsTable("cust", 100_000, statsCol{"c_key", 0, 100_000 - 1, 0, false}, statsCol{"c_id", 0, 100_000 - 1, 0, false}))
	cat.Put(statsTable("day", 100, statsCol{"d_key", 0, 99, 0, false}, statsCol{"d_month", 1, 12, 12, false}))
	queries := []struct {
		name, sql string
		compact   bool
	}{
		{"sparse: 10 M slots, ~670 K rows reach the aggregate",
			"select c_id, s_day, sum(s_qty) from sales join cust on s_cust = c_key where s_qty < 100 group by c_id, s_day", true},
		{"dense: 12 months", "select d_month, sum(s_qty) from sales join day on s_day = d_key group by d_month", false},
	}
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, q := range queries {
		ps, err := sql.Parse(q.sql)
		if err != nil {
			t.Fatal(err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.Plan(st.(*sql.Query), planner.Options{GPU: prof})
		if err != nil {
			t.Fatal(err)
		}
		if p.GPU == nil || p.GPU.Star == nil {
			t.Fatalf("%s: no star plan:\n%s", q.name, p.Explain())
		}
		ex := p.Explain()
		if got := p.GPU.Star.Groups.Compact; got != q.compact || got != strings.Contains(ex, "compacted on the device") {
			t.Errorf("%s: compact = %v, want %v, and EXPLAIN should say it:\n%s", q.name, got, q.compact, ex)
		}
		out.WriteString("-- " + q.name + "\n" + q.sql + "\n\n" + ex + "\n\n")
	}
	path := filepath.Join(goldenDir, "group_compact_h100.txt")
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./planner -update)", err)
	}
	if out.String() != string(want) {
		t.Errorf("group compaction plans changed:\n%s\nwant:\n%s", out.String(), want)
	}
}
