package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"gpusql/engine"
)

// The narrow table's queries answer what a loop over the generator's rows
// computes, and bench narrow prints the three queries' times.
func TestBenchNarrow(t *testing.T) {
	const n = 70_001
	db, err := engine.Open(engine.Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f := narrowFact(n)
	db.Catalog().Put(f)
	db.Catalog().Put(narrowDim())
	var count, sum, joined int64
	for i := range n {
		if f.Columns[1].I32[i] < 8 {
			count++
			sum += int64(f.Columns[2].I32[i])
		}
		if f.Columns[0].I32[i] <= narrowDimRows {
			joined++
		}
	}
	res, err := db.Exec(context.Background(), narrowQueries[0].SQL, "")
	if err != nil {
		t.Fatal(err)
	}
	r := res[0].Result
	if r.Columns[0].Int64At(0) != count || r.Columns[1].Int64At(0) != sum {
		t.Errorf("N1: %d, %d; the rows say %d, %d", r.Columns[0].Int64At(0), r.Columns[1].Int64At(0), count, sum)
	}
	res, err = db.Exec(context.Background(), "select sum(c) from ("+strings.Replace(narrowQueries[2].SQL, "count(*)", "count(*) as c", 1)+") x", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := res[0].Result.Columns[0].Int64At(0); got != joined {
		t.Errorf("N3 counts %d joined rows, the rows say %d", got, joined)
	}
	var out, errs bytes.Buffer
	if code := benchNarrow([]string{"--rows", "5000", "--executor", "cpu", "--runs", "1"}, &out, &errs); code != 0 {
		t.Fatalf("bench narrow: %d\n%s", code, errs.String())
	}
	for _, q := range []string{"N1 ", "N2 ", "N3 "} {
		if !strings.Contains(out.String(), q) {
			t.Errorf("no %s line:\n%s", q, out.String())
		}
	}
}

// bench simjoin --gpus needs the GPU executor and a list of devices.
func TestBenchSimjoinGPUsFlag(t *testing.T) {
	for _, args := range [][]string{{"--executor", "cpu", "--gpus", "0,1"}, {"--executor", "cpu", "--gpus", "x"}} {
		var out, errs bytes.Buffer
		if code := benchSimjoin(append([]string{"--points", "100"}, args...), &out, &errs); code != 2 || !strings.Contains(errs.String(), "--gpus") {
			t.Errorf("%v: exit %d, %q", args, code, errs.String())
		}
	}
}
