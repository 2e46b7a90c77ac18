package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBenchJoinCPU: a small bench join runs every CPU algorithm on every
// distribution (each run checks its count is n/2, from the key sets'
// construction) and prints one row each.
func TestBenchJoinCPU(t *testing.T) {
	var out, errb bytes.Buffer
	rc := benchJoin([]string{"--sizes", "20K", "--dist", "uniform,zipf,dense", "--executor", "cpu",
		"--threads", "1", "--runs", "1"}, &out, &errb)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	rows := 0
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, " cpu ") {
			rows++
		}
	}
	if rows != 3*4 {
		t.Errorf("want 12 rows (3 distributions × 4 algorithms), got %d:\n%s", rows, out.String())
	}
}

// TestJoinKeySets: R and S hold n unique keys each and share exactly n/2.
func TestJoinKeySets(t *testing.T) {
	for _, dist := range []string{"uniform", "zipf", "dense"} {
		r, s, err := joinKeySets(10000, dist)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]int{}
		for _, k := range r {
			seen[k]++
		}
		common := 0
		for _, k := range s {
			common += seen[k]
		}
		if len(seen) != len(r) || common != len(r)/2 || len(s) != len(r) {
			t.Errorf("%s: %d unique of %d, %d common", dist, len(seen), len(r), common)
		}
	}
	if _, err := parseSizes("4X"); err == nil {
		t.Error("bad size accepted")
	}
}
