package cpu_test

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite expected results in testdata")

// fixtureDB builds the tables the data-driven tests query, in both engines:
//
//	t1(a, b, s, d, f)  5,000 rows: NULLs in every column, skewed a, duplicate b
//	t2(a, c, s)        300 rows: keys with duplicates and NULLs
//	t3(k, v)           100 rows: unique keys 0..99 (a dimension)
//	big(k, g, v)       70,001 rows: more than one morsel and batch
//	empty(a, s)        no rows
//	sorted(id, s)      200,000 rows clustered on id (zone maps)
func fixtureDB(t testing.TB) *testDB {
	d := newTestDB(t, true)
	r := rand.New(rand.NewSource(42))
	null := func(p float64, s string) string {
		if r.Float64() < p {
			return `\N`
		}
		return s
	}
	words := []string{"apple", "banana", "cherry", "date", "elder", "fig", "grape", "x", "", "zeta"}
	d.create("create table t1 (a int, b int, s varchar(10), d decimal(10,2), f double)")
	var lines []string
	for i := 0; i < 5000; i++ {
		a := r.Intn(20)
		if r.Intn(4) == 0 {
			a = 3 // skew
		}
		lines = append(lines, strings.Join([]string{
			null(0.05, fmt.Sprint(a)),
			null(0.05, fmt.Sprint(r.Intn(1000)-500)),
			null(0.05, words[r.Intn(len(words))]),
			null(0.05, fmt.Sprintf("%d.%02d", r.Intn(2000)-1000, r.Intn(100))),
			null(0.05, fmt.Sprintf("%.3f", r.Float64()*100)),
		}, "|"))
	}
	d.load("t1", lines)
	d.create("create table t2 (a int, c int, s varchar(10))")
	lines = nil
	for i := 0; i < 300; i++ {
		lines = append(lines, strings.Join([]string{
			null(0.1, fmt.Sprint(r.Intn(25))),
			null(0.1, fmt.Sprint(r.Intn(50))),
			null(0.1, words[r.Intn(len(words))]),
		}, "|"))
	}
	d.load("t2", lines)
	d.create("create table t3 (k int, v varchar(10))")
	lines = nil
	for i := 0; i < 100; i++ {
		lines = append(lines, fmt.Sprintf("%d|%s", i, words[i%len(words)]))
	}
	d.load("t3", lines)
	d.create("create table big (k int, g int, v bigint)")
	lines = nil
	for i := 0; i < 70001; i++ {
		lines = append(lines, fmt.Sprintf("%d|%s|%d", r.Intn(50000), null(0.01, fmt.Sprint(r.Intn(300))), r.Intn(1000000)))
	}
	d.load("big", lines)
	d.create("create table empty (a int, s varchar(10))")
	// sorted has a clustered key, so zone maps skip most of its morsels.
	d.create("create table sorted (id int, s varchar(10))")
	lines = nil
	for i := 0; i < 200000; i++ {
		lines = append(lines, fmt.Sprintf("%d|s%d", i, i/40000))
	}
	d.load("sorted", lines)
	return d
}

// queryBlocks splits a test file into statements separated by lines holding
// only ';' or by blank lines; '--' lines before a statement are its flags.
type queryBlock struct {
	flags string
	sql   string
	want  string // expected output (after ----), for .test files
}

func readBlocks(t testing.TB, path string) []queryBlock {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []queryBlock
	for _, chunk := range strings.Split(string(data), "\n\n") {
		chunk = strings.Trim(chunk, "\n")
		if strings.TrimSpace(chunk) == "" {
			continue
		}
		var b queryBlock
		body, want, hasWant := strings.Cut(chunk, "\n----")
		var sqlLines []string
		for _, l := range strings.Split(body, "\n") {
			if strings.HasPrefix(l, "--") && len(sqlLines) == 0 {
				b.flags += l + "\n"
				continue
			}
			sqlLines = append(sqlLines, l)
		}
		b.sql = strings.TrimSuffix(strings.TrimSpace(strings.Join(sqlLines, "\n")), ";")
		if hasWant {
			b.want = strings.TrimPrefix(want, "\n")
		}
		if b.sql != "" {
			out = append(out, b)
		}
	}
	return out
}

// TestOracle runs testdata/oracle.sql on the CPU executor under every
// strategy and on SQLite and compares (as sorted row sets unless the query
// is flagged "-- ordered").
func TestOracle(t *testing.T) {
	d := fixtureDB(t)
	blocks := readBlocks(t, "testdata/oracle.sql")
	t.Logf("%d queries", len(blocks))
	for _, b := range blocks {
		want := normalize(d.oracleRows(b.sql))
		if len(want) == 0 && !strings.Contains(b.sql, "empty") {
			t.Logf("note: no rows from %s", b.sql)
		}
		for _, o := range allOptions {
			got := normalize(d.run(b.sql, o))
			var g, w string
			if strings.Contains(b.flags, "ordered") {
				g, w = rowsText(got), rowsText(want)
			} else {
				g, w = strings.Join(sortedRows(got), "\n"), strings.Join(sortedRows(want), "\n")
			}
			if g != w {
				t.Errorf("%s\nunder %+v:\ngot (%d rows)\n%s\nwant (%d rows)\n%s\n%s", b.sql, o, len(got), head(g), len(want), head(w),
					d.plan(b.sql, o).Explain())
				break
			}
		}
	}
}

func head(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 30 {
		return strings.Join(lines[:30], "\n") + fmt.Sprintf("\n... (%d lines)", len(lines))
	}
	return s
}

// TestExpected runs testdata/expected.test: MySQL semantics SQLite does not
// share (integer division, DIV, decimals, dates, string functions), with the
// expected rows after "----". go test -update rewrites them.
func TestExpected(t *testing.T) {
	d := fixtureDB(t)
	path := "testdata/expected.test"
	blocks := readBlocks(t, path)
	var sb strings.Builder
	for _, b := range blocks {
		var first string
		for i, o := range allOptions {
			got := markEmpty(d.run(b.sql, o))
			text := rowsText(got)
			if !strings.Contains(b.flags, "ordered") {
				text = strings.Join(sortedRows(got), "\n")
				if text != "" {
					text += "\n"
				}
			}
			if i == 0 {
				first = text
			} else if text != first {
				t.Errorf("%s: %+v gives\n%s\nbut default gives\n%s", b.sql, o, text, first)
			}
		}
		if !*update && strings.TrimRight(first, "\n") != strings.TrimRight(b.want, "\n") {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", b.sql, first, b.want)
		}
		sb.WriteString(b.flags + b.sql + ";\n----\n" + first + "\n")
	}
	if *update {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// markEmpty shows empty strings as (empty) so that a row never is a blank
// line in a test file.
func markEmpty(rows [][]string) [][]string {
	for _, r := range rows {
		for i, c := range r {
			if c == "" {
				r[i] = "(empty)"
			}
		}
	}
	return rows
}
