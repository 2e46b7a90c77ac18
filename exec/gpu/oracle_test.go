//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A row-at-a-time interpreter of the hand-built plans: slow, obvious, and
// sharing no code with the GPU path, so it can judge it.

type oval struct {
	null bool
	i    int64
	f    float64
	isF  bool
}

type orow []oval

func oracle(n planner.Node) []orow {
	switch x := n.(type) {
	case *planner.TableScan:
		rows := make([]orow, x.Table.Rows)
		for r := range rows {
			row := make(orow, len(x.Columns))
			for j, c := range x.Columns {
				col := x.Table.Columns[c]
				switch {
				case col.IsNull(r):
					row[j] = oval{null: true}
				case col.F64 != nil:
					row[j] = oval{f: col.F64[r], isF: true}
				default:
					row[j] = oval{i: col.Int64At(r)}
				}
			}
			rows[r] = row
		}
		return rows
	case *planner.Filter:
		var out []orow
		for _, r := range oracle(x.Input) {
			if v := oeval(x.Cond, r); !v.null && v.i != 0 {
				out = append(out, r)
			}
		}
		return out
	case *planner.Projection:
		var out []orow
		for _, r := range oracle(x.Input) {
			nr := make(orow, len(x.Exprs))
			for i, e := range x.Exprs {
				nr[i] = oeval(e, r)
			}
			out = append(out, nr)
		}
		return out
	case *planner.HashJoin:
		right := map[int64][]orow{}
		for _, r := range oracle(x.Right) {
			k := oeval(x.RightKeys[0], r)
			if !k.null {
				right[k.i] = append(right[k.i], r)
			}
		}
		var out []orow
		for _, l := range oracle(x.Left) {
			k := oeval(x.LeftKeys[0], l)
			if k.null {
				continue
			}
			ms := right[k.i]
			if x.Kind == sql.JoinSemi {
				if len(ms) > 0 {
					out = append(out, l)
				}
				continue
			}
			for _, m := range ms {
				out = append(out, append(append(orow{}, l...), m...))
			}
		}
		return out
	case *planner.HashAggregate:
		type state struct {
			key  orow
			aggs []oval
			cnts []int64
		}
		groups := map[string]*state{}
		var order []string
		for _, r := range oracle(x.Input) {
			key := make(orow, len(x.GroupBy))
			for i, g := range x.GroupBy {
				key[i] = oeval(g, r)
			}
			ks := fmt.Sprint(key)
			st := groups[ks]
			if st == nil {
				st = &state{key: key, aggs: make([]oval, len(x.Aggs)), cnts: make([]int64, len(x.Aggs))}
				groups[ks] = st
				order = append(order, ks)
			}
			for i, a := range x.Aggs {
				if a.Func == sql.AggCountStar {
					st.cnts[i]++
					continue
				}
				v := oeval(a.Arg, r)
				if v.null {
					continue
				}
				cur := &st.aggs[i]
				first := st.cnts[i] == 0
				st.cnts[i]++
				switch a.Func {
				case sql.AggSum, sql.AggAvg:
					cur.i += v.i
					cur.f += v.f
					cur.isF = v.isF
				case sql.AggMin:
					if first || v.isF && v.f < cur.f || !v.isF && v.i < cur.i {
						*cur = v
					}
				case sql.AggMax:
					if first || v.isF && v.f > cur.f || !v.isF && v.i > cur.i {
						*cur = v
					}
				}
			}
		}
		if len(x.GroupBy) == 0 && len(order) == 0 {
			groups[""] = &state{aggs: make([]oval, len(x.Aggs)), cnts: make([]int64, len(x.Aggs))}
			order = append(order, "")
		}
		var out []orow
		for _, ks := range order {
			st := groups[ks]
			row := append(orow{}, st.key...)
			for i, a := range x.Aggs {
				switch {
				case a.Func == sql.AggCountStar || a.Func == sql.AggCount:
					row = append(row, oval{i: st.cnts[i]})
				case st.cnts[i] == 0:
					row = append(row, oval{null: true})
				case a.Func == sql.AggAvg:
					if st.aggs[i].isF {
						row = append(row, oval{isF: true, f: st.aggs[i].f / float64(st.cnts[i])})
					} else {
						row = append(row, oval{isF: true, f: float64(st.aggs[i].i) / float64(st.cnts[i])})
					}
				default:
					row = append(row, st.aggs[i])
				}
			}
			out = append(out, row)
		}
		return out
	case *planner.Sort:
		return oracle(x.Input) // order is checked on the GPU result itself
	case *planner.TopN:
		rows := oracle(x.Input)
		sort.SliceStable(rows, func(a, b int) bool {
			for _, k := range x.Keys {
				c := ocompare(oeval(k.Expr, rows[a]), oeval(k.Expr, rows[b]))
				if k.Desc {
					c = -c
				}
				if c != 0 {
					return c < 0
				}
			}
			return false
		})
		lo := min(int(x.Offset), len(rows))
		hi := len(rows)
		if x.Count >= 0 {
			hi = min(hi, lo+int(x.Count))
		}
		return rows[lo:hi]
	}
	panic(fmt.Sprintf("oracle: %T", n))
}

// ocompare orders two values, NULL lowest (first ascending, as MySQL).
func ocompare(a, b oval) int {
	switch {
	case a.null || b.null:
		return b2int(!a.null) - b2int(!b.null)
	case a.isF || b.isF:
		return compareF(a.f, b.f)
	case a.i < b.i:
		return -1
	case a.i > b.i:
		return 1
	}
	return 0
}

func oeval(e sql.Expr, r orow) oval {
	switch x := e.(type) {
	case *sql.ColRef:
		return r[x.Index]
	case *sql.Const:
		if x.Null {
			return oval{null: true}
		}
		if x.T.ID == columnar.Float64 {
			return oval{isF: true, f: x.F}
		}
		return oval{i: x.I}
	case *sql.Cast:
		v := oeval(x.E, r)
		if x.T.ID == columnar.Float64 && !v.isF {
			return oval{null: v.null, isF: true, f: float64(v.i)}
		}
		return v
	case *sql.CodeSet:
		v := oeval(x.E, r)
		if v.null {
			return v
		}
		return ob(x.Match[v.i])
	case *sql.IsNull:
		return ob(oeval(x.E, r).null != x.Negated)
	case *sql.Not:
		v := oeval(x.E, r)
		if v.null {
			return v
		}
		return ob(v.i == 0)
	case *sql.InList:
		v := oeval(x.E, r)
		if v.null {
			return v
		}
		for _, it := range x.List {
			if oeval(it, r).i == v.i {
				return ob(!x.Negated)
			}
		}
		return ob(x.Negated)
	case *sql.Binary:
		a, b := oeval(x.L, r), oeval(x.R, r)
		switch x.Op {
		case sql.OpAnd:
			if !a.null && a.i == 0 || !b.null && b.i == 0 {
				return ob(false)
			}
			if a.null || b.null {
				return oval{null: true}
			}
			return ob(true)
		case sql.OpOr:
			if !a.null && a.i != 0 || !b.null && b.i != 0 {
				return ob(true)
			}
			if a.null || b.null {
				return oval{null: true}
			}
			return ob(false)
		}
		if a.null || b.null {
			return oval{null: true}
		}
		if a.isF || b.isF {
			af, bf := a.f, b.f
			if !a.isF {
				af = float64(a.i)
			}
			if !b.isF {
				bf = float64(b.i)
			}
			switch x.Op {
			case sql.OpAdd:
				return oval{isF: true, f: af + bf}
			case sql.OpSub:
				return oval{isF: true, f: af - bf}
			case sql.OpMul:
				return oval{isF: true, f: af * bf}
			}
			return ob(cmpOK(x.Op, compareF(af, bf)))
		}
		switch x.Op {
		case sql.OpAdd:
			return oval{i: a.i + b.i}
		case sql.OpSub:
			return oval{i: a.i - b.i}
		case sql.OpMul:
			return oval{i: a.i * b.i}
		}
		c := 0
		if a.i < b.i {
			c = -1
		} else if a.i > b.i {
			c = 1
		}
		return ob(cmpOK(x.Op, c))
	}
	panic(fmt.Sprintf("oeval: %T", e))
}

func compareF(a, b float64) int {
	if a < b {
		return -1
	} else if a > b {
		return 1
	}
	return 0
}

func cmpOK(op sql.BinOp, c int) bool {
	switch op {
	case sql.OpEQ:
		return c == 0
	case sql.OpNE:
		return c != 0
	case sql.OpLT:
		return c < 0
	case sql.OpLE:
		return c <= 0
	case sql.OpGT:
		return c > 0
	case sql.OpGE:
		return c >= 0
	}
	panic("op")
}

func ob(b bool) oval {
	if b {
		return oval{i: 1}
	}
	return oval{}
}

func fmtVal(v oval) string {
	switch {
	case v.null:
		return "NULL"
	case v.isF:
		return fmt.Sprintf("%.6g", v.f)
	}
	return fmt.Sprint(v.i)
}

// rowStrings renders rows as sorted strings (the multiset of rows).
func oracleStrings(rows []orow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var parts []string
		for _, v := range r {
			parts = append(parts, fmtVal(v))
		}
		out[i] = strings.Join(parts, "|")
	}
	sort.Strings(out)
	return out
}

func resultStrings(res *exec.Result) []string {
	out := make([]string, res.Rows)
	for i := 0; i < res.Rows; i++ {
		var parts []string
		for _, c := range res.Columns {
			switch {
			case c.IsNull(i):
				parts = append(parts, "NULL")
			case c.F64 != nil:
				parts = append(parts, fmtVal(oval{isF: true, f: c.F64[i]}))
			default:
				parts = append(parts, fmt.Sprint(c.Int64At(i)))
			}
		}
		out[i] = strings.Join(parts, "|")
	}
	return out
}

// checkPlan runs p on the GPU and compares with the oracle (as multisets;
// the order of the top Sort's keys is checked on the GPU result).
func checkPlan(t *testing.T, name string, p *planner.Physical) *exec.Result {
	t.Helper()
	res, err := Run(t.Context(), p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := resultStrings(res)
	if s, ok := p.Root.(*planner.Sort); ok {
		for i := 1; i < res.Rows; i++ {
			for _, k := range s.Keys {
				c := res.Columns[k.Expr.(*sql.ColRef).Index]
				d := compareRows(c, i-1, i)
				if k.Desc {
					d = -d
				}
				if d < 0 {
					break
				}
				if d > 0 {
					t.Fatalf("%s: rows %d and %d out of order: %s / %s", name, i-1, i, got[i-1], got[i])
				}
			}
		}
	}
	sort.Strings(got)
	want, ok := oracleCache[p]
	if !ok {
		want = oracleStrings(oracle(p.Root))
		oracleCache[p] = want
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d\n got %v\nwant %v", name, len(got), len(want), head(got), head(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: row %d = %s, want %s", name, i, got[i], want[i])
		}
	}
	return res
}

func head(s []string) []string {
	if len(s) > 5 {
		return s[:5]
	}
	return s
}

var _ = math.Inf

var oracleCache = map[*planner.Physical][]string{}
