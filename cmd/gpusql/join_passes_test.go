package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Under a --gpu-memory below a join's hash table, EXPLAIN shows the join
// in passes over partitions; a join whose one key holds more rows than
// the budget leaves is planned on the CPU with that reason (no GPU
// needed: the plans are made for the h100 profile).
func TestJoinPassesExplain(t *testing.T) {
	dir := t.TempDir()
	var a, b strings.Builder
	for i := 0; i < 6000; i++ {
		fmt.Fprintf(&a, "%d|%d|%d|\n", i*7%2003, i, 1)
	}
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%d|%d|%d|\n", i%1501, i, 1)
	}
	os.WriteFile(filepath.Join(dir, "a.tbl"), []byte(a.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "b.tbl"), []byte(b.String()), 0o644)
	script := filepath.Join(dir, "schema.sql")
	os.WriteFile(script, []byte(`create table a (k bigint, v int, one int); create table b (k bigint, w int, one int);
load data infile 'a.tbl' into table a fields terminated by '|';
load data infile 'b.tbl' into table b fields terminated by '|';
analyze table a; analyze table b;
`), 0o644)
	join := "explain select a.v, b.w from a join b on a.k = b.k"
	heavy := "explain select a.v, b.w from a join b on a.one = b.one"
	var out, errb bytes.Buffer
	code := run([]string{"--executor", "gpu", "--gpu-profile", "h100", "--join", "hash", "--gpu-memory", "48KB", "-f", script,
		"-c", join, "-c", "set gpu_memory = default", "-c", join, "-c", "set gpu_memory = '48KB'", "-c", heavy}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	plans := strings.Split(s, "GPU plan (")
	if len(plans) != 4 {
		t.Fatalf("want 3 GPU plans:\n%s", s)
	}
	if !strings.Contains(plans[1], "hash join in ") || !strings.Contains(plans[1], "left of the budget") {
		t.Errorf("48 KB: no passes:\n%s", plans[1])
	}
	if strings.Contains(plans[2], "hash join in ") {
		t.Errorf("default budget: passes:\n%s", plans[2])
	}
	if !strings.Contains(plans[3], "not on the GPU: HashJoin") || !strings.Contains(plans[3], "duplicate rows alone need") {
		t.Errorf("48 KB, one key: not refused:\n%s", plans[3])
	}
}
