package planner_test

import (
	"fmt"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestSortedInputsChooseMerge: a sort-merge join marks an input sorted
// when it arrives ascending on the join keys (ORDER BY in a derived table,
// kept by its LIMIT; through a Projection passing the key along; a table
// loaded in key order, through a Filter), so that executors do not sort it
// again, and EXPLAIN says so. An order that is not the keys' (DESC,
// another column, the keys in another order, an expression, a string key,
// a table sorted on one of two keys) marks nothing. Sorted inputs make the
// planner choose sort-merge only over a large hash table
// (joins_h100.txt): these small joins stay hash joins unless forced.
func TestSortedInputsChooseMerge(t *testing.T) {
	e := newEnv(t)
	e.table("create table a (k bigint, g int, s varchar(5), v int)", 5000, func(i int) string {
		return fmt.Sprintf("%d|%d|s%d|%d", i%700, i%3, i%11, i)
	})
	e.table("create table b (k bigint, g int, s varchar(5), w int)", 3000, func(i int) string {
		return fmt.Sprintf("%d|%d|s%d|%d", i%900, i%4, i%13, i)
	})
	e.table("create table sa (k bigint, g int, v int)", 70000, func(i int) string { // two chunks, in key order
		if i%10 == 0 {
			return fmt.Sprintf("\\N|%d|%d", i%3, i)
		}
		return fmt.Sprintf("%d|%d|%d", i/2, i%3, i)
	})
	e.table("create table sb (k bigint, g int, w int)", 3000, func(i int) string {
		return fmt.Sprintf("%d|%d|%d", 3*i, i%4, i)
	})
	sub := func(table, order string) string {
		return fmt.Sprintf("(select * from %s order by %s limit 1000000)", table, order)
	}
	for _, c := range []struct {
		left, right, on  string
		lSorted, rSorted bool
	}{
		{sub("a", "k"), sub("b", "k"), "x.k = y.k", true, true},
		{sub("a", "k, g"), sub("b", "k, g"), "x.k = y.k and x.g = y.g", true, true},
		{sub("a", "k, g"), sub("b", "k"), "x.k = y.k", true, true},
		{"(select k, v from " + sub("a", "k") + " z)", sub("b", "k"), "x.k = y.k", true, true},
		{"sa", "(select * from sb where w > 10)", "x.k = y.k", true, true},
		{"sa", "sb", "x.k = y.k and x.g = y.g", false, false},
		{sub("a", "k desc"), sub("b", "k"), "x.k = y.k", false, true},
		{sub("a", "g, k"), sub("b", "k, g"), "x.k = y.k and x.g = y.g", false, true},
		{sub("a", "v"), sub("b", "k"), "x.k = y.k", false, true},
		{sub("a", "s"), sub("b", "s"), "x.s = y.s", false, false},
		{sub("a", "k"), sub("b", "k"), "x.k + 1 = y.k", false, true},
		{sub("a", "g"), sub("b", "k"), "x.g = y.k", false, true}, // int converted to bigint
	} {
		q := fmt.Sprintf("select count(*) from %s x join %s y on %s", c.left, c.right, c.on)
		if p := e.plan(q, planner.Options{}); len(find[*planner.SortMergeJoin](p)) != 0 {
			t.Errorf("%s: a small join of sorted inputs should stay a hash join:\n%s", q, p.Explain())
		}
		p := e.plan(q, planner.Options{Join: "merge"})
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
		if !strings.Contains(ex, "sort-merge: join_algorithm = merge") {
			t.Errorf("%s: EXPLAIN does not say why sort-merge was chosen:\n%s", q, ex)
		}
	}
}
