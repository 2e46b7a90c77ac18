package cpu_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
)

// TestWindowSpill computes window functions past the memory limit with the
// smallest fans (partition files partitioned again, multi-pass merges):
// the rows, in order, equal the unlimited run's, and SQLite's where the
// functions do not depend on the order of ties; no file is left.
func TestWindowSpill(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	// The window's output is whole in memory (as a sort's is): the queries
	// keep few of its rows, and run under three quarters of what the
	// unlimited run held at its peak.
	cases := []struct {
		q string
		// sqlite: the answer does not depend on how ties are ordered.
		sqlite bool
	}{
		{"select * from (select b, a, rank() over (partition by b order by a) rk, count(*) over (partition by b) c, sum(a) over (partition by b order by a) sa from big) t where rk = 2 and a < 4", true},
		{"select * from (select b, s, dense_rank() over (partition by s, b order by a desc) dr, cume_dist() over (partition by b order by a) cd from big) t where dr = 1 and cd < 0.5 and s = 'fig'", true},
		{"select * from (select b, a, row_number() over (partition by b order by a) rn, lag(a, 1, -1) over (partition by b order by a) la, last_value(f) over (partition by b order by a rows between unbounded preceding and unbounded following) lv from big) t where rn <= 2 and la between 0 and 3", false},
		{"select * from (select s, b, ntile(4) over (partition by s, b order by a) nt, percent_rank() over (partition by b, s order by a) pr from big where a < 20) t where nt = 1 and pr > 0.5", false},
		{"select count(*), sum(rk), sum(c) from (select rank() over (partition by b order by a) rk, count(*) over (partition by b, s) c from big) t", true},
	}
	for _, c := range cases {
		want := d.run(c.q, planner.Options{})
		limit := d.peak(c.q) * 3 / 4
		got, files := d.runLimited(c.q, planner.Options{}, limit, dir)
		if files < 3 {
			t.Errorf("%s under %d bytes spilled %d files, want at least 3", c.q, limit, files)
		}
		if rowsText(got) != rowsText(want) {
			t.Errorf("%s: spilled rows differ from the unlimited run's\ngot\n%s\nwant\n%s", c.q, head(rowsText(got)), head(rowsText(want)))
		}
		if c.sqlite {
			g, o := sortedRows(normalize(got)), sortedRows(normalize(d.oracleRows(c.q)))
			if strings.Join(g, "\n") != strings.Join(o, "\n") {
				t.Errorf("%s: spilled rows differ from SQLite's", c.q)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
		}
	}
}

// TestWindowSpillTooLarge: a window partition that does not fit alone (a
// third of the rows share a = 7; OVER () is one partition) stops with the
// memory limit error naming the functions, where they need more than the
// rows before them; and leaves no file.
func TestWindowSpillTooLarge(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	for _, c := range []struct {
		q, want string
		limit   int64
	}{
		{"select a, sum(a) over (partition by a order by b rows between 1 preceding and 1 following) from big", "one window partition holds", 400 << 10},
		{"select count(*), sum(rk), sum(t) from (select rank() over (partition by a order by b) rk, ntile(3) over (partition by a order by b) t from big) x", "one window partition holds", 640 << 10},
		{"select b, first_value(a) over () from big", "the whole input is one window partition", 400 << 10},
		// COUNT over the whole partition: its one peer group is held.
		{"select count(*), sum(c) from (select count(*) over () c from big) t", "a peer group of over", 200 << 10},
	} {
		_, _, err := d.tryLimited(c.q, planner.Options{}, c.limit, dir)
		var me *exec.MemoryLimitError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "OVER") {
			t.Errorf("%s: got %v, want the memory limit error saying %q and naming the function", c.q, err, c.want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
		}
	}
}

// TestWindowStream: ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD and running COUNT /
// MIN / MAX / SUM / AVG over one window whose
// partition does not fit (the same window with NTILE stops at the same
// limit) stream over the externally sorted input: the rows, in order,
// equal the unlimited run's, and SQLite's where ties do not matter.
func TestWindowStream(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	for _, c := range []struct {
		q, twin string // twin: the same window, not streamable: it must stop
		limit   int64
		sqlite  bool
	}{
		{"select * from (select a, b, rank() over (partition by a order by b desc) rk from big) t where rk % 97 = 1",
			"select count(*), sum(t) from (select ntile(3) over (partition by a order by b desc) t from big) x", 480 << 10, true},
		{"select count(*), sum(dr), sum(rk) from (select dense_rank() over (partition by a order by b desc) dr, rank() over (partition by a order by b desc) rk from big) t",
			"select count(*), sum(t) from (select ntile(3) over (partition by a order by b desc) t from big) x", 660 << 10, true},
		{"select count(*), sum(rn), max(rn), sum(rk) from (select row_number() over (order by s, a) rn, rank() over (order by s, a) rk from big) t",
			"select count(*), sum(t) from (select percent_rank() over (order by s, a) t from big) x", 700 << 10, true},
		{"select * from (select a, b, s, lag(s, 2) over (partition by a < 30 order by b, f) l2, lag(b, 1, -5) over (partition by a < 30 order by b, f) l1, lead(s, 3) over (partition by a < 30 order by b, f) d3, lead(b, 1, 7) over (partition by a < 30 order by b, f) d1, row_number() over (partition by a < 30 order by b, f) rn from big) t where rn % 50 = 3",
			"select count(*), sum(t), max(s) from (select s, ntile(3) over (partition by a < 30 order by b, f) t from big) x", 1200 << 10, false},
		// Running aggregates: RANGE frames wait for the current row's
		// peers (ties on b), ROWS frames take rows in input order.
		{"select * from (select a, b, count(*) over (partition by a < 30 order by b) c, max(f) over (partition by a < 30 order by b) mx, count(d) over (partition by a < 30 order by b) cd, min(s) over (partition by a < 30 order by b) mn from big) t where c % 40 = 1",
			"select * from (select a, b, count(*) over (partition by a < 30 order by b) c, max(f) over (partition by a < 30 order by b) mx, count(d) over (partition by a < 30 order by b) cd, first_value(s) over (partition by a < 30 order by b) mn from big) t where c % 40 = 1", 1500 << 10, true},
		{"select * from (select a, b, count(*) over (partition by a < 30 order by b rows unbounded preceding) c, min(f) over (partition by a < 30 order by b rows between unbounded preceding and current row) mn, lead(s, 2) over (partition by a < 30 order by b) ld from big) t where c % 40 = 1",
			"select * from (select a, b, count(*) over (partition by a < 30 order by b rows unbounded preceding) c, min(f) over (partition by a < 30 order by b rows between unbounded preceding and current row) mn, nth_value(s, 2) over (partition by a < 30 order by b) ld from big) t where c % 40 = 1", 1200 << 10, false},
		{"select * from (select a, b, sum(b) over (partition by a < 30 order by b) sb, avg(f) over (partition by a < 30 order by b rows unbounded preceding) af, sum(d) over (partition by a < 30 order by b) sd from big where a < 40) t where b % 37 = 1",
			"select * from (select a, b, sum(b) over (partition by a < 30 order by b) sb, avg(f) over (partition by a < 30 order by b rows between 1 preceding and 1 following) af, sum(d) over (partition by a < 30 order by b) sd from big where a < 40) t where b % 37 = 1", 1200 << 10, false},
		{"select * from (select f, s, row_number() over () rn from big) t where rn % 1000 = 0",
			"select count(*), sum(t) from (select ntile(2) over () t from big) x", 600 << 10, false},
	} {
		if _, _, err := d.tryLimited(c.twin, planner.Options{}, c.limit, dir); !strings.Contains(fmt.Sprint(err), "window partition") {
			t.Errorf("%s under %d bytes: %v, want the window partition's memory limit error", c.twin, c.limit, err)
		}
		want := d.run(c.q, planner.Options{})
		got, files := d.runLimited(c.q, planner.Options{}, c.limit, dir)
		if files < 2 {
			t.Errorf("%s under %d bytes spilled %d files", c.q, c.limit, files)
		}
		if rowsText(got) != rowsText(want) {
			t.Errorf("%s: streamed rows differ from the unlimited run's\ngot\n%s\nwant\n%s", c.q, head(rowsText(got)), head(rowsText(want)))
		}
		if c.sqlite {
			g, o := sortedRows(normalize(got)), sortedRows(normalize(d.oracleRows(c.q)))
			if strings.Join(g, "\n") != strings.Join(o, "\n") {
				t.Errorf("%s: streamed rows differ from SQLite's", c.q)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
		}
	}
}

// peak is the most memory q holds at once without a limit.
func (d *testDB) peak(q string) int64 {
	d.t.Helper()
	mem := exec.NewMemory(0, nil)
	defer mem.Close()
	if _, err := cpu.Run(exec.WithMemory(context.Background(), mem), d.plan(q, planner.Options{})); err != nil {
		d.t.Fatalf("%s: %v", q, err)
	}
	return mem.Peak()
}
