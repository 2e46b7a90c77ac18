package cpu

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"gpusql/internal/mysqljson"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// newMoreAccumulator builds the accumulators of sql/aggregates_more.go.
func newMoreAccumulator(a sql.AggExpr) accumulator {
	switch a.Func {
	case sql.AggVarPop, sql.AggVarSamp, sql.AggStddevPop, sql.AggStddevSamp:
		return &varAcc{f: a.Func}
	case sql.AggBitAnd, sql.AggBitOr, sql.AggBitXor:
		return &bitAcc{f: a.Func}
	case sql.AggGroupConcat, sql.AggJSONArrayAgg, sql.AggJSONObjectAgg:
		return &groupConcatAcc{e: a}
	}
	return nil
}

// varAcc keeps per group the count, mean and sum of squared deviations
// (Welford's update); partial states merge by Chan et al.'s formula, so
// the result does not suffer the cancellation of sum(x²) - sum(x)²/n.
type varAcc struct {
	f        sql.AggFunc
	n        []int64
	mean, m2 []float64
}

func (a *varAcc) grow(n int) {
	a.n, a.mean, a.m2 = growTo(a.n, n), growTo(a.mean, n), growTo(a.m2, n)
}

func (a *varAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.isNull(p) {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		x := v.f64[p]
		a.n[g]++
		d := x - a.mean[g]
		a.mean[g] += d / float64(a.n[g])
		a.m2[g] += d * (x - a.mean[g])
	}
}

func (a *varAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*varAcc)
	for g := 0; g < n; g++ {
		if b.n[g] == 0 {
			continue
		}
		t := mapGroup(m, g)
		na, nb := float64(a.n[t]), float64(b.n[g])
		d := b.mean[g] - a.mean[t]
		tot := na + nb
		a.mean[t] += d * nb / tot
		a.m2[t] += b.m2[g] + d*d*na*nb/tot
		a.n[t] += b.n[g]
	}
}

func (a *varAcc) result(groups []int32, rc []int64) *columnar.Column {
	col := newColumn(columnar.TFloat64, len(groups), true)
	for i, g := range groups {
		n := a.n[g]
		div := float64(n)
		if a.f == sql.AggVarSamp || a.f == sql.AggStddevSamp {
			div--
		}
		if div <= 0 {
			col.SetNull(i)
			continue
		}
		col.SetValid(i)
		v := max(a.m2[g], 0) / div
		if a.f == sql.AggStddevPop || a.f == sql.AggStddevSamp {
			v = math.Sqrt(v)
		}
		col.F64[i] = v
	}
	return dropValidity(col)
}

// bitAcc is BIT_AND, BIT_OR or BIT_XOR over the 64-bit patterns.
type bitAcc struct {
	f sql.AggFunc
	w []uint64
}

func (a *bitAcc) grow(n int) {
	old := len(a.w)
	a.w = growTo(a.w, n)
	if a.f == sql.AggBitAnd {
		for i := old; i < len(a.w); i++ {
			a.w[i] = math.MaxUint64
		}
	}
}

func (a *bitAcc) fold(g int, x uint64) {
	switch a.f {
	case sql.AggBitAnd:
		a.w[g] &= x
	case sql.AggBitOr:
		a.w[g] |= x
	default:
		a.w[g] ^= x
	}
}

func (a *bitAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.isNull(p) {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		a.fold(g, uint64(v.int64At(p)))
	}
}

func (a *bitAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*bitAcc)
	for g := 0; g < n; g++ {
		a.fold(mapGroup(m, g), b.w[g])
	}
}

func (a *bitAcc) result(groups []int32, rc []int64) *columnar.Column {
	col := newColumn(columnar.TUint64, len(groups), false)
	for i, g := range groups {
		col.I64[i] = int64(a.w[g]) // BIGINT UNSIGNED: the bits
	}
	return col
}

// groupConcatAcc collects each group's strings with their ORDER BY keys
// and the place they arrived (morsel, row), which orders ties and calls
// without ORDER BY the same way on every run.
type groupConcatAcc struct {
	e      sql.AggExpr
	items  [][]gcItem
	keys   []*vec
	morsel int
	// held is the bytes the items hold, charged to the query's memory
	// limit with the rest of the aggregate's state.
	held int64
	// cut are the result rows (0-based) result cut to @@group_concat_max_len.
	cut []int
}

// noteCut notes MySQL's warning 1260 for each result row cut to
// @@group_concat_max_len.
func (a *groupConcatAcc) noteCut(w *sql.Warnings) {
	for _, r := range a.cut {
		w.Add(sql.WarnCutGroupConcat, fmt.Sprintf("Row %d was cut by GROUP_CONCAT()", r+1))
	}
	a.cut = nil
}

func (a *groupConcatAcc) heldBytes() int64 { return a.held }

type gcItem struct {
	s      string
	keys   []val
	morsel int
	row    int32
}

func (a *groupConcatAcc) grow(n int) { a.items = growTo(a.items, n) }

// setKeys hands the accumulator the ORDER BY key vectors of the batch
// update is about to see.
func (a *groupConcatAcc) setKeys(keys []*vec, morsel int) { a.keys, a.morsel = keys, morsel }

func (a *groupConcatAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.isNull(p) {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		it := gcItem{s: v.stringAt(p), morsel: a.morsel, row: p}
		for i, kv := range a.keys {
			it.keys = append(it.keys, readVal(kv, a.e.Order[i].Expr.Type(), p))
		}
		a.items[g] = append(a.items[g], it)
		a.held += int64(len(it.s)) + 64 + 40*int64(len(it.keys))
	}
}

func readVal(v *vec, t columnar.Type, p int32) val {
	switch {
	case v.isNull(p):
		return nullVal
	case t.ID == columnar.String:
		return val{s: v.stringAt(p)}
	case v.f64 != nil:
		return val{f: v.f64[p]}
	}
	return val{i: v.int64At(p)}
}

func (a *groupConcatAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*groupConcatAcc)
	for g := 0; g < n; g++ {
		t := mapGroup(m, g)
		a.items[t] = append(a.items[t], b.items[g]...)
	}
	a.held += b.held
}

func (a *groupConcatAcc) result(groups []int32, rc []int64) *columnar.Column {
	out := make([]string, len(groups))
	has := make([]bool, len(groups))
	for i, g := range groups {
		items := a.items[g]
		if len(items) == 0 {
			continue
		}
		sort.SliceStable(items, func(x, y int) bool { return a.less(items[x], items[y]) })
		if a.e.Func != sql.AggGroupConcat {
			out[i], has[i] = jsonAggText(a.e.Func, items), true
			continue
		}
		var sb strings.Builder
		for j, it := range items {
			if j > 0 {
				sb.WriteString(a.e.Sep)
			}
			sb.WriteString(it.s)
			if int64(sb.Len()) >= a.e.MaxLen {
				break
			}
		}
		s := sb.String()
		if int64(len(s)) > a.e.MaxLen {
			// Cut at a character's start: the text stays UTF-8 (MySQL
			// keeps whole characters within the byte limit).
			n := int(a.e.MaxLen)
			for n > 0 && !utf8.RuneStart(s[n]) {
				n--
			}
			s = s[:n]
			a.cut = append(a.cut, i)
		}
		out[i], has[i] = s, true
	}
	col := stringColumn(out, has)
	col.Type = a.e.T
	return col
}

// jsonAggText is JSON_ARRAYAGG's array of the items' JSON texts, or
// JSON_OBJECTAGG's object merging the items' one-member objects (the
// last value of a repeated key wins).
func jsonAggText(f sql.AggFunc, items []gcItem) string {
	if f == sql.AggJSONArrayAgg {
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = it.s
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	obj := &mysqljson.Object{}
	for _, it := range items {
		v, err := mysqljson.Parse(it.s)
		if err != nil {
			raise(err)
		}
		o := v.(*mysqljson.Object)
		for k, key := range o.Keys {
			obj.Set(key, o.Vals[k])
		}
	}
	return mysqljson.Format(obj)
}

// less orders by the ORDER BY keys (NULL first ascending, as MySQL), then
// by arrival.
func (a *groupConcatAcc) less(x, y gcItem) bool {
	for i, k := range a.e.Order {
		c := compareVals(x.keys[i], y.keys[i], k.Expr.Type())
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
	}
	if x.morsel != y.morsel {
		return x.morsel < y.morsel
	}
	return x.row < y.row
}

func compareVals(x, y val, t columnar.Type) int {
	switch {
	case x.null || y.null:
		return cmpOrdered(b2i64(!x.null), b2i64(!y.null))
	case t.ID == columnar.String:
		return strings.Compare(x.s, y.s)
	case t.ID == columnar.Float64:
		return cmpOrdered(x.f, y.f)
	}
	return cmpOrdered(orderedInt64(t, x.i), orderedInt64(t, y.i))
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// stringColumn builds a VARCHAR column of vals (NULL where !has).
func stringColumn(vals []string, has []bool) *columnar.Column {
	var present []string
	for i, s := range vals {
		if has[i] {
			present = append(present, s)
		}
	}
	d := columnar.BuildDictionary(present)
	col := newColumn(columnar.TString, len(vals), true)
	col.Dict = d
	for i, s := range vals {
		if !has[i] {
			col.SetNull(i)
			continue
		}
		col.SetValid(i)
		col.I32[i], _ = d.Lookup(s)
	}
	return dropValidity(col)
}
