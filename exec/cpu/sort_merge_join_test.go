package cpu_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestSortedMergeJoinOracle: joins of inputs sorted on the key (ORDER BY in
// a derived table kept by its LIMIT) over several morsels of rows, with
// NULL keys, negative and duplicate keys and keys on one side only, give
// SQLite's answers when the planner marks the inputs sorted and the
// executor merges them without sorting again (checked in the plan; the
// merge is forced: inputs this small would be hash-joined).
func TestSortedMergeJoinOracle(t *testing.T) {
	d := newTestDB(t, true)
	rng := rand.New(rand.NewPCG(3, 14))
	for _, tb := range []struct {
		name   string
		n, dom int
	}{{"sl", 150000, 40000}, {"sr", 90000, 30000}} {
		d.create(fmt.Sprintf("create table %s (k bigint, g int, v int)", tb.name))
		lines := make([]string, tb.n)
		for i := range lines {
			k := fmt.Sprint(rng.IntN(tb.dom) - 5000)
			if rng.IntN(30) == 0 {
				k = `\N`
			}
			lines[i] = fmt.Sprintf("%s|%d|%d", k, rng.IntN(3), i)
		}
		d.load(tb.name, lines)
	}
	sub := func(table, order string) string {
		return fmt.Sprintf("(select k, g, v from %s order by %s limit 1000000)", table, order)
	}
	queries := []string{
		"select count(*), sum(x.v), sum(y.v) from " + sub("sl", "k") + " x join " + sub("sr", "k") + " y on x.k = y.k",
		"select count(*), count(y.k), sum(y.v) from " + sub("sl", "k") + " x left join " + sub("sr", "k") + " y on x.k = y.k",
		"select count(*), sum(x.v), sum(y.v) from " + sub("sl", "k, g") + " x join " + sub("sr", "k, g") + " y on x.k = y.k and x.g = y.g",
		"select count(*), sum(x.v) from " + sub("sl", "k") + " x join " + sub("sr", "k") + " y on x.k = y.k and x.v < y.v",
	}
	for _, q := range queries {
		opts := planner.Options{Join: "merge"}
		p := d.plan(q, opts)
		if !strings.Contains(p.Explain(), "left input sorted on") || !strings.Contains(p.Explain(), "right input sorted on") {
			t.Errorf("%s: inputs not marked sorted:\n%s", q, p.Explain())
		}
		want := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n")
		if got := strings.Join(sortedRows(normalize(d.run(q, opts))), "\n"); got != want {
			t.Errorf("%s: got %s, SQLite %s\n%s", q, got, want, p.Explain())
		}
	}
}
