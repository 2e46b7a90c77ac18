package main

import (
	"bytes"
	"strings"
	"testing"
)

// The generated tables hold what the skeletons' row counts assume (t.k a
// permutation of [0, n), u.k of [n/2, 3n/2)), and bench skeletons prints
// every skeleton with the row count those sets give.
func TestBenchSkeletons(t *testing.T) {
	const n = 10_007
	for _, c := range []struct {
		name  string
		shift int
	}{{"t", 0}, {"u", n / 2}} {
		tb := skeletonTable(c.name, n, c.shift)
		seen := make([]bool, n)
		for _, k := range tb.Columns[0].I32 {
			i := int(k) - c.shift
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("%s.k holds %d: not a permutation of [%d, %d)", c.name, k, c.shift, c.shift+n)
			}
			seen[i] = true
		}
	}
	var out, errb bytes.Buffer
	if code := benchSkeletons([]string{"--rows", "10007", "--runs", "1", "--executor", "cpu"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	rows := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		name, rest, ok := strings.Cut(line, "  ")
		if f := strings.Fields(rest); ok && len(f) > 0 {
			rows[name] = f[0]
		}
	}
	for name, want := range map[string]string{"select 1%": "100", "select 10%": "1000", "select 50%": "5003", "project": "10007",
		"sort": "10007", "merge join": "1", "intersect": "5004", "union": "15010", "except": "5003"} {
		if rows[name] != want {
			t.Errorf("%s: %q rows, want %s in\n%s", name, rows[name], want, out.String())
		}
	}
}
