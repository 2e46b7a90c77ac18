package cpu_test

import (
	"os"
	"strings"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
)

// TestUnionAllStreams: UNION ALL feeds its consumer without materializing
// its inputs, so under a limit far below its rows' bytes an aggregation
// over it answers without spilling, and a sort or window over it spills
// as over any input; rows (in order where the query or the unlimited run
// fixes one) equal SQLite's and the unlimited run's.
func TestUnionAllStreams(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	cases := []struct {
		q     string
		limit int64
		// spills: the query must spill (else it must not).
		spills, ordered bool
	}{
		// 60000 rows of 2 columns; the groups are few.
		{"select a, count(*), sum(b) from (select a, b from big union all select b % 7, a from big union all select a, b from big where s = 'fig') t group by a", 64 << 10, false, false},
		{"select count(*), sum(f) from (select f from big union all select x from (select f x from big union all select b from big) s) t", 16 << 10, false, false},
		// Rows in order: the left input's first (collected as they come).
		{"select * from (select a, b from big where b < -990 union all select b, a from big where b > 990) t", 64 << 10, false, true},
		{"select a, b from big union all select b, a from big order by 1, 2", 500 << 10, true, true},
		{"select * from (select a, b, rank() over (partition by b order by a) rk from (select a, b from big union all select a + 1, b from big) u) t where rk = 3 and a < 5", 0, true, false},
	}
	for _, c := range cases {
		want := d.run(c.q, planner.Options{})
		if c.limit == 0 {
			c.limit = d.peak(c.q) * 3 / 4
		}
		got, files := d.runLimited(c.q, planner.Options{}, c.limit, dir)
		if (files > 0) != c.spills {
			t.Errorf("%s under %d bytes spilled %d files", c.q, c.limit, files)
		}
		oracle := normalize(d.oracleRows(c.q))
		if c.ordered {
			if rowsText(got) != rowsText(want) {
				t.Errorf("%s: limited rows differ from the unlimited run's", c.q)
			}
		}
		if g, o := sortedRows(normalize(got)), sortedRows(oracle); strings.Join(g, "\n") != strings.Join(o, "\n") {
			t.Errorf("%s: rows differ from SQLite's\ngot\n%s\nwant\n%s", c.q, head(strings.Join(g, "\n")), head(strings.Join(o, "\n")))
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
		}
	}
}
