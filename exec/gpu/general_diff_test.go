//go:build cuda

package gpu

import (
	"context"
	"errors"
	"sort"
	"testing"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Queries beyond the star pipeline, on SSB data large enough to span many
// blocks and collide in the hash tables: the expression VM, the
// materializing joins, hash group-by, DISTINCT, set operations and scalar
// subqueries must give the CPU's rows (as multisets: their order is
// unspecified).
var generalQueries = []string{
	"select lo_orderkey, lo_linenumber, lo_revenue - lo_supplycost, lo_extendedprice * lo_discount / 100 from lineorder where lo_quantity < 3",
	"select lo_orderkey, lo_quantity * 2 + lo_tax from lineorder where lo_quantity + lo_discount > 55 or lo_tax is null",
	"select c_name, lo_revenue, lo_orderdate from lineorder join customer on lo_custkey = c_custkey where lo_discount = 1 and lo_quantity < 5",
	"select lo_quantity % 7, count(*), sum(lo_revenue), min(lo_tax), max(lo_extendedprice), avg(lo_discount) from lineorder group by lo_quantity % 7",
	"select lo_custkey, count(distinct lo_suppkey), sum(lo_quantity) from lineorder group by lo_custkey",
	"select distinct lo_shipmode, lo_orderpriority from lineorder",
	"select c_nation from customer union select s_nation from supplier",
	"select c_city from customer union all select s_city from supplier",
	"select c_city from customer intersect select s_city from supplier",
	"select c_city from customer except select s_city from supplier",
	"select count(*), sum(s_suppkey) from lineorder left join supplier on lo_suppkey = s_suppkey and s_region = 'ASIA'",
	"select count(*) from customer where c_custkey not in (select lo_custkey from lineorder where lo_quantity = 1)",
	"select count(*) from customer where exists (select 1 from lineorder where lo_custkey = c_custkey and lo_quantity = 1)",
	"select sum(case when lo_discount > 5 then lo_revenue else 0 end), sum(lo_revenue * (100 - lo_discount)) from lineorder",
	"select count(*) from lineorder where lo_quantity > (select avg(lo_quantity) from lineorder)",
	"select count(*) from lineorder where lo_revenue > (select max(lo_revenue) from lineorder where lo_quantity = 1)",
	"select upper(c_region), lo_orderdate / 10000, count(*) from lineorder join customer on lo_custkey = c_custkey group by upper(c_region), lo_orderdate / 10000",
	"select s_name, p_name from supplier join part on s_city = p_color where s_suppkey < 20",
	"select cast(lo_discount as char), lo_orderkey from lineorder where lo_quantity = 2",
	"select round(lo_extendedprice / 7, 1), floor(lo_tax / 3), ceil(lo_revenue / 1000) from lineorder where lo_quantity = 3",
	"select case when lo_quantity < 10 then 'small' when lo_quantity < 30 then c_region else 'big' end, count(*) from lineorder join customer on lo_custkey = c_custkey group by 1",
}

func TestGeneralDifferential(t *testing.T) {
	needGPU(t)
	cat := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	for _, text := range generalQueries {
		ps, err := sql.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		for _, o := range []planner.Options{{}, {Join: "hash", GroupBy: "hash"}} {
			p, err := planner.Plan(st.(*sql.Query), o)
			if err != nil {
				t.Fatal(err)
			}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s cpu: %v", text, err)
			}
			got, err := Run(context.Background(), p)
			if err != nil {
				if errors.Is(err, ErrUnsupported) {
					t.Logf("%s: %v", text, err)
				} else {
					t.Errorf("%s %+v: %v\n%s", text, o, err, p.Explain())
				}
				continue
			}
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Errorf("%s %+v: %s\n%s", text, o, d, p.Explain())
			}
		}
	}
}

// sorted is res with its rows in the order of their rendering.
func sorted(res *exec.Result) *exec.Result {
	keys := make([]string, res.Rows)
	idx := make([]int, res.Rows)
	for r := range keys {
		for c := range res.Columns {
			keys[r] += cellString(res.Columns[c], r) + "\x00"
		}
		idx[r] = r
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	out := &exec.Result{Names: res.Names, Rows: res.Rows}
	for _, c := range res.Columns {
		n := columnar.NewColumnIn(columnar.HeapAllocator, c.Type, res.Rows, true)
		n.Dict = c.Dict
		for i, r := range idx {
			if c.IsNull(r) {
				n.SetNull(i)
				continue
			}
			n.SetValid(i)
			switch {
			case n.I32 != nil:
				n.I32[i] = c.I32[r]
			case n.I64 != nil:
				n.I64[i] = c.I64[r]
			default:
				n.F64[i] = c.F64[r]
			}
		}
		out.Columns = append(out.Columns, n)
	}
	return out
}

// Every general query must be one the GPU executor accepts (no device
// needed: Supports only inspects the plan).
func TestGeneralSupported(t *testing.T) {
	cat := ssbtest.Catalog(t, 0.01, columnar.HeapAllocator)
	for _, text := range generalQueries {
		ps, err := sql.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		for _, o := range []planner.Options{{}, {Join: "hash", GroupBy: "hash"}} {
			p, err := planner.Plan(st.(*sql.Query), o)
			if err != nil {
				t.Fatal(err)
			}
			if err := Supports(p); err != nil {
				t.Errorf("%s %+v: %v\n%s", text, o, err, p.Explain())
			}
		}
	}
}
