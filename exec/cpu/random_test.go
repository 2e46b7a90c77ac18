package cpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRandomQueries generates join / filter / group-by queries over the
// fixture tables and compares every strategy with SQLite.
func TestRandomQueries(t *testing.T) {
	d := fixtureDB(t)
	r := rand.New(rand.NewSource(randomSeed()))
	n := 300
	if testing.Short() {
		n = 30
	}
	type tab struct {
		name string
		ints []string
		strs []string
	}
	tabs := []tab{
		{"t1", []string{"a", "b"}, []string{"s"}},
		{"t2", []string{"a", "c"}, []string{"s"}},
		{"t3", []string{"k"}, []string{"v"}},
	}
	words := []string{"apple", "fig", "x", "", "grape", "zzz"}
	for i := 0; i < n; i++ {
		// 1 to 3 relations, aliased r0.., joined on random int columns.
		nr := 1 + r.Intn(3)
		var from, conds []string
		var cols, scols []string
		t1s := 0
		for j := 0; j < nr; j++ {
			tb := tabs[r.Intn(len(tabs))]
			// t1's skewed a makes joins of two t1s explode; one is plenty.
			for tb.name == "t1" && t1s > 0 {
				tb = tabs[r.Intn(len(tabs))]
			}
			if tb.name == "t1" {
				t1s++
			}
			alias := fmt.Sprintf("r%d", j)
			from = append(from, tb.name+" "+alias)
			for _, c := range tb.ints {
				cols = append(cols, alias+"."+c)
			}
			for _, c := range tb.strs {
				scols = append(scols, alias+"."+c)
			}
			if j > 0 {
				prev := cols[r.Intn(len(cols)-len(tb.ints))]
				conds = append(conds, fmt.Sprintf("%s = %s.%s", prev, alias, tb.ints[r.Intn(len(tb.ints))]))
			}
		}
		pred := func() string {
			switch r.Intn(6) {
			case 0:
				return fmt.Sprintf("%s is null", cols[r.Intn(len(cols))])
			case 1:
				return fmt.Sprintf("%s in (%d, %d, %d)", cols[r.Intn(len(cols))], r.Intn(30), r.Intn(30), r.Intn(30))
			case 2:
				return fmt.Sprintf("%s = '%s'", scols[r.Intn(len(scols))], words[r.Intn(len(words))])
			case 3:
				return fmt.Sprintf("%s > %s", cols[r.Intn(len(cols))], cols[r.Intn(len(cols))])
			}
			ops := []string{"=", "<>", "<", "<=", ">", ">="}
			return fmt.Sprintf("%s %s %d", cols[r.Intn(len(cols))], ops[r.Intn(len(ops))], r.Intn(40)-5)
		}
		for k := r.Intn(3); k > 0; k-- {
			p := pred()
			switch r.Intn(4) {
			case 0:
				p = "(" + p + " or " + pred() + ")"
			case 1:
				p = "not (" + p + ")"
			}
			conds = append(conds, p)
		}
		where := ""
		if len(conds) > 0 {
			where = " where " + strings.Join(conds, " and ")
		}
		var q string
		kind := r.Intn(3)
		if nr == 3 && kind == 2 {
			kind = r.Intn(2) // three-way joins of skewed keys: aggregate, not list
		}
		switch kind {
		case 0:
			q = fmt.Sprintf("select count(*), sum(%s), min(%s), max(%s) from %s%s",
				cols[r.Intn(len(cols))], cols[r.Intn(len(cols))], scols[r.Intn(len(scols))], strings.Join(from, ", "), where)
		case 1:
			g := cols[r.Intn(len(cols))]
			if r.Intn(2) == 0 {
				g = scols[r.Intn(len(scols))]
			}
			q = fmt.Sprintf("select %s, count(*), sum(%s), count(distinct %s) from %s%s group by %s",
				g, cols[r.Intn(len(cols))], cols[r.Intn(len(cols))], strings.Join(from, ", "), where, g)
		default:
			q = fmt.Sprintf("select %s, %s from %s%s", cols[r.Intn(len(cols))], scols[r.Intn(len(scols))],
				strings.Join(from, ", "), where)
		}
		t0 := time.Now()
		want := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n")
		t1 := time.Now()
		for _, o := range allOptions {
			got := strings.Join(sortedRows(normalize(d.run(q, o))), "\n")
			if got != want {
				t.Errorf("%s\nunder %+v:\ngot\n%s\nwant\n%s\n%s", q, o, head(got), head(want), d.plan(q, o).Explain())
				break
			}
		}
		if el := time.Since(t0); el > time.Second {
			t.Logf("slow (%v sqlite, %v ours x%d): %s", t1.Sub(t0), time.Since(t1), len(allOptions), q)
		}
	}
}

// randomSeed is GPUSQL_RANDOM_SEED, or 7.
func randomSeed() int64 {
	if s, err := strconv.ParseInt(os.Getenv("GPUSQL_RANDOM_SEED"), 10, 64); err == nil {
		return s
	}
	return 7
}
