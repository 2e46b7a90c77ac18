package ssbcheck

import (
	"gpusql/storage/ssbgen"

	"strings"
	"testing"
)

// The checker's own tests: a comparison that accepts everything would make
// TestSSBGenerated pass whatever gpusql returns.

func ints(v ...int64) []cell {
	out := make([]cell, len(v))
	for i, x := range v {
		out[i] = cell{kind: kindInt, i: x}
	}
	return out
}

func TestDiffRows(t *testing.T) {
	str := cell{kind: kindString, s: "ASIA"}
	tests := []struct {
		name      string
		got, want [][]cell
		diff      string // substring of the difference; "" = none
	}{
		{"same", [][]cell{ints(1, 2), ints(3, 4)}, [][]cell{ints(1, 2), ints(3, 4)}, ""},
		{"tie reordered", [][]cell{ints(1, 5), ints(2, 5)}, [][]cell{ints(2, 5), ints(1, 5)}, ""},
		{"both empty", nil, nil, ""},
		{"value", [][]cell{ints(1, 2)}, [][]cell{ints(1, 3)}, "first difference in order at row 1"},
		{"missing row", [][]cell{ints(1, 2)}, [][]cell{ints(1, 2), ints(3, 4)}, "1 rows only in SQLite:\n    (3, 4)"},
		{"extra row", [][]cell{ints(1, 2), ints(1, 2)}, [][]cell{ints(1, 2)}, "1 rows only in gpusql"},
		{"int vs string", [][]cell{{str}}, [][]cell{ints(7)}, "only in gpusql"},
		{"int vs double", [][]cell{{{kind: kindFloat, f: 7}}}, [][]cell{ints(7)}, "(double)"},
		{"null vs zero", [][]cell{{{kind: kindNull}}}, [][]cell{ints(0)}, "NULL"},
	}
	for _, tc := range tests {
		d := diffRows(tc.got, tc.want)
		switch {
		case tc.diff == "" && d != "":
			t.Errorf("%s: unexpected difference: %s", tc.name, d)
		case tc.diff != "" && !strings.Contains(d, tc.diff):
			t.Errorf("%s: difference %q, want it to mention %q", tc.name, d, tc.diff)
		}
	}
}

func TestCheckOrder(t *testing.T) {
	names := []string{"d_year", "revenue"}
	order := []sortKey{{Name: "d_year"}, {Name: "REVENUE", Desc: true}}
	tests := []struct {
		rows [][]cell
		ok   bool
	}{
		{[][]cell{ints(1992, 9), ints(1992, 9), ints(1992, 3), ints(1993, 10)}, true},
		{[][]cell{ints(1992, 3), ints(1992, 9)}, false},
		{[][]cell{ints(1993, 1), ints(1992, 9)}, false},
		{nil, true},
	}
	for i, tc := range tests {
		if err := checkOrder(names, tc.rows, order); (err == nil) != tc.ok {
			t.Errorf("case %d: checkOrder = %v, want ok=%v", i, err, tc.ok)
		}
	}
	if err := checkOrder(names, nil, []sortKey{{Name: "profit"}}); err == nil {
		t.Error("an ORDER BY key that is not an output column was accepted")
	}
}

func TestReadQueries(t *testing.T) {
	qs, err := parseQueries("ssbgen.QueriesSQL", ssbgen.QueriesSQL)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Q1.1": "", "Q2.1": "d_year,p_brand1", "Q3.1": "d_year,revenue desc",
		"Q4.3": "d_year,s_city,p_brand1"}
	for _, q := range qs {
		w, ok := want[q.Name]
		if !ok {
			continue
		}
		var keys []string
		for _, k := range q.Order {
			s := k.Name
			if k.Desc {
				s += " desc"
			}
			keys = append(keys, s)
		}
		if got := strings.Join(keys, ","); got != w {
			t.Errorf("%s: ORDER BY %q, want %q", q.Name, got, w)
		}
		if strings.HasSuffix(q.SQL, ";") || strings.Contains(q.SQL, "-- Q") {
			t.Errorf("%s: statement not split cleanly: %q", q.Name, q.SQL)
		}
	}
}
