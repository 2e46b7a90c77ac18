package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpusql/internal/slt"
)

// TestSLTExtra runs classic sqllogictest files (SQLite's public-domain
// corpus: select1.test, evidence/in1.test, random/aggregates/...) from the
// folder named by GPUSQL_SLT_EXTRA, or else the small classic-format
// fixtures of testdata/slt-classic, and reports per file how many records
// ran, passed and failed, with the first failures:
//
//	GPUSQL_SLT_EXTRA=/path/to/files go test ./engine -run TestSLTExtra -v
//
// GPUSQL_SLT_EXTRA_SHOW sets how many failures a file prints (default 10).
// Such files are conformance measurements, not fixtures: they are read
// where they lie and never copied into the repository. Each file runs once,
// on the CPU executor with the planner's own strategy choices, or with
// GPUSQL_SLT_EXTRA_ALL=1 under every strategy TestSLT uses (the GPU
// executor, checked against the CPU, where a device answers); a query gets
// sltRecordTimeout, so a runaway cross join fails one record, not the run.
// The run ends with the failures tallied by cause (an error's text with
// its line:column and quoted names cut, or "wrong result"), largest first.
func TestSLTExtra(t *testing.T) {
	dir := os.Getenv("GPUSQL_SLT_EXTRA")
	if dir == "" {
		dir = "../testdata/slt-classic"
	}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".test") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no .test files under %s (%v)", dir, err)
	}
	show := 10
	if n, err := strconv.Atoi(os.Getenv("GPUSQL_SLT_EXTRA_SHOW")); err == nil {
		show = n
	}
	var sum sltTally
	for _, path := range files {
		t.Run(strings.TrimPrefix(path, dir+"/"), func(t *testing.T) {
			f, err := slt.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sts := []strategy{{"cpu", Options{Executor: "cpu"}}}
			if os.Getenv("GPUSQL_SLT_EXTRA_ALL") != "" {
				sts = strategies()
			}
			for _, st := range sts {
				tl := runSLTExtraFile(t, f, st.opts, show)
				sum.add(tl)
				t.Logf("%s [%s]: %s", path, st.name, tl)
				if tl.failed > 0 {
					t.Fail()
				}
			}
		})
	}
	t.Logf("all %d files: %s", len(files), sum)
	for _, c := range sum.topCauses() {
		t.Logf("%6d  %s", c.n, c.cause)
	}
}

const sltRecordTimeout = 20 * time.Second

type sltTally struct {
	ran, failed int
	causes      map[string]int
}

func (tl *sltTally) fail(cause string) {
	tl.failed++
	if tl.causes == nil {
		tl.causes = map[string]int{}
	}
	tl.causes[cause]++
}

func (tl *sltTally) add(o sltTally) {
	tl.ran += o.ran
	tl.failed += o.failed
	for c, n := range o.causes {
		if tl.causes == nil {
			tl.causes = map[string]int{}
		}
		tl.causes[c] += n
	}
}

type sltCause struct {
	cause string
	n     int
}

func (tl sltTally) topCauses() []sltCause {
	var out []sltCause
	for c, n := range tl.causes {
		out = append(out, sltCause{c, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].cause < out[j].cause
	})
	return out
}

var (
	causePosition = regexp.MustCompile(`(statement at line \d+: )?line \d+:\d+: `)
	causeQuoted   = regexp.MustCompile(`'[^']*'|"[^"]*"|-?\d+`)
)

// failureCause names the kind of a failure so that failures tally by cause:
// positions, quoted names and numbers are cut from an error's text.
func failureCause(msg string) string {
	switch {
	case strings.HasPrefix(msg, "query failed: "), strings.HasPrefix(msg, "statement failed: "),
		strings.HasPrefix(msg, "PANIC: "):
		msg = causePosition.ReplaceAllString(msg, "")
		return causeQuoted.ReplaceAllString(msg, "_")
	case strings.HasPrefix(msg, "statement succeeded"):
		return msg
	}
	return "wrong result"
}

func (tl sltTally) String() string {
	pct := 100.0
	if tl.ran > 0 {
		pct = 100 * float64(tl.ran-tl.failed) / float64(tl.ran)
	}
	return fmt.Sprintf("%d records run, %d passed, %d failed (%.1f%% pass)", tl.ran, tl.ran-tl.failed, tl.failed, pct)
}

// runSLTExtraFile runs a classic file on a fresh database, logging its first
// show failures with the SQL, what was expected and what came back.
func runSLTExtraFile(t *testing.T, f *slt.File, opts Options, show int) (tl sltTally) {
	db, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(f.Path)
	for _, r := range f.Records {
		if r.Skipped(sltEngineNames...) {
			continue
		}
		if r.Kind == slt.Halt {
			return
		}
		tl.ran++
		if r.Kind == slt.Invalid {
			tl.fail("unknown record type")
			t.Logf("%s:%d: unknown record type %q: the file stops here, as in sqllogictest", f.Path, r.Line, r.SQL)
			return
		}
		msg := runRecordGuarded(db, r, base)
		if msg == "" {
			continue
		}
		tl.fail(failureCause(msg))
		if tl.failed <= show {
			want := strings.Join(r.Expected, " | ")
			if r.Kind == slt.Statement {
				want = map[bool]string{true: "an error", false: "success"}[r.ExpectError]
			}
			t.Logf("%s:%d %s\n  SQL: %s\n  want: %s\n  %s", f.Path, r.Line, r.Label,
				strings.ReplaceAll(r.SQL, "\n", " "), want, msg)
		}
	}
	return
}

// runRecordGuarded runs a record under a deadline and turns a panic that
// escaped the engine into a failure (a bug to report, not a crashed run).
func runRecordGuarded(db *DB, r *slt.Record, base string) (msg string) {
	ctx, cancel := context.WithTimeout(context.Background(), sltRecordTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprintf("PANIC: %v", p)
		}
	}()
	msg, _ = runRecord(ctx, db, r, base)
	return msg
}
