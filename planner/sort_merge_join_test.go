package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestSortedInputsChooseMerge: a join whose inputs both arrive sorted
// ascending on the join keys (ORDER BY in a derived table, kept by its
// LIMIT; through a Projection passing the key along) becomes a sort-merge
// join marked so that executors do not sort those inputs again, and
// EXPLAIN says so. An order that is not the keys' (DESC, another column,
// the keys in another order, an expression, a string key) marks nothing.
func TestSortedInputsChooseMerge(t *testing.T) {
	e := newEnv(t)
	e.table("create table a (k bigint, g int, s varchar(5), v int)", 5000, func(i int) string {
		return fmt.Sprintf("%d|%d|s%d|%d", i%700, i%3, i%11, i)
	})
	e.table("create table b (k bigint, g int, s varchar(5), w int)", 3000, func(i int) string {
		return fmt.Sprintf("%d|%d|s%d|%d", i%900, i%4, i%13, i)
	})
	sub := func(table, order string) string {
		return fmt.Sprintf("(select * from %s order by %s limit 1000000)", table, order)
	}
	for _, c := range []struct {
		left, right, on  string
		lSorted, rSorted bool
		join             string
	}{
		{sub("a", "k"), sub("b", "k"), "x.k = y.k", true, true, ""},
		{sub("a", "k, g"), sub("b", "k, g"), "x.k = y.k and x.g = y.g", true, true, ""},
		{sub("a", "k, g"), sub("b", "k"), "x.k = y.k", true, true, ""},
		{"(select k, v from " + sub("a", "k") + " z)", sub("b", "k"), "x.k = y.k", true, true, ""},
		{sub("a", "k desc"), sub("b", "k"), "x.k = y.k", false, true, "merge"},
		{sub("a", "g, k"), sub("b", "k, g"), "x.k = y.k and x.g = y.g", false, true, "merge"},
		{sub("a", "v"), sub("b", "k"), "x.k = y.k", false, true, "merge"},
		{sub("a", "s"), sub("b", "s"), "x.s = y.s", false, false, "merge"},
		{sub("a", "k"), sub("b", "k"), "x.k + 1 = y.k", false, true, "merge"},
		{sub("a", "g"), sub("b", "k"), "x.g = y.k", false, true, "merge"}, // int converted to bigint
	} {
		q := fmt.Sprintf("select count(*) from %s x join %s y on %s", c.left, c.right, c.on)
		p := e.plan(q, planner.Options{Join: c.join})
		smj := find[*planner.SortMergeJoin](p)
		if len(smj) != 1 {
			t.Errorf("%s: want a sort-merge join:\n%s", q, p.Explain())
			continue
		}
		j := smj[0]
		if j.LeftSorted != c.lSorted || j.RightSorted != c.rSorted {
			t.Errorf("%s: sorted %v/%v, want %v/%v\n%s", q, j.LeftSorted, j.RightSorted, c.lSorted, c.rSorted, p.Explain())
		}
		ex := p.Explain()
		if c.lSorted != strings.Contains(ex, "left input sorted on") || c.rSorted != strings.Contains(ex, "right input sorted on") {
			t.Errorf("%s: EXPLAIN does not say which inputs are not sorted again:\n%s", q, ex)
		}
		if c.join == "" && !strings.Contains(ex, "sort-merge: both inputs arrive sorted on the keys") {
			t.Errorf("%s: EXPLAIN does not say why sort-merge was chosen:\n%s", q, ex)
		}
	}
	// One sorted input alone does not make a small join sort-merge.
	p := e.plan("select count(*) from "+sub("a", "k")+" x join b y on x.k = y.k", planner.Options{})
	if len(find[*planner.SortMergeJoin](p)) != 0 {
		t.Errorf("one sorted input: want a hash join:\n%s", p.Explain())
	}
}
