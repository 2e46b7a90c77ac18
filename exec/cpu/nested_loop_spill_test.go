package cpu_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
)

// TestBlockNestedLoopJoin runs non-equi joins whose inner (right) input
// does not fit as block nested-loop joins: inner, LEFT (rows left without
// a pair across every inner block), semi and anti joins, and outer inputs
// read in several blocks; the rows equal SQLite's and the unlimited
// run's, and no file is left.
func TestBlockNestedLoopJoin(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	cases := []struct {
		q     string
		limit int64
		// outerEmpty: only the inner input is written (one file, not two).
		outerEmpty bool
	}{
		{"select x.a, x.b, count(y.b), min(y.s) from big x left join (select b, s from big where a < 40) y on y.b > x.b + 1990 and y.s < x.s where x.a < 3 group by x.a, x.b", 256 << 10, false},
		{"select count(*), sum(x.b) from big x where x.a < 4 and exists (select 1 from big y where y.a < 40 and y.b > x.b + 1980 and y.s <> x.s)", 256 << 10, false},
		{"select x.b, x.s from big x where x.a < 2 and not exists (select 1 from big y where y.a < 40 and y.b > x.b + 1985)", 256 << 10, false},
		// Outer blocks: both inputs past the limit.
		{"select count(*), sum(x.b), sum(y.b) from (select b, s from big where a between 10 and 29) x join (select b, s from big where a between 30 and 49) y on x.b > y.b + 1960 and x.s > y.s", 96 << 10, false},
		{"select count(*), count(y.b), sum(x.b) from (select b from big where a between 10 and 29) x left join (select b from big where a between 30 and 49) y on y.b > x.b + 1980", 40 << 10, false},
		// No outer row: no output, whatever the kind.
		{"select count(*), count(y.b) from (select b from big where a > 100) x left join (select b, s from big where a < 40) y on y.b > x.b", 128 << 10, true},
	}
	for _, c := range cases {
		want := d.run(c.q, planner.Options{})
		got, files := d.runLimited(c.q, planner.Options{}, c.limit, dir)
		if want := 2 - int64(b2i(c.outerEmpty)); files < want {
			t.Errorf("%s under %d bytes spilled %d files, want at least %d\n%s", c.q, c.limit, files, want, d.plan(c.q, planner.Options{}).Explain())
		}
		g, w := strings.Join(sortedRows(got), "\n"), strings.Join(sortedRows(want), "\n")
		if g != w {
			t.Errorf("%s: spilled rows differ from the unlimited run's\ngot\n%s\nwant\n%s", c.q, head(g), head(w))
		}
		if o := strings.Join(sortedRows(normalize(d.oracleRows(c.q))), "\n"); strings.Join(sortedRows(normalize(got)), "\n") != o {
			t.Errorf("%s: spilled rows differ from SQLite's", c.q)
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
		}
	}
}

// countdownCtx is cancelled once its Err has been asked n times: a query
// stopped part way through, at a point the count picks, without timing.
type countdownCtx struct {
	context.Context
	n atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return c.Context.Err()
}

// TestSpillCancelled stops spilling windows and block nested-loop joins
// at many points: each run ends with its rows or context.Canceled, and
// leaves no file behind.
func TestSpillCancelled(t *testing.T) {
	defer cpu.SetSpillFans(2, 2)()
	d := spillFixture(t)
	dir := t.TempDir()
	for _, c := range []struct {
		q     string
		limit int64
	}{
		{"select count(*), sum(rk) from (select rank() over (partition by b order by a) rk from big) t", 900 << 10},
		{"select count(*), count(y.b) from (select b from big where a between 10 and 29) x left join (select b from big where a between 30 and 49) y on y.b > x.b + 1980", 40 << 10},
	} {
		p := d.plan(c.q, planner.Options{})
		cancelled := 0
		for _, n := range []int64{5, 20, 80, 320, 1280, 5120} {
			mem := exec.NewMemory(c.limit, nil)
			ctx := &countdownCtx{Context: context.Background()}
			ctx.n.Store(n)
			_, err := cpu.Run(exec.WithSpillOptions(exec.WithMemory(ctx, mem), exec.SpillOptions{Dir: dir}), p)
			mem.Close()
			switch {
			case errors.Is(err, context.Canceled):
				cancelled++
			case err != nil:
				t.Errorf("%s stopped after %d looks: %v", c.q, n, err)
			}
			if ents, _ := os.ReadDir(dir); len(ents) > 0 {
				t.Errorf("%s stopped after %d looks: %d spill entries left behind", c.q, n, len(ents))
			}
		}
		if cancelled == 0 {
			t.Errorf("%s: never cancelled", c.q)
		}
	}
}
