package cpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestCollatedSetOps: INTERSECT and EXCEPT (distinct and ALL) over a column
// of utf8mb4_0900_ai_ci compare ASCII words case-insensitively and keep the
// left input's first spelling of each key (MySQL), in memory and past the
// memory limit (partitioned by the collation's keys, in input order
// although several workers scan); the rows equal a brute force over the
// generated data.
func TestCollatedSetOps(t *testing.T) {
	d := newTestDB(t, false)
	d.create("create table cs (id int, w varchar(12) collate utf8mb4_0900_ai_ci, g int)")
	r := rand.New(rand.NewSource(11))
	type row struct {
		w string // "" is NULL
		g int
	}
	var rows []row
	var lines []string
	words := []string{"apple", "Banana", "cherry", "date", "elder", "fig"}
	for i := 0; i < 140000; i++ { // more than two morsels: workers share the scan
		w := []byte(fmt.Sprintf("%s%d", words[r.Intn(len(words))], r.Intn(40)))
		for k := range w {
			if r.Intn(3) == 0 {
				w[k] ^= 0x20 * byte(b2i(w[k] >= 'a' && w[k] <= 'z' || w[k] >= 'A' && w[k] <= 'Z'))
			}
		}
		ws := string(w)
		if r.Intn(50) == 0 {
			ws = ""
		}
		rows = append(rows, row{ws, r.Intn(100)})
		lines = append(lines, fmt.Sprintf("%d|%s|%d", i, nullIfEmpty(ws), rows[i].g))
	}
	d.load("cs", lines)
	side := func(lo, hi int) []string {
		var out []string
		for _, rw := range rows {
			if rw.g >= lo && rw.g < hi {
				out = append(out, rw.w)
			}
		}
		return out
	}
	left, right := side(0, 60), side(40, 100)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"select w from cs where g < 60 intersect select w from cs where g >= 40", setOpBrute(left, right, true, false)},
		{"select w from cs where g < 60 except select w from cs where g >= 40", setOpBrute(left, right, false, false)},
		{"select w from cs where g < 60 intersect all select w from cs where g >= 40", setOpBrute(left, right, true, true)},
		{"select w from cs where g < 60 except all select w from cs where g >= 40", setOpBrute(left, right, false, true)},
	} {
		want := strings.Join(sortedStrings(c.want), "\n")
		for _, limit := range []int64{0, 1 << 20} {
			var got [][]string
			files := int64(0)
			if limit == 0 {
				got = d.run(c.q, planner.Options{})
			} else {
				dir := t.TempDir()
				got, files = d.runLimited(c.q, planner.Options{}, limit, dir)
				if files < 2 {
					t.Errorf("%s under %d bytes spilled %d files", c.q, limit, files)
				}
				if ents, _ := os.ReadDir(dir); len(ents) > 0 {
					t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
				}
			}
			if g := strings.Join(sortedRows(got), "\n"); g != want {
				t.Errorf("%s (limit %d): got %d rows, want %d\ngot\n%s\nwant\n%s", c.q, limit, len(got), len(c.want), head(g), head(want))
			}
		}
	}
}

// setOpBrute answers left INTERSECT / EXCEPT [ALL] right over words
// compared case-insensitively ("" is NULL, equal to itself), keeping the
// left's rows in order: the distinct forms each key's first spelling, the
// ALL forms as many rows of a key as the counts say (the first ones
// consumed by a match).
func setOpBrute(left, right []string, intersect, all bool) []string {
	count := map[string]int{}
	for _, w := range right {
		count[strings.ToLower(w)]++
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range left {
		k := strings.ToLower(w)
		in := count[k] > 0
		switch {
		case all && in:
			count[k]--
			if intersect {
				out = append(out, w)
			}
		case all:
			if !intersect {
				out = append(out, w)
			}
		case !seen[k]:
			seen[k] = true
			if in == intersect {
				out = append(out, w)
			}
		}
	}
	for i, w := range out {
		if w == "" {
			out[i] = "NULL"
		}
	}
	return out
}

func sortedStrings(s []string) []string {
	rows := make([][]string, len(s))
	for i, w := range s {
		rows[i] = []string{w}
	}
	return sortedRows(rows)
}

func nullIfEmpty(s string) string {
	if s == "" {
		return `\N`
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
