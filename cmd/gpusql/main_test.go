package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/engine"
)

func TestScriptsRunInOrder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.tbl"), []byte("1|a|\n2|b|\n"), 0o644)
	script := filepath.Join(dir, "load.sql")
	os.WriteFile(script, []byte("create table t (a int, s varchar(3));\nload data infile 't.tbl' into table t fields terminated by '|';\n"), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"--executor", "cpu", "--format", "csv", "-f", script, "-c", "select a, s from t order by a; select count(*) as n from t"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if want := "a,s\n1,a\n2,b\nn\n2\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if !strings.Contains(errb.String(), "loaded 2 rows into t") {
		t.Errorf("stderr %q lacks the load message", errb.String())
	}
}

func TestScriptErrorNamesLine(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "bad.sql")
	os.WriteFile(script, []byte("create table t (a int);\n\nselect *\n  from nosuch;\nselect 1;\n"), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"--executor", "cpu", "-f", script}, nil, &out, &errb)
	if code == 0 {
		t.Fatal("a failing script exited 0")
	}
	if !strings.Contains(errb.String(), "statement at line 3: line 4:8: Table 'gpusql.nosuch' doesn't exist") {
		t.Errorf("stderr %q", errb.String())
	}
	if strings.Contains(out.String(), "1 row") {
		t.Error("statements after the failure ran")
	}
}

func TestGPUUnavailable(t *testing.T) {
	ok, why := engine.GPUStatus()
	if ok {
		t.Skip("this build has a usable GPU")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--executor", "gpu", "-c", "select 1"}, nil, &out, &errb); code == 0 {
		t.Fatal("--executor gpu without a GPU exited 0")
	}
	if !strings.Contains(errb.String(), why) {
		t.Errorf("stderr %q does not say %q", errb.String(), why)
	}
}

// gpusql PATH (and --db PATH) keep tables between runs.
func TestDatabasePath(t *testing.T) {
	db := filepath.Join(t.TempDir(), "my.gpusql")
	var out, errb bytes.Buffer
	if code := run([]string{db, "--executor", "cpu", "-c", "create table t (a int); insert into t values (1), (2)"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"--db", db, "--executor", "cpu", "--format", "csv", "-c", "select sum(a) as s from t"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.String() != "s\n3\n" {
		t.Errorf("second run: %q", out.String())
	}
}

// --help on every command exits 0 and lists its flags on stdout.
func TestHelpEverywhere(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"usage:", "-format", "-executor", "-memory-limit"}},
		{[]string{"-h"}, []string{"-format"}},
		{[]string{"help"}, []string{"usage:", "-format"}},
		{[]string{"gen", "--help"}, []string{"gen ssb", "-sf", "-out"}},
		{[]string{"gen", "ssb", "--help"}, []string{"-sf", "-workers"}},
		{[]string{"bench", "--help"}, []string{"bench ssb", "bench load", "-runs", "-queries", "-format"}},
		{[]string{"bench", "ssb", "-h"}, []string{"-runs", "-json"}},
		{[]string{"bench", "load", "--help"}, []string{"-sf", "-format"}},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, nil, &out, &errb); code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, code, errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: stdout lacks %q:\n%s", c.args, w, out.String())
			}
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "ssb", "--bogus"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "-runs") {
		t.Errorf("bad flag: exit %d, stderr %q", code, errb.String())
	}
}

// --gpu-profile plans for a named GPU on any machine: EXPLAIN shows the GPU
// plan; a query still needs a GPU and says so.
func TestGPUProfileExplainWithoutGPU(t *testing.T) {
	if ok, _ := engine.GPUStatus(); ok {
		t.Skip("this build has a usable GPU")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.tbl"), []byte("1|10|\n2|20|\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "d.tbl"), []byte("1|7|\n2|8|\n"), 0o644)
	script := filepath.Join(dir, "schema.sql")
	os.WriteFile(script, []byte(`create table f (k int, v bigint); create table d (dk int, g int);
load data infile 'f.tbl' into table f fields terminated by '|';
load data infile 'd.tbl' into table d fields terminated by '|';
`), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"--executor", "gpu", "--gpu-profile", "h100", "-f", script,
		"-c", "explain select g, sum(v) from f, d where k = dk group by g order by g"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"GPU plan (h100: 132 SMs", "fused star pipeline", "direct array [1..2]", "then on the host: Projection#2 → Sort#1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"--executor", "gpu", "--gpu-profile", "h100", "-c", "select 1"}, nil, &out, &errb); code == 0 {
		t.Fatal("a query with --gpu-profile and no GPU exited 0")
	}
	if !strings.Contains(errb.String(), "queries need the GPU") && !strings.Contains(errb.String(), "without CUDA") {
		t.Errorf("stderr %q", errb.String())
	}
	if code := run([]string{"--gpu-profile", "nosuch", "-c", "select 1"}, nil, &out, &errb); code == 0 {
		t.Fatal("an unknown profile was accepted")
	}
}

// --gpu-memory and SET gpu_memory steer the placement EXPLAIN shows: a
// budget below the fact table's 4-byte columns keeps them narrow where
// that fits (30 KB), streams them where it does not (12 KB); one below
// the working tables says the plan does not fit; a bad size is refused.
// With --packing on the fact columns, packed, fit 30 KB.
func TestGPUMemoryExplain(t *testing.T) {
	dir := t.TempDir()
	var rows strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&rows, "%d|%d|\n", i%2+1, i)
	}
	os.WriteFile(filepath.Join(dir, "f.tbl"), []byte(rows.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "d.tbl"), []byte("1|7|\n2|8|\n"), 0o644)
	script := filepath.Join(dir, "schema.sql")
	os.WriteFile(script, []byte(`create table f (k int, v bigint); create table d (dk int, g int);
load data infile 'f.tbl' into table f fields terminated by '|';
load data infile 'd.tbl' into table d fields terminated by '|';
`), 0o644)
	q := "explain select g, sum(v) from f, d where k = dk group by g"
	var out, errb bytes.Buffer
	code := run([]string{"--executor", "gpu", "--gpu-profile", "h100", "--gpu-memory", "30KB", "-f", script, "-c", q,
		"-c", "set gpu_memory = '12KB'", "-c", q, "-c", "set gpu_memory = '100B'", "-c", q, "-c", "set gpu_memory = default", "-c", q}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"f.v resident (9.77 KiB; 2 B a value, frame per 65,536 rows)", "f.v streamed (19.5 KiB, sent as 2 B a value)", "budget 12 KiB", "does not fit: ", "gpu_memory"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if last := s[strings.LastIndex(s, "GPU plan"):]; strings.Contains(last, "streamed") || !strings.Contains(last, "f.v resident (19.5 KiB)") {
		t.Errorf("SET gpu_memory = default did not restore residency:\n%s", last)
	}
	errb.Reset()
	if code := run([]string{"--gpu-memory", "lots", "-c", "select 1"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--gpu-memory") {
		t.Errorf("bad --gpu-memory: exit %d, stderr %q", code, errb.String())
	}
	out.Reset()
	code = run([]string{"--executor", "gpu", "--gpu-profile", "h100", "--gpu-memory", "30KB", "--packing", "on", "-f", script, "-c", q}, nil, &out, &errb)
	if s := out.String(); code != 0 || !strings.Contains(s, "f.v resident packed 13 bits (frame per 4,096 rows, 8.13 KiB)") || strings.Contains(s, "streamed") {
		t.Errorf("--packing on under 30 KB: exit %d\n%s", code, s)
	}
	errb.Reset()
	if code := run([]string{"--packing", "maybe", "-c", "select 1"}, nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), "packing") {
		t.Errorf("bad --packing: exit %d, stderr %q", code, errb.String())
	}
}

// bench uva checks its flags before it needs a GPU, and says so when
// there is none.
func TestBenchUVAFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--match", "0.5,2"},
		{"--build-rows", "3G"},
		{"--chunk-rows", "0"},
		{"--build-rows", "lots"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"bench", "uva"}, args...), nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "bench uva:") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
	if ok, _ := engine.GPUStatus(); ok {
		return
	}
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "uva", "--build-rows", "1K"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "CUDA") && !strings.Contains(errb.String(), "device") {
		t.Errorf("no GPU: exit %d, stderr %q", code, errb.String())
	}
}

// bench ssb prints the bytes a GPU plan reads across the link and their
// rate over the warm time, only when some query reads any.
func TestPrintBenchLink(t *testing.T) {
	r := &benchReport{Executors: []string{"gpu"}, TotalWarm: map[string]float64{}, Queries: []*queryReport{
		{Name: "Q1.1", Bytes: 48e6, LinkBytes: 30e6, Executors: map[string]*queryTiming{"gpu": {WarmMs: 1.5}}},
		{Name: "Q1.2", Bytes: 48e6, Executors: map[string]*queryTiming{"gpu": {WarmMs: 0.2}}},
	}}
	var b bytes.Buffer
	printBench(&b, r)
	if s := b.String(); !strings.Contains(s, "link GB/s") || !strings.Contains(s, "30.0      20.0") {
		t.Errorf("link columns missing or wrong:\n%s", s)
	}
	r.LinkGBs = 40
	b.Reset()
	printBench(&b, r)
	if s := b.String(); !strings.Contains(s, "%link") || !strings.Contains(s, "30.0      20.0   50.0") || !strings.Contains(s, "measured after the runs at 40.0 GB/s") {
		t.Errorf("link share of the measured rate missing or wrong:\n%s", s)
	}
	r.LinkGBs = 0
	r.Queries[0].LinkBytes = 0
	b.Reset()
	printBench(&b, r)
	if strings.Contains(b.String(), "link") {
		t.Errorf("link columns without link bytes:\n%s", b.String())
	}
}
