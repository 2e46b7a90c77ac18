package planner_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

type env struct {
	t   *testing.T
	cat *catalog.Catalog
	dir string
}

func newEnv(t *testing.T) *env { return &env{t: t, cat: catalog.New(), dir: t.TempDir()} }

func (e *env) bind(text string) sql.Statement {
	e.t.Helper()
	ps, err := sql.Parse(text)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := sql.Bind(e.cat, ps[0])
	if err != nil {
		e.t.Fatalf("bind %q: %v", text, err)
	}
	return st
}

// table creates a table and fills it with rows made by gen(i).
func (e *env) table(ddl string, rows int, gen func(i int) string) {
	e.t.Helper()
	ct := e.bind(ddl).(*sql.CreateTable)
	if err := e.cat.Create(ct.Name, ct.Fields, false); err != nil {
		e.t.Fatal(err)
	}
	var sb strings.Builder
	for i := 0; i < rows; i++ {
		sb.WriteString(gen(i))
		sb.WriteByte('\n')
	}
	path := filepath.Join(e.dir, ct.Name+".tbl")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
	err := e.cat.Update(ct.Name, func(old *columnar.Table) (*columnar.Table, error) {
		nt, err := columnar.LoadDelimited(old, path, columnar.DelimitedOptions{Delimiter: '|'})
		if err != nil {
			return nil, err
		}
		columnar.ComputeStats(nt)
		return nt, nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) plan(q string, opts planner.Options) *planner.Physical {
	e.t.Helper()
	p, err := planner.Plan(e.bind(q).(*sql.Query), opts)
	if err != nil {
		e.t.Fatalf("plan %q: %v", q, err)
	}
	return p
}

func count[T planner.Node](p *planner.Physical) int {
	n := 0
	for _, x := range p.Nodes() {
		if _, ok := x.(T); ok {
			n++
		}
	}
	return n
}

func find[T planner.Node](p *planner.Physical) []T {
	var out []T
	for _, x := range p.Nodes() {
		if v, ok := x.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// starEnv is a fact table with four dimensions of different sizes.
func starEnv(t *testing.T) *env {
	e := newEnv(t)
	r := rand.New(rand.NewSource(1))
	e.table("create table fact (d1 int, d2 int, d3 int, d4 int, v bigint)", 100000, func(i int) string {
		return fmt.Sprintf("%d|%d|%d|%d|%d", r.Intn(1000), r.Intn(100), r.Intn(5000), r.Intn(20), i)
	})
	e.table("create table dim1 (id int, name varchar(10), cat int)", 1000, func(i int) string {
		return fmt.Sprintf("%d|n%d|%d", i, i%37, i%10)
	})
	e.table("create table dim2 (id int, region varchar(10))", 100, func(i int) string {
		return fmt.Sprintf("%d|r%d", i, i%5)
	})
	e.table("create table dim3 (id int, city varchar(10))", 5000, func(i int) string {
		return fmt.Sprintf("%d|c%d", i, i%250)
	})
	e.table("create table dim4 (id int, year int)", 20, func(i int) string {
		return fmt.Sprintf("%d|%d", i, 1990+i)
	})
	return e
}

// TestStarJoin: the fact table streams through a chain of probes, every
// dimension builds (with a direct array), the most selective dimension is
// probed first, and the pipeline is recognized as a star pipeline.
func TestStarJoin(t *testing.T) {
	e := starEnv(t)
	p := e.plan(`select dim4.year, dim2.region, sum(v) from dim1, dim2, fact, dim3, dim4
		where fact.d1 = dim1.id and fact.d2 = dim2.id and fact.d3 = dim3.id and fact.d4 = dim4.id
		  and dim1.cat = 3 and dim3.city = 'c7' and dim2.region < 'r3'
		group by dim4.year, dim2.region`, planner.Options{})
	hjs := find[*planner.HashJoin](p)
	if len(hjs) != 4 {
		t.Fatalf("want 4 hash joins:\n%s", p.Explain())
	}
	var star *planner.StarPipeline
	for _, pl := range p.Pipelines {
		if s, ok := pl.Star(); ok {
			star = s
		}
	}
	if star == nil || star.Fact.Table.Name != "fact" || len(star.Probes) != 4 {
		t.Fatalf("no star pipeline over fact:\n%s", p.Explain())
	}
	for _, hj := range star.Probes {
		if hj.Strategy != planner.DirectArray || !hj.UniqueBuild {
			t.Errorf("HashJoin#%d: want a unique direct-array build\n%s", hj.ID, p.Explain())
		}
	}
	// dim3 (city = one of 250) is the most selective: probed first.
	first := star.Probes[0]
	if !strings.Contains(planner.ExplainNode(first.Build()), "dim3") {
		t.Errorf("first probe should build dim3:\n%s", p.Explain())
	}
	agg := find[*planner.HashAggregate](p)[0]
	if agg.Strategy != planner.AggDense {
		t.Errorf("group by year, region should aggregate densely:\n%s", p.Explain())
	}
}

// TestLongChainJoin plans a 20-table chain (past the DP limit, so greedy) and
// a 12-table one (DP), written in shuffled FROM order: every join hashes on a
// WHERE equality, none is a cross product.
func TestLongChainJoin(t *testing.T) {
	for _, n := range []int{12, 20, 30} {
		e := newEnv(t)
		for i := 0; i < n; i++ {
			rows := 50 + (i*37)%200
			e.table(fmt.Sprintf("create table t%d (id int, nxt int)", i), rows, func(r int) string {
				return fmt.Sprintf("%d|%d", r, (r*7)%50)
			})
		}
		order := rand.New(rand.NewSource(int64(n))).Perm(n)
		var from, where []string
		for _, i := range order {
			from = append(from, fmt.Sprintf("t%d", i))
		}
		for i := 0; i+1 < n; i++ {
			where = append(where, fmt.Sprintf("t%d.nxt = t%d.id", i, i+1))
		}
		q := "select count(*) from " + strings.Join(from, ", ") + " where " + strings.Join(where, " and ")
		p := e.plan(q, planner.Options{})
		if c := count[*planner.NestedLoopJoin](p); c != 0 {
			t.Errorf("%d tables: %d nested-loop joins:\n%s", n, c, p.Explain())
		}
		if c := count[*planner.HashJoin](p); c != n-1 {
			t.Errorf("%d tables: %d hash joins, want %d", n, c, n-1)
		}
	}
}

// TestDisconnectedJoin: relations without a connecting predicate are crossed
// last, after the connected part is joined.
func TestDisconnectedJoin(t *testing.T) {
	e := starEnv(t)
	// sum, not count(*): a count(*) of a cross join is a RangeJoinCount.
	p := e.plan(`select sum(fact.d1) from fact, dim1, dim4 where fact.d1 = dim1.id and dim4.year = 1995`, planner.Options{})
	nl := find[*planner.NestedLoopJoin](p)
	if len(nl) != 1 || nl[0].Kind != sql.JoinCross {
		t.Fatalf("want one cross join:\n%s", p.Explain())
	}
	if count[*planner.HashJoin](p) != 1 {
		t.Errorf("want the equality hashed:\n%s", p.Explain())
	}
}

// TestLeftJoinPushdown: a WHERE test on the nullable side stays above a LEFT
// JOIN unless it rejects NULLs, which makes the join inner; ON tests on the
// right side filter the right input.
func TestLeftJoinPushdown(t *testing.T) {
	e := starEnv(t)
	p := e.plan(`select * from dim2 left join dim4 on dim2.id = dim4.id where dim4.year is null`, planner.Options{})
	hj := find[*planner.HashJoin](p)
	if len(hj) != 1 || hj[0].Kind != sql.JoinLeft {
		t.Fatalf("want a left join:\n%s", p.Explain())
	}
	if _, ok := p.Root.(*planner.Filter); !ok {
		if pr, ok := p.Root.(*planner.Projection); !ok || func() bool { _, f := pr.Input.(*planner.Filter); return !f }() {
			t.Errorf("IS NULL on the right side must stay above the join:\n%s", p.Explain())
		}
	}
	p = e.plan(`select * from dim2 left join dim4 on dim2.id = dim4.id where dim4.year > 2000`, planner.Options{})
	if hj := find[*planner.HashJoin](p); len(hj) != 1 || hj[0].Kind != sql.JoinInner {
		t.Errorf("a NULL-rejecting WHERE makes the join inner:\n%s", p.Explain())
	}
	p = e.plan(`select * from dim2 left join dim4 on dim2.id = dim4.id and dim4.year > 2000 and dim2.region = 'r1'`, planner.Options{})
	hj = find[*planner.HashJoin](p)
	if len(hj) != 1 || hj[0].Kind != sql.JoinLeft {
		t.Fatalf("want a left join:\n%s", p.Explain())
	}
	if _, ok := hj[0].Right.(*planner.Filter); !ok {
		t.Errorf("ON test on the right side should filter the right input:\n%s", p.Explain())
	}
	if hj[0].Residual == nil {
		t.Errorf("ON test on the left side must stay in the join:\n%s", p.Explain())
	}
}

// TestForcedStrategies: Options force sort-merge joins and hash aggregation.
func TestForcedStrategies(t *testing.T) {
	e := starEnv(t)
	q := `select dim4.year, count(*) from fact, dim4 where fact.d4 = dim4.id group by dim4.year`
	p := e.plan(q, planner.Options{Join: "merge", GroupBy: "hash"})
	if count[*planner.SortMergeJoin](p) != 1 || count[*planner.HashJoin](p) != 0 {
		t.Errorf("want a sort-merge join:\n%s", p.Explain())
	}
	if a := find[*planner.HashAggregate](p); a[0].Strategy != planner.AggHash {
		t.Errorf("want hash aggregation:\n%s", p.Explain())
	}
	p = e.plan(q, planner.Options{Join: "hash", GroupBy: "dense"})
	if a := find[*planner.HashAggregate](p); a[0].Strategy != planner.AggDense {
		t.Errorf("want dense aggregation:\n%s", p.Explain())
	}
	if _, err := planner.Plan(e.bind(q).(*sql.Query), planner.Options{Join: "nested"}); err == nil {
		t.Error("unknown join strategy accepted")
	}
}

// TestForcedBitmapAndTwoPass: a forced bitmap indexes a one-integer-key
// build side by a bitmap and says in EXPLAIN why it cannot where it does
// not apply (two keys, a string key); a forced two-pass join is a hash
// table the CPU partitions, and becomes a pipeline source.
func TestForcedBitmapAndTwoPass(t *testing.T) {
	e := starEnv(t)
	p := e.plan(`select count(*) from fact where d1 in (select id from dim1 where cat = 2)`, planner.Options{Join: "bitmap"})
	if hj := find[*planner.HashJoin](p); len(hj) != 1 || hj[0].Strategy != planner.Bitmap || hj[0].Fallback != "" {
		t.Errorf("want a bitmap semi join:\n%s", p.Explain())
	}
	p = e.plan(`select count(*) from fact, dim1 where fact.d1 = dim1.id and fact.d2 = dim1.cat`, planner.Options{Join: "bitmap"})
	if !strings.Contains(p.Explain(), "HashTable (bitmap not applicable: 2 join keys)") {
		t.Errorf("want the fallback named:\n%s", p.Explain())
	}
	p = e.plan(`select count(*) from dim2, dim3 where dim2.region = dim3.city`, planner.Options{Join: "bitmap"})
	if !strings.Contains(p.Explain(), "bitmap not applicable: the key is not an integer with known bounds") {
		t.Errorf("want the fallback named:\n%s", p.Explain())
	}
	p = e.plan(`select count(*) from fact, dim1 where fact.d1 = dim1.id`, planner.Options{Join: "twopass"})
	hj := find[*planner.HashJoin](p)
	if len(hj) != 1 || !hj[0].TwoPass || hj[0].Strategy != planner.HashTable || planner.Streaming(hj[0]) {
		t.Errorf("want a two-pass hash join:\n%s", p.Explain())
	}
}

// TestBuildStrategy: a sparse key range gets a hash table, a dense one a
// direct array.
func TestBuildStrategy(t *testing.T) {
	e := newEnv(t)
	e.table("create table f (k bigint, j int)", 1000, func(i int) string { return fmt.Sprintf("%d|%d", int64(i)*1000003, i%100) })
	e.table("create table sparse (k bigint)", 100, func(i int) string { return fmt.Sprint(int64(i) * 1000000007) })
	e.table("create table dense (j int)", 100, func(i int) string { return fmt.Sprint(i) })
	p := e.plan(`select count(*) from f, sparse where f.k = sparse.k`, planner.Options{})
	if hj := find[*planner.HashJoin](p); hj[0].Strategy != planner.HashTable {
		t.Errorf("sparse key: want HashTable\n%s", p.Explain())
	}
	p = e.plan(`select count(*) from f, dense where f.j = dense.j`, planner.Options{})
	if hj := find[*planner.HashJoin](p); hj[0].Strategy != planner.DirectArray || hj[0].KeyMin != 0 || hj[0].KeyMax != 99 {
		t.Errorf("dense key: want DirectArray[0..99]\n%s", p.Explain())
	}
}

// TestTopNAndFolding: ORDER BY + LIMIT becomes TopN; TRUE conjuncts vanish.
func TestTopNAndFolding(t *testing.T) {
	e := starEnv(t)
	p := e.plan(`select v from fact where 1 = 1 and d1 > 5 order by v desc limit 10`, planner.Options{})
	if count[*planner.TopN](p) != 1 || count[*planner.Sort](p) != 0 {
		t.Errorf("want TopN:\n%s", p.Explain())
	}
	for _, f := range find[*planner.Filter](p) {
		if strings.Contains(f.Cond.String(), "1 = 1") {
			t.Errorf("constant conjunct not folded: %s", f.Cond)
		}
	}
	p = e.plan(`select v from fact where 1 = 0`, planner.Options{})
	if len(p.Pipelines) == 0 {
		t.Fatal("no pipelines")
	}
}

// TestEstimates checks the cardinality rules on exact cases.
func TestEstimates(t *testing.T) {
	e := starEnv(t)
	cases := []struct {
		q      string
		lo, hi float64
	}{
		{"select * from dim1 where cat = 3", 90, 110},                          // 1/distinct
		{"select * from dim1 where id between 100 and 199", 90, 110},           // range share
		{"select * from dim1 where id >= 100 and id < 200 and cat = 1", 5, 15}, // range x equality
		{"select * from dim2 where region in ('r1', 'r2')", 35, 45},            // code set
		{"select * from fact, dim2 where fact.d2 = dim2.id", 90000, 110000},    // FK join
		{"select * from fact, dim2 where fact.d2 = dim2.id and dim2.region = 'r1'", 18000, 22000},
	}
	for _, c := range cases {
		p := e.plan(c.q, planner.Options{})
		if r := p.Root.Props().EstRows; r < c.lo || r > c.hi {
			t.Errorf("%s: estimated %.0f rows, want %.0f..%.0f\n%s", c.q, r, c.lo, c.hi, p.Explain())
		}
	}
}

// BenchmarkPlanChain12 plans a 12-table chain join (the dynamic program's
// largest size).
func BenchmarkPlanChain12(b *testing.B) {
	t := &testing.T{}
	e := &env{t: t, cat: catalog.New(), dir: b.TempDir()}
	const n = 12
	for i := 0; i < n; i++ {
		e.table(fmt.Sprintf("create table t%d (id int, nxt int)", i), 100, func(r int) string {
			return fmt.Sprintf("%d|%d", r, (r*7)%50)
		})
	}
	var from, where []string
	for i := 0; i < n; i++ {
		from = append(from, fmt.Sprintf("t%d", (i*5)%n))
		if i+1 < n {
			where = append(where, fmt.Sprintf("t%d.nxt = t%d.id", i, i+1))
		}
	}
	q := e.bind("select count(*) from " + strings.Join(from, ", ") + " where " + strings.Join(where, " and ")).(*sql.Query)
	for b.Loop() {
		if _, err := planner.Plan(q, planner.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRangeJoinCount: COUNT(*) over one range (or <>) condition between the
// sides of a join without equalities counts by sorting and searching, and
// the plan says it runs on the CPU; any other aggregate keeps the pairs.
func TestRangeJoinCount(t *testing.T) {
	e := starEnv(t)
	for _, q := range []string{
		"select count(*) from fact a, fact b where a.d1 < b.d1",
		"select count(*) from fact a, dim1 b where b.id between a.d1 and a.d1 + 10",
		"select count(*), count(*) from fact a join fact b on a.d1 <> b.d1",
		"select count(*) from fact a, dim1 b",
	} {
		p := e.plan(q, planner.Options{})
		if count[*planner.RangeJoinCount](p) != 1 || count[*planner.NestedLoopJoin](p) != 0 {
			t.Errorf("%s: want a RangeJoinCount:\n%s", q, p.Explain())
		}
		if !strings.Contains(p.CPUOnly, "RangeJoinCount#") || !strings.Contains(p.Explain(), "Executor: CPU only") {
			t.Errorf("%s: plan not marked CPU-only: %q", q, p.CPUOnly)
		}
	}
	for _, q := range []string{
		"select sum(a.d1) from fact a, fact b where a.d1 < b.d1",
		"select count(a.d1) from fact a, fact b where a.d1 < b.d1",
		"select a.d1, count(*) from fact a, fact b where a.d1 < b.d1 group by a.d1",
		"select count(*) from fact a, fact b where a.d1 < b.d1 or a.d1 > b.d2",
		"select count(*) from fact a left join fact b on a.d1 < b.d1",
	} {
		p := e.plan(q, planner.Options{})
		if count[*planner.RangeJoinCount](p) != 0 {
			t.Errorf("%s: a RangeJoinCount cannot compute it:\n%s", q, p.Explain())
		}
	}
}

// TestWideDecimalKeyTakesHashTable: a key compared as DECIMAL(20,0)
// (BIGINT UNSIGNED & n against a signed value) is a wide DECIMAL whose key
// words are interned ids, which the bitmap and direct-array probes cannot
// read; the executor falls back to its hash table, so EXPLAIN must say
// HashTable rather than name a strategy that does not run.
func TestWideDecimalKeyTakesHashTable(t *testing.T) {
	e := newEnv(t)
	e.table("create table bw (a int, b int)", 4, func(i int) string { return fmt.Sprintf("%d|%d", i, i%3) })
	q := `select a from bw where (6 & 1023) in (select -3 from bw as x where 1 = bw.b)`
	for _, join := range []string{"", "bitmap"} {
		p := e.plan(q, planner.Options{Join: join})
		hj := find[*planner.HashJoin](p)
		if len(hj) != 1 || hj[0].Strategy != planner.HashTable {
			t.Errorf("join=%q: want a HashTable join:\n%s", join, p.Explain())
			continue
		}
		if join == "bitmap" && !strings.Contains(p.Explain(), "bitmap not applicable: the key is not an integer") {
			t.Errorf("want the fallback named:\n%s", p.Explain())
		}
	}
}
