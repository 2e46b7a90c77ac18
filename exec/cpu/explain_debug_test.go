package cpu_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
)

func TestExplainDebug(t *testing.T) {
	q := os.Getenv("Q")
	if q == "" {
		t.Skip()
	}
	d := newTestDB(t, false)
	d.create("create table f (k1 int, k2 int, v bigint)")
	d.create("create table d1 (id int, name varchar(10), grp int)")
	d.create("create table d2 (id int, name varchar(10))")
	var lines []string
	for i := 0; i < 1000; i++ {
		lines = append(lines, fmt.Sprintf("%d|%d|%d", i%50, i%7, i))
	}
	d.load("f", lines)
	lines = nil
	for i := 0; i < 50; i++ {
		lines = append(lines, fmt.Sprintf("%d|n%d|%d", i, i, i%5))
	}
	d.load("d1", lines)
	lines = nil
	for i := 0; i < 7; i++ {
		lines = append(lines, fmt.Sprintf("%d|m%d", i, i))
	}
	d.load("d2", lines)
	p := d.plan(q, planner.Options{})
	fmt.Println(p.Explain())
	res, st, err := cpu.RunAnalyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(planner.ExplainAnalyze(p, st))
	fmt.Print(rowsText(formatResult(res)))
}
