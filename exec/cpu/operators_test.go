package cpu_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

func runPhys(t *testing.T, root planner.Node) string {
	t.Helper()
	res, err := cpu.Run(context.Background(), &planner.Physical{Root: root, Pipelines: planner.Pipelines(root)})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(sortedRows(formatResult(res)), "\n")
}

// TestBuildSides: an inner hash join gives the same rows whichever side
// builds and whichever index the build side gets.
func TestBuildSides(t *testing.T) {
	d := fixtureDB(t)
	p := d.plan("select t1.a, t1.b, t2.c from t1, t2 where t1.a = t2.a", planner.Options{Join: "hash"})
	var hj *planner.HashJoin
	planner.Walk(p.Root, func(n planner.Node) {
		if h, ok := n.(*planner.HashJoin); ok {
			hj = h
		}
	})
	if hj == nil {
		t.Fatal("no hash join")
	}
	want := runPhys(t, p.Root)
	for _, side := range []planner.BuildSide{planner.BuildLeft, planner.BuildRight} {
		for _, strat := range []planner.BuildStrategy{planner.HashTable, planner.DirectArray} {
			hj.BuildSide, hj.Strategy = side, strat
			hj.Needed = nil
			if got := runPhys(t, p.Root); got != want {
				t.Errorf("build %s %s differs", side, strat)
			}
		}
	}
}

// TestDenseFallback: when the data leave the domain the planner gave a dense
// aggregation (statistics out of date), the executor reaggregates by hash.
func TestDenseFallback(t *testing.T) {
	d := fixtureDB(t)
	p := d.plan("select a, count(*), sum(b) from t1 group by a", planner.Options{GroupBy: "hash"})
	want := runPhys(t, p.Root)
	planner.Walk(p.Root, func(n planner.Node) {
		if a, ok := n.(*planner.HashAggregate); ok {
			a.Strategy = planner.AggDense
			a.DenseKeys = []planner.DenseKey{{Min: 0, Size: 6}} // a spans 0..19
		}
	})
	if got := runPhys(t, p.Root); got != want {
		t.Errorf("fallback differs:\n%s\nwant\n%s", got, want)
	}
}

// TestCancel: a cancelled context stops the query with its error.
func TestCancel(t *testing.T) {
	d := fixtureDB(t)
	p := d.plan("select g, sum(v) from big group by g", planner.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cpu.Run(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestBoundarySizes runs joins and aggregations over tables whose sizes sit
// on either side of the batch and morsel sizes, against SQLite.
func TestBoundarySizes(t *testing.T) {
	d := newTestDB(t, true)
	d.create("create table dim (k int, name varchar(10))")
	var lines []string
	for i := 0; i < 40; i++ {
		lines = append(lines, fmt.Sprintf("%d|n%d", i, i%7))
	}
	d.load("dim", lines)
	for _, n := range []int{0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 131073} {
		name := fmt.Sprintf("f%d", n)
		d.create(fmt.Sprintf("create table %s (k int, v bigint)", name))
		lines = lines[:0]
		for i := 0; i < n; i++ {
			k := fmt.Sprint(i % 45)
			if i%97 == 0 {
				k = `\N`
			}
			lines = append(lines, fmt.Sprintf("%s|%d", k, i))
		}
		d.load(name, lines)
		for _, q := range []string{
			fmt.Sprintf("select count(*), sum(v), min(v), max(v) from %s", name),
			fmt.Sprintf("select dim.name, count(*), sum(v) from %s f, dim where f.k = dim.k group by dim.name", name),
			fmt.Sprintf("select f.k, count(*) from %s f left join dim on f.k = dim.k where dim.k is null group by f.k", name),
			fmt.Sprintf("select count(*) from %s f where f.k in (select k from dim where name = 'n3')", name),
			fmt.Sprintf("select v from %s order by v desc limit 3", name),
		} {
			want := strings.Join(sortedRows(normalize(d.oracleRows(q))), "\n")
			for _, o := range allOptions {
				if got := strings.Join(sortedRows(normalize(d.run(q, o))), "\n"); got != want {
					t.Errorf("%s %+v:\ngot\n%s\nwant\n%s", q, o, head(got), head(want))
				}
			}
		}
	}
}

// TestExplainAnalyze: actual rows per operator match the result.
func TestExplainAnalyze(t *testing.T) {
	d := fixtureDB(t)
	p := d.plan("select t3.v, count(*) from t1, t3 where t1.a = t3.k and t1.b > 0 group by t3.v", planner.Options{})
	res, st, err := cpu.RunAnalyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	out := planner.ExplainAnalyze(p, st)
	if !strings.Contains(out, fmt.Sprintf("actual %d rows", res.Rows)) || !strings.Contains(out, "Total:") {
		t.Errorf("EXPLAIN ANALYZE lacks actual rows:\n%s", out)
	}
	for _, n := range p.Nodes() {
		if st.Ops[n.Props().ID] == nil {
			t.Errorf("no statistics for %s", planner.ExplainNode(n))
		}
	}
}

// TestValuesAndTypes runs constant relations through the executor.
func TestValuesAndTypes(t *testing.T) {
	out := sql.Schema{{Name: "a", Type: columnar.TInt64}, {Name: "s", Type: columnar.TString}}
	v := &planner.Values{Rows: [][]sql.Expr{
		{&sql.Const{T: columnar.TInt64, I: 2}, &sql.Const{T: columnar.TString, S: "b"}},
		{&sql.Const{T: columnar.TInt64, Null: true}, &sql.Const{T: columnar.TString, S: "a"}},
	}, Out: out}
	if got := runPhys(t, v); got != "2|b\nNULL|a" {
		t.Errorf("got %q", got)
	}
}

// TestZoneMaps: a filter on a clustered column reads only the morsels whose
// chunk statistics admit it.
func TestZoneMaps(t *testing.T) {
	d := fixtureDB(t)
	p := d.plan("select count(*) from sorted where id between 70000 and 70010", planner.Options{})
	res, st, err := cpu.RunAnalyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := formatResult(res)[0][0]; got != "11" {
		t.Fatalf("count %s, want 11", got)
	}
	for _, n := range p.Nodes() {
		if ts, ok := n.(*planner.TableScan); ok {
			if r := st.Ops[ts.ID].Rows; r > 65536 {
				t.Errorf("scan read %d rows; zone maps should leave one morsel", r)
			}
		}
	}
}
