package cpu_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestWindowOracle checks window functions against SQLite over inputs with
// NULL partition and order keys, many ties, one-row partitions, more rows
// than a batch, and an empty table.
func TestWindowOracle(t *testing.T) {
	d := newTestDB(t, true)
	d.create("create table wt (id int, g int, v int, x double)")
	d.create("create table we (id int, g int, v int, x double)")
	var lines []string
	for i := 0; i < 9000; i++ {
		g := fmt.Sprint(i % 37)
		switch {
		case i%53 == 0:
			g = `\N`
		case i%1000 == 999:
			g = fmt.Sprint(1000 + i) // a one-row partition
		}
		v := fmt.Sprint((i * 7) % 11)
		if i%13 == 0 {
			v = `\N`
		}
		lines = append(lines, fmt.Sprintf("%d|%s|%s|%d.5", i, g, v, i%5))
	}
	d.load("wt", lines)
	funcs := []string{
		"row_number() over (partition by g order by v, id)",
		"rank() over (partition by g order by v)",
		"dense_rank() over (partition by g order by v desc)",
		"ntile(3) over (partition by g order by id)",
		"lag(v, 2, -1) over (partition by g order by id)",
		"lead(v) over (partition by g order by id)",
		"first_value(v) over (partition by g order by v, id)",
		"last_value(v) over (partition by g order by v)",
		"sum(v) over (partition by g order by v)",
		"count(v) over (partition by g)",
		"count(*) over (partition by g order by v rows between 3 preceding and 2 following)",
		"min(v) over (partition by g order by id rows between 5 preceding and current row)",
		"max(v) over (partition by g order by id rows between current row and 4 following)",
		"sum(v) over (partition by g order by v range between 2 preceding and 1 following)",
		"max(id) over (partition by g order by v desc range between 1 preceding and current row)",
		"sum(x) over (partition by g order by id)",
		"sum(v) over ()",
	}
	for _, table := range []string{"wt", "we"} {
		for _, f := range funcs {
			q := fmt.Sprintf("select id, %s from %s", f, table)
			want := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n")
			for _, o := range allOptions {
				if got := strings.Join(sortedRows(normalize(d.run(q, o))), "\n"); got != want {
					t.Errorf("%s %+v:\ngot\n%s\nwant\n%s", q, o, head(got), head(want))
				}
			}
		}
	}
}

// TestWindowPartitionsInParallel: past 65,536 rows a window's frames and
// prefix sums run partition runs on several goroutines (eachPartition),
// whose cuts must fall between partitions: checked against SQLite over
// partitions of every size, one of them most of the rows.
func TestWindowPartitionsInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(7))
	d := newTestDB(t, true)
	d.create("create table wp (id int, g int, v int)")
	lines := make([]string, 120_000)
	for i := range lines {
		g := i % 911
		if i >= 40_000 && i < 100_000 {
			g = 5000 // one partition of 60,000 rows spans several cuts
		}
		v := fmt.Sprint((i * 31) % 101)
		if i%17 == 0 {
			v = `\N`
		}
		lines[i] = fmt.Sprintf("%d|%d|%s", i, g, v)
	}
	d.load("wp", lines)
	for _, f := range []string{
		"sum(v) over (partition by g order by id)",
		"count(v) over (partition by g order by v range between 3 preceding and 2 following)",
		"sum(v) over (partition by g order by id rows between 4 preceding and 1 following)",
	} {
		q := fmt.Sprintf("select id, %s from wp", f)
		want := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n")
		if got := strings.Join(sortedRows(normalize(d.run(q, allOptions[0]))), "\n"); got != want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", q, head(got), head(want))
		}
	}
}
