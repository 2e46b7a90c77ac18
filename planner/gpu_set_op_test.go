package planner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/planner"
	"gpusql/sql"
)

// setOpCatalog has large tables by statistics only: a 64 M-row fact with
// a 100-value column and a unique key, a 16 M-row table of unique keys.
func setOpCatalog() *catalog.Catalog {
	cat := catalog.New()
	const m = 1 << 20
	cat.Put(statsTable("fact", 64*m,
		statsCol{"f_small", 0, 99, 100, false},
		statsCol{"f_key", 0, 1<<31 - 1, 0, false},
	))
	cat.Put(statsTable("big", 16*m, statsCol{"b_key", 0, 1<<31 - 1, 0, false}, statsCol{"b_small", 0, 99, 100, false}))
	cat.Put(statsTable("tiny", 1000, statsCol{"t_key", 0, 999, 0, false}))
	return cat
}

func planSQL(t *testing.T, cat *catalog.Catalog, text string, opts planner.Options) *planner.Physical {
	t.Helper()
	ps, err := sql.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	p, err := planner.Plan(st.(*sql.Query), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// setChoices lists the GPU plan's choice for every DISTINCT and set
// operation of p, in plan order.
func setChoices(p *planner.Physical) []planner.GPUSetChoice {
	var out []planner.GPUSetChoice
	planner.Walk(p.Root, func(n planner.Node) {
		if c, ok := p.GPU.SetOps[n]; ok {
			out = append(out, c)
		}
	})
	return out
}

// TestSetOpAlgorithmsGolden: with the h100 profile and large tables'
// statistics, the cost rules pick sorting for INTERSECT / EXCEPT with many
// distinct rows and for DISTINCT over rows already sorted, hashing for few
// distinct rows and for small inputs (testdata/explain/setops_h100.txt;
// go test ./planner -update).
func TestSetOpAlgorithmsGolden(t *testing.T) {
	cat := setOpCatalog()
	queries := []struct {
		want planner.SetAlgorithm
		sql  string
	}{
		{planner.SetHash, "select distinct f_small from fact"},
		{planner.SetHash, "select t_key from tiny intersect select t_key from tiny"},
		{planner.SetSort, "select f_key from fact intersect select b_key from big"},
		{planner.SetSort, "select f_key from fact except all select b_key from big"},
		{planner.SetSort, "select distinct f_key from (select f_key from fact order by f_key) x"},
		{planner.SetHash, "select f_key, f_small from fact union select b_key, b_small from big"},
		{planner.SetSort, "select distinct f_key, f_small from fact order by f_key, f_small limit 10"},
	}
	var out strings.Builder
	for _, q := range queries {
		p := planSQL(t, cat, q.sql, planner.Options{GPU: h100(t)})
		ex := p.Explain()
		cs := setChoices(p)
		if len(cs) != 1 || cs[0].Algorithm != q.want {
			t.Errorf("%s: choices %+v, want %s:\n%s", q.sql, cs, q.want, ex)
		}
		out.WriteString("-- " + string(q.want) + "\n" + q.sql + "\n\n" + ex + "\n\n")
	}
	path := filepath.Join(goldenDir, "setops_h100.txt")
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./planner -update)", err)
	}
	if out.String() != string(want) {
		t.Errorf("set operation plans changed:\n%s\nwant:\n%s", out.String(), want)
	}
}

// ForceSetOp overrides the cost for every DISTINCT and set operation
// (UNION ALL only concatenates: no choice), and EXPLAIN says so.
func TestSetOpForce(t *testing.T) {
	cat := setOpCatalog()
	text := `select distinct f_small from fact union all
		(select t_key from tiny intersect all select b_small from big)
		union all (select t_key from tiny except select f_small from fact)`
	for _, force := range []planner.SetAlgorithm{planner.SetSort, planner.SetHash} {
		prof := h100(t)
		prof.ForceSetOp = force
		p := planSQL(t, cat, text, planner.Options{GPU: prof})
		cs := setChoices(p)
		if len(cs) != 3 {
			t.Fatalf("%s: %d choices, want 3 (DISTINCT, INTERSECT ALL, EXCEPT):\n%s", force, len(cs), p.Explain())
		}
		for _, c := range cs {
			if c.Algorithm != force || !strings.Contains(c.Why, "forced") {
				t.Errorf("%s: got %+v", force, c)
			}
		}
		if ex := p.Explain(); !strings.Contains(ex, "both inputs concatenated") {
			t.Errorf("%s: UNION ALL is not shown as a concatenation:\n%s", force, ex)
		}
		if ex := p.Explain(); strings.Count(ex, "forced (--setop, GPUProfile.ForceSetOp)") != 3 {
			t.Errorf("%s: EXPLAIN does not show every forced choice:\n%s", force, ex)
		}
	}
}

// A DISTINCT skips its sort only when equal rows arrive adjacent: below
// filters, limits and column projections, a sort whose first keys are
// exactly the DISTINCT's columns; never over DOUBLE columns.
func TestSetOpSortedInput(t *testing.T) {
	env := starEnv(t)
	for _, c := range []struct {
		sql    string
		sorted bool
	}{
		{"select distinct d1, d2 from (select d1, d2 from fact order by d2 desc, d1) x", true},
		{"select distinct d2 from (select d1, d2 from fact order by d2, d1) x", true},
		{"select distinct d1 from (select d1, d2 from fact where d2 > 3 order by d1 limit 100) x", true},
		{"select distinct d1, d2 from (select d1, d2 from fact order by d1) x", false},
		{"select distinct d2 from (select d1, d2 from fact order by d1, d2) x", false},
		{"select distinct d1 + 1 from (select d1 from fact order by d1) x", false},
		{"select distinct d1, d2 from fact", false},
	} {
		prof := h100(t)
		prof.ForceSetOp = planner.SetSort
		p := env.plan(c.sql, planner.Options{GPU: prof})
		cs := setChoices(p)
		if len(cs) != 1 || cs[0].InputSorted != c.sorted {
			t.Errorf("%s: %+v, want sorted %v:\n%s", c.sql, cs, c.sorted, p.Explain())
		}
		if c.sorted && !strings.Contains(p.Explain(), "not sorted again") {
			t.Errorf("%s: EXPLAIN does not say the sort is skipped:\n%s", c.sql, p.Explain())
		}
	}
}

// A sort-based DISTINCT or set operation finds its rows in the order of
// its columns, ascending: a Sort or TopN above asking for that order by
// every column (through column projections) does not sort again. A prefix
// of the columns (ties the executors could list differently), descending
// keys, other columns first, DOUBLE keys, hashed operators and DISTINCTs
// that keep a sorted input's order do not qualify.
func TestSetOpOrderAbove(t *testing.T) {
	env := starEnv(t)
	for _, c := range []struct {
		sql       string
		force     planner.SetAlgorithm
		presorted bool
	}{
		{"select distinct d1, d2 from fact order by d1, d2", planner.SetSort, true},
		{"select distinct d1, d2 from fact order by d1, d2, d1 limit 5", planner.SetSort, true},
		{"select d1, d2 from fact intersect select d3, d4 from fact order by 1, 2", planner.SetSort, true},
		{"select distinct d1, d2 from fact order by d1 limit 5", planner.SetSort, false},
		{"select d1, d2 from fact intersect select d3, d4 from fact order by 1", planner.SetSort, false},
		{"select d1 from fact except all select d2 from fact order by d1 limit 3 offset 2", planner.SetSort, true},
		{"select distinct d1, d2 from fact order by d1 desc", planner.SetSort, false},
		{"select distinct d1, d2 from fact order by d2", planner.SetSort, false},
		{"select distinct d2, d1 from fact order by d1", planner.SetSort, false},
		{"select distinct d1, d2 from fact order by d1, d2", planner.SetHash, false},
		{"select distinct d1 from (select d1 from fact order by d1 desc) x order by d1", planner.SetSort, false},
	} {
		prof := h100(t)
		prof.ForceSetOp = c.force
		p := env.plan(c.sql, planner.Options{GPU: prof})
		ex := p.Explain()
		if got := len(p.GPU.Presorted) == 1; got != c.presorted {
			t.Errorf("%s (%s): presorted %v, want %v:\n%s", c.sql, c.force, got, c.presorted, ex)
		}
		if c.presorted != strings.Contains(ex, "(sort-based): not sorted again") {
			t.Errorf("%s (%s): EXPLAIN does not match:\n%s", c.sql, c.force, ex)
		}
	}
	// DOUBLE keys: the set operation's NaN order is not the Sort's.
	cat := setOpCatalog()
	prof := h100(t)
	prof.ForceSetOp = planner.SetSort
	p := planSQL(t, cat, "select distinct cast(f_key as double) as x from fact order by x", planner.Options{GPU: prof})
	if len(p.GPU.Presorted) != 0 {
		t.Errorf("DOUBLE key presorted:\n%s", p.Explain())
	}
}
