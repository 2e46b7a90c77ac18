package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gpusql/exec"
)

// TestExplainIntervalFrame: EXPLAIN prints a RANGE frame's INTERVAL bounds
// in the units they mean (WEEK as days, YEAR_MONTH as months, fractional
// seconds as microseconds).
func TestExplainIntervalFrame(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	q := `create table e (d date, ts datetime(3), v int);
		explain select sum(v) over (order by d range between interval 2 week preceding and interval '1-2' year_month following),
		count(*) over (order by ts desc range between interval 1.25 second preceding and current row) from e`
	res, err := db.Exec(ctx, q, "")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	r := res[len(res)-1].Result
	for i := 0; i < r.Rows; i++ {
		sb.WriteString(r.Columns[0].Dict.Values[r.Columns[0].I32[i]] + "\n")
	}
	for _, want := range []string{"RANGE BETWEEN INTERVAL 14 DAY PRECEDING AND INTERVAL 14 MONTH FOLLOWING",
		"RANGE BETWEEN INTERVAL 1250000 MICROSECOND PRECEDING AND CURRENT ROW"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, sb.String())
		}
	}
}

// TestWindowMemoryLimit: a window function's working state, and the JSON
// aggregates' texts, are charged to the query's memory limit, which stops
// it with the operator named.
func TestWindowMemoryLimit(t *testing.T) {
	db := numbers(t, 65536)
	// 65536 INTs collected (256 KiB) plus 48 B of working state a row (3
	// MiB): past 1 MiB only with the working state.
	db.SetMemoryLimit(1 << 20)
	_, err := db.Exec(context.Background(), "select x, var_pop(x) over (order by x rows between 5 preceding and current row) from t", "")
	var me *exec.MemoryLimitError
	if !errors.As(err, &me) || !strings.Contains(me.Op, "Window") {
		t.Fatalf("window under 1 MiB: %v, want the memory limit error naming the Window", err)
	}
	if u := db.mem.Used(); u != 0 {
		t.Errorf("%d bytes still reserved after the failed query", u)
	}
	// JSON_ARRAYAGG over a running frame: each row's text holds all rows
	// before it (about 15 GB here), charged text by text, so the limit
	// stops it early.
	db.SetMemoryLimit(64 << 20)
	_, err = db.Exec(context.Background(), "select json_arrayagg(x) over (order by x) from t", "")
	if !errors.As(err, &me) || !strings.Contains(me.Op, "Window") {
		t.Fatalf("JSON_ARRAYAGG over running frames under 64 MiB: %v, want the memory limit error naming the Window", err)
	}
	if u := db.mem.Used(); u != 0 {
		t.Errorf("%d bytes still reserved after the failed JSON_ARRAYAGG", u)
	}
	db.SetMemoryLimit(-1)
	if n := queryInt(t, db, "select count(*) from (select var_pop(x) over (order by x rows between 5 preceding and current row) v from t) s where v > 2.9"); n != 65536-5 {
		t.Errorf("without a limit: %d frames of 6 consecutive numbers with variance 35/12, want %d", n, 65536-5)
	}
}
