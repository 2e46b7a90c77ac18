package cpu_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestWindowMoreAggregatesOracle checks VAR_POP / VAR_SAMP / STDDEV and
// BIT_AND / BIT_OR / BIT_XOR over window frames against SQLite, which has
// none of them: variance from SUM(v*v), SUM(v) and COUNT(v) over the same
// window, and each bit of a bitwise aggregate from MIN / MAX / SUM of that
// bit. NULL values and partition keys, ties, sliding, running and whole
// frames, more rows than a batch, and an empty table.
func TestWindowMoreAggregatesOracle(t *testing.T) {
	d := newTestDB(t, true)
	d.create("create table wm (id int, g int, v int)")
	d.create("create table wn (id int, g int, v int)")
	var lines []string
	for i := 0; i < 9000; i++ {
		g := fmt.Sprint(i % 23)
		if i%61 == 0 {
			g = `\N`
		}
		v := fmt.Sprint((i * 11) % 16)
		if i%17 == 0 {
			v = `\N`
		}
		lines = append(lines, fmt.Sprintf("%d|%s|%s", i, g, v))
	}
	d.load("wm", lines)
	windows := []string{
		"partition by g order by id rows between 4 preceding and 3 following",
		"partition by g order by v range between 2 preceding and current row",
		"partition by g order by id",
		"partition by g",
	}
	bits := func(agg, wnd string) string { // agg over each of v's 4 bits
		var parts []string
		for k := 0; k < 4; k++ {
			parts = append(parts, fmt.Sprintf("%d * %s", 1<<k, fmt.Sprintf(agg, fmt.Sprintf("((v >> %d) & 1)", k), wnd)))
		}
		return strings.Join(parts, " + ")
	}
	for _, table := range []string{"wm", "wn"} {
		for _, wnd := range windows {
			sum := func(e string) string { return fmt.Sprintf("sum(%s) over (%s)", e, wnd) }
			cnt := fmt.Sprintf("count(v) over (%s)", wnd)
			m2 := fmt.Sprintf("(%s - 1.0 * %s * %s / %s)", sum("v * v"), sum("v"), sum("v"), cnt)
			cases := [][2]string{
				{"var_pop(v)", fmt.Sprintf("%s / %s", m2, cnt)},
				{"var_samp(v)", fmt.Sprintf("%s / (%s - 1)", m2, cnt)},
				{"stddev(v)", fmt.Sprintf("sqrt(%s / %s)", m2, cnt)},
				{"bit_or(v)", bits("coalesce(max(%s) over (%s), 0)", wnd)},
				{"bit_xor(v)", bits("(coalesce(sum(%s) over (%s), 0) %% 2)", wnd)},
			}
			for _, c := range cases {
				q := fmt.Sprintf("select id, %s over (%s) from %s", c[0], wnd, table)
				oq := fmt.Sprintf("select id, %s from %s", c[1], table)
				want := strings.Join(sortedRows(normalize(d.oracleRows(oq))), "\n")
				for _, o := range allOptions[:2] {
					if got := strings.Join(sortedRows(normalize(d.run(q, o))), "\n"); got != want {
						t.Errorf("%s %+v:\ngot\n%s\nwant\n%s", q, o, head(got), head(want))
					}
				}
			}
		}
	}
}

// TestWindowSumNegative: SUM over frames of negative integers and
// decimals (the 128-bit accumulator's high word follows the sign) equal
// SQLite's.
func TestWindowSumNegative(t *testing.T) {
	d := spillFixture(t)
	for _, q := range []string{
		"select a, b, sum(b) over (partition by a order by b) from big",
		"select sum(b) over (order by b rows between 3 preceding and 1 following) from big",
		"select count(b), sum(b) over (partition by a) from big group by a, b",
		"select sum(d) over (partition by a order by b, d) from big where b < 0",
	} {
		want := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n")
		if got := strings.Join(sortedRows(normalize(d.run(q, planner.Options{}))), "\n"); got != want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", q, head(got), head(want))
		}
	}
}
