package engine

import (
	"strings"
	"testing"
)

// TestAverageDigitsGPUPlan: an AVG of BIGINTs that is only printed is
// computed at its printed scale in an int64, a plan the GPU can take; one
// computed with further keeps MySQL's 9 digits in a wide DECIMAL, and the
// planner keeps that plan on the CPU, saying why (sql/average_digits.go).
func TestAverageDigitsGPUPlan(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, "create table avg_b (g int, b bigint); insert into avg_b values (1, 1), (1, 1), (1, 2), (2, NULL)")
	explain := func(q string) string { return explainText(t, db, q) }
	for _, q := range []string{"select g, avg(b) from avg_b group by g", "select avg(b) from avg_b order by avg(b)"} {
		if plan := explain(q); strings.Contains(plan, "CPU only") {
			t.Errorf("%s: a printed average is kept on the CPU:\n%s", q, plan)
		}
	}
	for _, q := range []string{"select avg(b) * 3 from avg_b", "select g from avg_b group by g having avg(b) > 1.3333",
		"select count(*) from avg_b where b > (select avg(b) from avg_b)"} {
		if plan := explain(q); !strings.Contains(plan, "CPU only (DECIMAL(") || !strings.Contains(plan, "DECIMAL of more than 18 digits is computed on the CPU") {
			t.Errorf("%s: an average computed with is not kept on the CPU as wide:\n%s", q, plan)
		}
	}
	if got, want := tableText(t, db, "select g, avg(b), avg(b) * 3 from avg_b group by g order by g"), "1|1.3333|4.0000;2|NULL|NULL"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
