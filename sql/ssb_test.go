package sql

import (
	"gpusql/storage/ssbgen"
	"reflect"
	"testing"
)

// All 13 SSB queries bind over the schema created through Parse + Bind +
// catalog.Create, in the shape the planner expects: one Filter holding the
// WHERE conjunction over a left-deep tree of Cross joins of the FROM tables
// in FROM order, string constants compiled to CodeSets.
func TestSSBQueriesBind(t *testing.T) {
	cat := ssbCatalog(t)
	ps, err := Parse(ssbgen.QueriesSQL)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 13 {
		t.Fatalf("got %d SSB queries, want 13", len(ps))
	}
	wantNames := [][]string{
		{"revenue"}, {"revenue"}, {"revenue"},
		{"revenue", "d_year", "p_brand1"}, {"revenue", "d_year", "p_brand1"}, {"revenue", "d_year", "p_brand1"},
		{"c_nation", "s_nation", "d_year", "revenue"}, {"c_city", "s_city", "d_year", "revenue"},
		{"c_city", "s_city", "d_year", "revenue"}, {"c_city", "s_city", "d_year", "revenue"},
		{"d_year", "c_nation", "profit"}, {"d_year", "s_nation", "p_category", "profit"},
		{"d_year", "s_city", "p_brand1", "profit"},
	}
	wantTables := [][]string{
		{"lineorder", "date"}, {"lineorder", "date"}, {"lineorder", "date"},
		{"lineorder", "date", "part", "supplier"}, {"lineorder", "date", "part", "supplier"}, {"lineorder", "date", "part", "supplier"},
		{"customer", "lineorder", "supplier", "date"}, {"customer", "lineorder", "supplier", "date"},
		{"customer", "lineorder", "supplier", "date"}, {"customer", "lineorder", "supplier", "date"},
		{"date", "customer", "supplier", "part", "lineorder"}, {"date", "customer", "supplier", "part", "lineorder"},
		{"date", "customer", "supplier", "part", "lineorder"},
	}
	for i, p := range ps {
		st, err := Bind(cat, p)
		if err != nil {
			t.Fatalf("query at line %d: %v", p.Line, err)
		}
		q := st.(*Query)
		if !reflect.DeepEqual(q.Names, wantNames[i]) {
			t.Errorf("query %d names %v, want %v", i, q.Names, wantNames[i])
		}
		var agg *Aggregate
		for n := q.Plan; n != nil && agg == nil; {
			if a, ok := n.(*Aggregate); ok {
				agg = a
				break
			}
			ch := n.Children()
			if len(ch) != 1 {
				break
			}
			n = ch[0]
		}
		if agg == nil {
			t.Fatalf("query %d: no Aggregate under the top:\n%s", i, FormatPlan(q.Plan))
		}
		f, ok := agg.Input.(*Filter)
		if !ok {
			t.Fatalf("query %d: Aggregate input is %T, want Filter", i, agg.Input)
		}
		var tables []string
		var leaves func(p Plan) bool
		leaves = func(p Plan) bool {
			switch p := p.(type) {
			case *Scan:
				tables = append(tables, p.Table.Name)
				return true
			case *Join:
				if _, ok := p.Right.(*Scan); !ok || p.Kind != JoinCross || p.Residual != nil || len(p.LeftKeys) > 0 {
					return false
				}
				return leaves(p.Left) && leaves(p.Right)
			}
			return false
		}
		if !leaves(f.Input) || !reflect.DeepEqual(tables, wantTables[i]) {
			t.Errorf("query %d: want a left-deep cross join of %v, got:\n%s", i, wantTables[i], FormatPlan(f.Input))
		}
		codeSets := 0
		walkExpr(f.Cond, func(e Expr) bool {
			if _, ok := e.(*CodeSet); ok {
				codeSets++
			}
			return true
		})
		if i >= 3 && codeSets == 0 {
			t.Errorf("query %d: string predicates did not become CodeSets: %s", i, f.Cond)
		}
		if planHasOuterRef(q.Plan) {
			t.Errorf("query %d: outer reference left in plan", i)
		}
	}
}

// The CodeSets of Q2.1 match exactly the dictionary entries.
func TestCodeSetMatches(t *testing.T) {
	cat := ssbCatalog(t)
	cases := []struct {
		where string
		want  []bool
	}{
		{"p_category = 'MFGR#12'", []bool{false, true, false, false}},
		{"p_category <> 'MFGR#12'", []bool{true, false, true, true}},
		{"p_category between 'MFGR#12' and 'MFGR#13'", []bool{false, true, true, false}},
		{"p_category not between 'MFGR#12' and 'MFGR#13'", []bool{true, false, false, true}},
		{"p_category in ('MFGR#11', 'MFGR#14', 'nope')", []bool{true, false, false, true}},
		{"p_category like '%3'", []bool{false, false, true, false}},
		{"p_category not like 'MFGR#1_'", []bool{false, false, false, false}},
		{"'MFGR#12' < p_category", []bool{false, false, true, true}},
		{"p_category >= 'MFGR#13'", []bool{false, false, true, true}},
		{"(p_category = 'MFGR#11' or p_category = 'MFGR#13')", []bool{true, false, true, false}},
		{"case p_category when 'MFGR#14' then true else false end", nil},
	}
	for _, c := range cases {
		ps, err := Parse("select p_partkey from part where " + c.where)
		if err != nil {
			t.Fatal(err)
		}
		st, err := Bind(cat, ps[0])
		if err != nil {
			t.Fatalf("%s: %v", c.where, err)
		}
		f := st.(*Query).Plan.Children()[0].(*Filter)
		cs, ok := f.Cond.(*CodeSet)
		if c.want == nil {
			continue
		}
		if !ok {
			t.Errorf("%s: got %T %s, want CodeSet", c.where, f.Cond, f.Cond)
			continue
		}
		if !reflect.DeepEqual(cs.Match, c.want) {
			t.Errorf("%s: Match %v, want %v", c.where, cs.Match, c.want)
		}
	}
}
