package cpu_test

import (
	"testing"

	"gpusql/planner"
)

func TestSmoke(t *testing.T) {
	d := newTestDB(t, true)
	d.create("create table t (a int, b varchar(10), c bigint)")
	d.load("t", []string{"1|x|10", "2|y|20", "3|x|30", `\N|y|\N`})
	for _, q := range []string{
		"select a, b, c from t",
		"select b, sum(c), count(*), count(a) from t group by b",
		"select a from t where b = 'x'",
		"select sum(c) from t where a > 1",
	} {
		got := d.run(q, planner.Options{})
		want := d.oracleRows(q)
		g, w := sortedRows(normalize(got)), sortedRows(normalize(want))
		if rowsText([][]string{g}) != rowsText([][]string{w}) {
			t.Errorf("%s:\ngot  %v\nwant %v\n%s", q, g, w, d.plan(q, planner.Options{}).Explain())
		}
	}
}
