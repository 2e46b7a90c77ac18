//go:build cuda

package gpu

import (
	"fmt"
	"strings"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Hand-built physical plans in the shapes the planner makes for star
// queries, so the GPU path is tested independently of the planner.

func scanOf(t *columnar.Table, cols ...string) *planner.TableScan {
	var idx []int
	for _, c := range cols {
		i := t.ColumnIndex(c)
		if i < 0 {
			panic("no column " + c)
		}
		idx = append(idx, i)
	}
	return &planner.TableScan{Table: t, Alias: t.Name, Columns: idx, Out: schemaOf(t, t.Name, idx)}
}

func ref(n planner.Node, name string) *sql.ColRef {
	for i, c := range n.Schema() {
		if c.Name == name {
			return &sql.ColRef{Index: i, Col: c}
		}
	}
	panic("no column " + name)
}

func and(es ...sql.Expr) sql.Expr {
	e := es[0]
	for _, x := range es[1:] {
		e = &sql.Binary{Op: sql.OpAnd, L: e, R: x, T: columnar.TBool}
	}
	return e
}

func filterOf(n planner.Node, conds ...sql.Expr) planner.Node {
	if len(conds) == 0 {
		return n
	}
	return &planner.Filter{Input: n, Cond: and(conds...)}
}

func ic(v int64) *sql.Const { return &sql.Const{T: columnar.TInt32, I: v} }

func cmpOp(op sql.BinOp, l sql.Expr, v int64) sql.Expr {
	k := &sql.Const{T: l.Type(), I: v}
	return &sql.Binary{Op: op, L: l, R: k, T: columnar.TBool}
}

func between(l sql.Expr, lo, hi int64) sql.Expr {
	return and(cmpOp(sql.OpGE, l, lo), cmpOp(sql.OpLE, l, hi))
}

// strPred is a CodeSet of a string column: rows whose string satisfies fn.
func strPred(n planner.Node, col, desc string, fn func(string) bool) sql.Expr {
	r := ref(n, col)
	d := r.Col.Dict
	m := make([]bool, d.Len())
	for i, s := range d.Values {
		m[i] = fn(s)
	}
	return &sql.CodeSet{E: r, Match: m, Desc: desc}
}

func strEq(n planner.Node, col string, vals ...string) sql.Expr {
	return strPred(n, col, col+" IN "+strings.Join(vals, ","), func(s string) bool {
		for _, v := range vals {
			if s == v {
				return true
			}
		}
		return false
	})
}

func joinOf(probe, build planner.Node, pk, bk string) *planner.HashJoin {
	out := append(append(sql.Schema{}, probe.Schema()...), build.Schema()...)
	return &planner.HashJoin{Kind: sql.JoinInner, Left: probe, Right: build,
		LeftKeys: []sql.Expr{ref(probe, pk)}, RightKeys: []sql.Expr{ref(build, bk)},
		BuildSide: planner.BuildRight, Strategy: planner.DirectArray, UniqueBuild: true, Out: out}
}

func semiOf(probe, build planner.Node, pk, bk string) *planner.HashJoin {
	j := joinOf(probe, build, pk, bk)
	j.Kind, j.Out = sql.JoinSemi, append(sql.Schema{}, probe.Schema()...)
	return j
}

func aggOf(n planner.Node, groups []string, aggs ...sql.AggExpr) *planner.HashAggregate {
	a := &planner.HashAggregate{Input: n, Aggs: aggs}
	for _, g := range groups {
		r := ref(n, g)
		a.GroupBy = append(a.GroupBy, r)
		a.Out = append(a.Out, r.Col)
	}
	for i, ag := range aggs {
		a.Out = append(a.Out, sql.Column{Name: fmt.Sprintf("agg%d", i), Type: ag.T, Nullable: true})
	}
	return a
}

func arith(op sql.BinOp, a, b sql.Expr) sql.Expr {
	t := a.Type()
	if t.ID != b.Type().ID {
		if t.ID == columnar.Int32 {
			a = &sql.Cast{E: a, T: b.Type()}
			t = b.Type()
		} else {
			b = &sql.Cast{E: b, T: t}
		}
	}
	return &sql.Binary{Op: op, L: a, R: b, T: t}
}

func sumOf(e sql.Expr) sql.AggExpr {
	t := columnar.TInt64
	if e.Type().ID == columnar.Float64 {
		t = columnar.TFloat64
	}
	return sql.AggExpr{Func: sql.AggSum, Arg: e, T: t}
}

func countStar() sql.AggExpr { return sql.AggExpr{Func: sql.AggCountStar, T: columnar.TInt64} }

// sortOf orders by the named output columns ("-name" descending).
func sortOf(n planner.Node, keys ...string) *planner.Sort {
	s := &planner.Sort{Input: n}
	for _, k := range keys {
		desc := strings.HasPrefix(k, "-")
		s.Keys = append(s.Keys, sql.SortKey{Expr: ref(n, strings.TrimPrefix(k, "-")), Desc: desc})
	}
	return s
}

// ssbPlans builds the 13 SSB queries over db as the planner would: fact
// filters pushed onto the lineorder scan, dimension filters onto theirs,
// a left-deep chain of joins probing with the fact table.
func ssbPlans(db synthDB) map[string]*planner.Physical {
	lo := func(cols ...string) planner.Node { return scanOf(db["lineorder"], cols...) }
	dim := func(name string, cols []string, conds func(planner.Node) []sql.Expr) planner.Node {
		s := scanOf(db[name], cols...)
		return filterOf(s, conds(s)...)
	}
	none := func(planner.Node) []sql.Expr { return nil }
	phys := func(root planner.Node) *planner.Physical {
		var names []string
		for _, c := range root.Schema() {
			names = append(names, c.Name)
		}
		return &planner.Physical{Root: root, Names: names}
	}
	q1 := func(dateConds func(planner.Node) []sql.Expr, dlo, dhi, qlo, qhi int64) *planner.Physical {
		f := lo("lo_orderdate", "lo_discount", "lo_quantity", "lo_extendedprice")
		f = filterOf(f, between(ref(f, "lo_discount"), dlo, dhi), between(ref(f, "lo_quantity"), qlo, qhi))
		j := joinOf(f, dim("date", []string{"d_datekey", "d_year", "d_yearmonthnum", "d_weeknuminyear"}, dateConds), "lo_orderdate", "d_datekey")
		return phys(aggOf(j, nil, sumOf(arith(sql.OpMul, ref(j, "lo_extendedprice"), ref(j, "lo_discount")))))
	}
	q2 := func(partConds func(planner.Node) []sql.Expr, region string) *planner.Physical {
		f := lo("lo_orderdate", "lo_partkey", "lo_suppkey", "lo_revenue")
		j := joinOf(f, dim("part", []string{"p_partkey", "p_category", "p_brand1"}, partConds), "lo_partkey", "p_partkey")
		j = joinOf(j, dim("supplier", []string{"s_suppkey", "s_region"}, func(n planner.Node) []sql.Expr {
			return []sql.Expr{strEq(n, "s_region", region)}
		}), "lo_suppkey", "s_suppkey")
		j = joinOf(j, dim("date", []string{"d_datekey", "d_year"}, none), "lo_orderdate", "d_datekey")
		a := aggOf(j, []string{"d_year", "p_brand1"}, sumOf(ref(j, "lo_revenue")))
		return phys(sortOf(a, "d_year", "p_brand1"))
	}
	q3 := func(geo string, cConds, sConds func(planner.Node) []sql.Expr, dConds func(planner.Node) []sql.Expr) *planner.Physical {
		f := lo("lo_orderdate", "lo_custkey", "lo_suppkey", "lo_revenue")
		j := joinOf(f, dim("customer", []string{"c_custkey", "c_" + geo, "c_region", "c_nation", "c_city"}, cConds), "lo_custkey", "c_custkey")
		j = joinOf(j, dim("supplier", []string{"s_suppkey", "s_" + geo, "s_region", "s_nation", "s_city"}, sConds), "lo_suppkey", "s_suppkey")
		j = joinOf(j, dim("date", []string{"d_datekey", "d_year", "d_yearmonth"}, dConds), "lo_orderdate", "d_datekey")
		a := aggOf(j, []string{"c_" + geo, "s_" + geo, "d_year"}, sumOf(ref(j, "lo_revenue")))
		return phys(sortOf(a, "d_year", "-agg0"))
	}
	q4 := func(groups []string, cConds, sConds, pConds, dConds func(planner.Node) []sql.Expr) *planner.Physical {
		f := lo("lo_orderdate", "lo_custkey", "lo_suppkey", "lo_partkey", "lo_revenue", "lo_supplycost")
		j := joinOf(f, dim("customer", []string{"c_custkey", "c_region", "c_nation"}, cConds), "lo_custkey", "c_custkey")
		j = joinOf(j, dim("supplier", []string{"s_suppkey", "s_region", "s_nation", "s_city"}, sConds), "lo_suppkey", "s_suppkey")
		j = joinOf(j, dim("part", []string{"p_partkey", "p_mfgr", "p_category", "p_brand1"}, pConds), "lo_partkey", "p_partkey")
		j = joinOf(j, dim("date", []string{"d_datekey", "d_year"}, dConds), "lo_orderdate", "d_datekey")
		a := aggOf(j, groups, sumOf(arith(sql.OpSub, ref(j, "lo_revenue"), ref(j, "lo_supplycost"))))
		return phys(sortOf(a, groups...))
	}
	eqs := func(col string, vals ...string) func(planner.Node) []sql.Expr {
		return func(n planner.Node) []sql.Expr { return []sql.Expr{strEq(n, col, vals...)} }
	}
	years := func(lo, hi int64) func(planner.Node) []sql.Expr {
		return func(n planner.Node) []sql.Expr {
			return []sql.Expr{cmpOp(sql.OpGE, ref(n, "d_year"), lo), cmpOp(sql.OpLE, ref(n, "d_year"), hi)}
		}
	}
	uk := []string{"UNITED KI1", "UNITED KI5"}
	return map[string]*planner.Physical{
		"q1.1": q1(func(n planner.Node) []sql.Expr { return []sql.Expr{cmpOp(sql.OpEQ, ref(n, "d_year"), 1993)} }, 1, 3, 1, 24),
		"q1.2": q1(func(n planner.Node) []sql.Expr { return []sql.Expr{cmpOp(sql.OpEQ, ref(n, "d_yearmonthnum"), 199401)} }, 4, 6, 26, 35),
		"q1.3": q1(func(n planner.Node) []sql.Expr {
			return []sql.Expr{cmpOp(sql.OpEQ, ref(n, "d_weeknuminyear"), 6), cmpOp(sql.OpEQ, ref(n, "d_year"), 1994)}
		}, 5, 7, 26, 35),
		"q2.1": q2(eqs("p_category", "MFGR#12"), "AMERICA"),
		"q2.2": q2(func(n planner.Node) []sql.Expr {
			return []sql.Expr{strPred(n, "p_brand1", "between", func(s string) bool { return s >= "MFGR#2221" && s <= "MFGR#2228" })}
		}, "ASIA"),
		"q2.3": q2(eqs("p_brand1", "MFGR#2239"), "EUROPE"),
		"q3.1": q3("nation", eqs("c_region", "ASIA"), eqs("s_region", "ASIA"), years(1992, 1997)),
		"q3.2": q3("city", eqs("c_nation", "UNITED STATES"), eqs("s_nation", "UNITED STATES"), years(1992, 1997)),
		"q3.3": q3("city", eqs("c_city", uk...), eqs("s_city", uk...), years(1992, 1997)),
		"q3.4": q3("city", eqs("c_city", uk...), eqs("s_city", uk...), eqs("d_yearmonth", "Dec1997")),
		"q4.1": q4([]string{"d_year", "c_nation"}, eqs("c_region", "AMERICA"), eqs("s_region", "AMERICA"), eqs("p_mfgr", "MFGR#1", "MFGR#2"), none),
		"q4.2": q4([]string{"d_year", "s_nation", "p_category"}, eqs("c_region", "AMERICA"), eqs("s_region", "AMERICA"), eqs("p_mfgr", "MFGR#1", "MFGR#2"),
			func(n planner.Node) []sql.Expr {
				return []sql.Expr{&sql.InList{E: ref(n, "d_year"), List: []sql.Expr{ic(1997), ic(1998)}}}
			}),
		"q4.3": q4([]string{"d_year", "s_city", "p_brand1"}, eqs("c_region", "AMERICA"), eqs("s_nation", "UNITED STATES"), eqs("p_category", "MFGR#14"),
			func(n planner.Node) []sql.Expr {
				return []sql.Expr{&sql.InList{E: ref(n, "d_year"), List: []sql.Expr{ic(1997), ic(1998)}}}
			}),
	}
}

var ssbOrder = []string{"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"}
