package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/storage/ssbgen"
)

// benchRows runs bench ssb with args and returns each query's row count
// (the first two words of its line) and stderr.
func benchRows(t *testing.T, args ...string) (rows []string, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"bench", "ssb", "--executor", "cpu", "--runs", "1"}, args...)
	if code := run(args, nil, &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && strings.HasPrefix(f[0], "Q") {
			rows = append(rows, f[0]+" "+f[1])
		}
	}
	if len(rows) != 13 {
		t.Fatalf("%v: %d query lines in %q", args, len(rows), out.String())
	}
	return rows, errb.String()
}

// bench ssb generates into memory without writing a file, and its 13
// queries see what they see on the same data loaded from text (--data);
// with --db the generated tables are written into the database and the
// next run opens them.
func TestBenchSSBGeneratesInMemory(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	mem, stderr := benchRows(t, "--sf", "0.01", "--workers", "3")
	if !strings.Contains(stderr, "generated SSB SF 0.01 in memory") || !strings.Contains(stderr, "on 3 workers") {
		t.Errorf("stderr %q does not report the generation", stderr)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("bench ssb left %d files in the temporary folder: %v", len(left), left[0].Name())
	}

	text := t.TempDir()
	if _, err := ssbgen.Generate(ssbgen.Options{SF: 0.01, Out: text}); err != nil {
		t.Fatal(err)
	}
	loaded, _ := benchRows(t, "--data", text)
	if strings.Join(mem, ",") != strings.Join(loaded, ",") {
		t.Errorf("rows per query generated in memory %v, loaded from text %v", mem, loaded)
	}

	db := filepath.Join(t.TempDir(), "ssb.gpusql")
	first, stderr := benchRows(t, "--sf", "0.01", "--db", db)
	if !strings.Contains(stderr, "wrote the tables into database") {
		t.Errorf("first run with --db: stderr %q", stderr)
	}
	again, stderr := benchRows(t, "--sf", "0.01", "--db", db)
	if !strings.Contains(stderr, "opened database") || strings.Contains(stderr, "generated") {
		t.Errorf("second run with --db: stderr %q", stderr)
	}
	if strings.Join(first, ",") != strings.Join(mem, ",") || strings.Join(again, ",") != strings.Join(mem, ",") {
		t.Errorf("rows per query with --db %v then %v, in memory %v", first, again, mem)
	}
}

// A scale factor whose columns do not fit in the available memory is
// refused before anything is allocated, saying how much it needs.
func TestBenchSSBRefusesWhatDoesNotFit(t *testing.T) {
	saved := memAvailable
	t.Cleanup(func() { memAvailable = saved })
	memAvailable = func() int64 { return 1 << 20 }
	var out, errb bytes.Buffer
	code := run([]string{"bench", "ssb", "--executor", "cpu", "--sf", "0.01"}, nil, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "SSB SF 0.01 needs about ") || !strings.Contains(errb.String(), "use a smaller --sf") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	memAvailable = func() int64 { return 0 } // unknown: no check
	if _, stderr := benchRows(t, "--sf", "0.01", "--queries", ""); !strings.Contains(stderr, "generated SSB SF 0.01") {
		t.Errorf("with the memory unknown: %q", stderr)
	}
}
