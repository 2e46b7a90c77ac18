package cpu_test

import (
	"context"
	"strings"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
)

// A scan that probes an inner join on a clustered key reads only the
// morsels whose key range meets the keys the join built; the answers are
// those of first principles (sorted.id runs 0..199,999 in order; t3.k
// 0..99 with v = words[k % 10]). A LEFT JOIN keeps every row: all read.
func TestKeyRangeZones(t *testing.T) {
	d := fixtureDB(t)
	cases := []struct {
		sql, want string
		maxRead   int
	}{
		{"select count(*) from sorted, t3 where sorted.id = t3.k and t3.v = 'apple'", "10", 65536},
		{"select count(*), min(id), max(id) from sorted join t3 on id = k where k >= 90", "10|90|99", 65536},
		{"select count(*) from sorted, t3 where sorted.id = t3.k and t3.v = 'none such'", "0", 0},
		{"select count(*) from sorted left join t3 on sorted.id = t3.k and t3.v = 'apple'", "200000", 200000},
	}
	for _, c := range cases {
		p := d.plan(c.sql, planner.Options{})
		res, st, err := cpu.RunAnalyze(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(formatResult(res)[0], "|"); got != c.want {
			t.Errorf("%s: %s, want %s", c.sql, got, c.want)
		}
		for _, n := range p.Nodes() {
			if ts, ok := n.(*planner.TableScan); ok && ts.Table.Name == "sorted" {
				if r := st.Ops[ts.ID].Rows; r > int64(c.maxRead) || (c.maxRead == 200000 && r != 200000) {
					t.Errorf("%s: the scan of sorted read %d rows, want at most %d", c.sql, r, c.maxRead)
				}
			}
		}
	}
}
