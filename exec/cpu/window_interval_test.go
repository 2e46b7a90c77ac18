package cpu_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestWindowIntervalOracle checks RANGE frames with INTERVAL offsets over
// DATE and DATETIME keys against SQLite's numeric RANGE frames over
// julianday() and epoch seconds: NULL keys, many rows sharing a date, skewed
// partitions, a one-row partition, more rows than a batch, and an empty
// table.
func TestWindowIntervalOracle(t *testing.T) {
	d := newTestDB(t, true)
	d.create("create table di (id int, g int, d date, ts datetime, v int)")
	d.create("create table de (id int, g int, d date, ts datetime, v int)")
	var lines []string
	for i := 0; i < 9000; i++ {
		g := fmt.Sprint(i % 5)
		if i%3 == 0 {
			g = "0" // skew: partition 0 holds over half the rows
		}
		if i == 4444 {
			g = "99" // a one-row partition
		}
		day := (i * 37) % 400 // ties: about 22 rows per date
		ds := fmt.Sprintf("%s|%s", dateText(day), datetimeText(day, i))
		if i%41 == 0 {
			ds = `\N|\N`
		}
		lines = append(lines, fmt.Sprintf("%d|%s|%s|%d", i, g, ds, (i*13)%17))
	}
	d.load("di", lines)
	epoch := "CAST(strftime('%s', ts) AS INTEGER)"
	cases := [][2]string{
		{"sum(v) over (partition by g order by d range between interval 7 day preceding and current row)",
			"sum(v) over (partition by g order by julianday(d) range between 7 preceding and current row)"},
		{"count(*) over (partition by g order by d desc range between interval 2 week preceding and interval 3 day following)",
			"count(*) over (partition by g order by julianday(d) desc range between 14 preceding and 3 following)"},
		{"max(id) over (order by d range between interval 1 day following and interval 10 day following)",
			"max(id) over (order by julianday(d) range between 1 following and 10 following)"},
		{"sum(v) over (partition by g order by ts range between interval 90 minute preceding and interval 1 hour following)",
			"sum(v) over (partition by g order by " + epoch + " range between 5400 preceding and 3600 following)"},
		{"min(id) over (order by ts desc range between interval 36 hour preceding and interval 1 second preceding)",
			"min(id) over (order by " + epoch + " desc range between 129600 preceding and 1 preceding)"},
	}
	for _, table := range []string{"di", "de"} {
		for _, c := range cases {
			q := fmt.Sprintf("select id, %s from %s", c[0], table)
			want := strings.Join(sortedRows(normalize(d.oracleRows(fmt.Sprintf("select id, %s from %s", c[1], table)))), "\n")
			for _, o := range allOptions {
				if got := strings.Join(sortedRows(normalize(d.run(q, o))), "\n"); got != want {
					t.Errorf("%s %+v:\ngot\n%s\nwant\n%s", q, o, head(got), head(want))
				}
			}
		}
	}
}

// dateText is day days after 2024-01-01 (2024 is a leap year: the dates
// cross February 29 and the year end).
func dateText(day int) string {
	y, m, dd := 2024, 1, 1+day
	for {
		n := []int{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
		if y != 2024 && m == 2 {
			n = 28
		}
		if dd <= n {
			break
		}
		dd -= n
		if m++; m > 12 {
			m, y = 1, y+1
		}
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, dd)
}

// datetimeText is a time on that date: whole seconds, spread over the day.
func datetimeText(day, i int) string {
	s := (i * 7919) % 86400
	return fmt.Sprintf("%s %02d:%02d:%02d", dateText(day), s/3600, s/60%60, s%60)
}
