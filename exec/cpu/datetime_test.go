package cpu_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// TestZoneMapsDatetime: a range filter on a clustered DATETIME column
// against string constants (bound at fsp 6, the column at fsp 0) skips the
// morsels its chunk statistics exclude and counts what brute force counts.
func TestZoneMapsDatetime(t *testing.T) {
	d := newTestDB(t, false)
	d.create("create table ev (id int, ts datetime)")
	base, _ := columnar.ParseDatetime("2024-01-01 00:00:00", 0)
	lo, _ := columnar.ParseDatetime("2024-01-02 03:00:00.5", 6)
	hi, _ := columnar.ParseDatetime("2024-01-02 03:30:00", 6)
	const n = 200_000
	lines := make([]string, n)
	want := 0
	for i := range lines {
		us := base + int64(i)*columnar.MicrosPerSecond
		lines[i] = fmt.Sprintf("%d|%s", i, columnar.FormatDatetime(us, 0))
		if us >= lo && us <= hi {
			want++
		}
	}
	d.load("ev", lines)
	p := d.plan("select count(*) from ev where ts between '2024-01-02 03:00:00.5' and '2024-01-02 03:30:00'", planner.Options{})
	res, st, err := cpu.RunAnalyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := formatResult(res)[0][0]; got != fmt.Sprint(want) {
		t.Fatalf("count %s, want %d", got, want)
	}
	for _, nd := range p.Nodes() {
		if ts, ok := nd.(*planner.TableScan); ok {
			if r := st.Ops[ts.ID].Rows; r > 65536 {
				t.Errorf("scan read %d rows; zone maps should leave one morsel", r)
			}
		}
	}
}

// TestDatetimeOracle checks filters, grouping, DISTINCT, joins, MIN/MAX and
// sorts over DATETIME columns against SQLite, which keeps the values as
// 'YYYY-MM-DD HH:MM:SS' text (ordered as the instants are), under every
// join and group-by strategy. Data: NULLs, a hot value (skew), duplicates,
// more rows than a morsel.
func TestDatetimeOracle(t *testing.T) {
	d := newTestDB(t, true)
	r := rand.New(rand.NewSource(7))
	base, _ := columnar.ParseDatetime("2023-12-30 00:00:00", 0)
	at := func() string {
		switch {
		case r.Intn(20) == 0:
			return `\N`
		case r.Intn(5) == 0:
			return "2024-01-01 12:00:00" // hot value
		}
		return columnar.FormatDatetime(base+int64(r.Intn(4*86400/7))*7*columnar.MicrosPerSecond, 0)
	}
	d.create("create table ev (id int, ts datetime, g int)")
	lines := make([]string, 70_001)
	for i := range lines {
		lines[i] = fmt.Sprintf("%d|%s|%d", i, at(), r.Intn(13))
	}
	d.load("ev", lines)
	d.create("create table marks (name varchar(10), at datetime)")
	lines = lines[:0]
	for i := 0; i < 400; i++ {
		lines = append(lines, fmt.Sprintf("m%d|%s", i%37, at()))
	}
	d.load("marks", lines)
	for _, q := range []string{
		"select count(*), min(ts), max(ts), count(distinct ts) from ev where ts >= '2023-12-31 06:00:00' and ts < '2024-01-02 00:00:00'",
		"select g, count(ts), min(ts), max(ts) from ev group by g",
		"select ts, count(*) from ev where ts between '2024-01-01 11:00:00' and '2024-01-01 13:00:00' group by ts",
		"select distinct ts from ev where g = 3 and ts > '2024-01-02 00:00:00'",
		"select m.name, count(*) from ev e join marks m on e.ts = m.at group by m.name",
		"select count(*) from ev e left join marks m on e.ts = m.at where m.at is null",
		"select id, ts from ev where ts is not null order by ts desc, id limit 25",
		"select count(*) from ev where ts in ('2024-01-01 12:00:00', '2023-12-30 00:00:07') or ts is null",
		"select date(ts), count(*) from ev group by date(ts)",
	} {
		want := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n")
		for _, o := range allOptions {
			if got := strings.Join(sortedRows(normalize(d.run(q, o))), "\n"); got != want {
				t.Errorf("%s %+v:\ngot\n%s\nwant\n%s", q, o, head(got), head(want))
			}
		}
	}
}
