package engine

import (
	"context"
	"strings"
	"testing"
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
