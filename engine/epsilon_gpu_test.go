package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestEpsilonJoinRunsOnTheGPU: with a GPU, executor gpu and executor auto
// run an SQL ε-join on the GPU (the plan puts its pairs there), and Check
// finds the GPU's rows equal to the CPU executor's. Without a GPU, a plan
// made for one still says so in EXPLAIN.
func TestEpsilonJoinRunsOnTheGPU(t *testing.T) {
	var rows []string
	for i := range 1000 {
		rows = append(rows, fmt.Sprintf("(%d, %d, '[%d,%d]')", i, i%3, i%17, i%23))
	}
	setup := "create table p (id int, grp int, v vector(2)); insert into p values " + strings.Join(rows, ", ") + ";"
	queries := []string{
		"select a.id, b.id from p a join p b on vec_l2_distance(a.v, b.v) <= 1.5 and a.grp = 1",
		"select count(*) from p a join p b on vec_l1_distance(a.v, b.v) < 2",
		"select a.id, count(*) from p a join p b on vec_l2_distance(a.v, b.v) <= 1 group by a.id",
	}
	ctx := context.Background()
	if ok, why := GPUStatus(); !ok {
		db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := db.Exec(ctx, setup+"explain "+queries[2], "")
		if err != nil {
			t.Fatal(err)
		}
		if ex := fmt.Sprint(res[len(res)-1].Result.Columns[0].Dict); !strings.Contains(ex, "pairs on GPU") {
			t.Errorf("no GPU (%s): EXPLAIN for h100 does not put the pairs on the GPU:\n%s", why, ex)
		}
		t.Skipf("no GPU to run on: %s", why)
	}
	for _, o := range []Options{{Executor: "gpu", Check: true}, {Executor: "auto", Check: true}, {Executor: "auto"}} {
		db, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, setup, ""); err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			res, err := db.Exec(ctx, q, "")
			if err != nil {
				t.Fatalf("%+v %s: %v", o, q, err)
			}
			if r := res[0]; r.Executor != "gpu" || r.Result.Rows == 0 {
				t.Errorf("%+v %s: ran on %q with %d rows, want the GPU and some rows", o, q, r.Executor, r.Result.Rows)
			}
		}
	}
}
