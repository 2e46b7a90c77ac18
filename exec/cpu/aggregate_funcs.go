package cpu

import (
	"math"
	"math/big"
	"math/bits"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// accumulator keeps one aggregate's state per group. gids[k] is the group of
// the row at sel[k] (nil: every row is in group 0). Group row counts (for
// COUNT(*), and to tell an all-NULL group of SUM/AVG/MIN/MAX) are kept by the
// aggregate itself and passed to result.
type accumulator interface {
	grow(n int)
	update(gids []int32, v *vec, sel []int32)
	// merge folds o into the receiver; o's group g goes to m[g] (m nil:
	// the same group).
	merge(o accumulator, m []int32, n int)
	// result returns the aggregate of the listed groups.
	result(groups []int32, rowCount []int64) *columnar.Column
}

// slotMerger is an accumulator that can fold just the listed groups of o
// into the same groups of the receiver (a sparse merge of dense tables).
type slotMerger interface {
	mergeSlots(o accumulator, slots []int32)
}

func newAccumulator(a sql.AggExpr) accumulator {
	var argT columnar.Type
	if a.Arg != nil {
		argT = a.Arg.Type()
	}
	var acc accumulator
	switch wide := newWideAccumulator(a, argT); {
	case wide != nil:
		acc = wide
	case a.Func == sql.AggCountStar:
		acc = &countAcc{star: true}
	case a.Func == sql.AggCount:
		acc = &countAcc{}
	case a.Func == sql.AggSum, a.Func == sql.AggAvg:
		acc = &sumAcc{avg: a.Func == sql.AggAvg, argT: argT, t: a.T, float: argT.Physical() == columnar.PhysFloat64, expr: a}
	case a.Func == sql.AggMin, a.Func == sql.AggMax:
		switch argT.ID {
		case columnar.String:
			acc = &minMaxStrAcc{max: a.Func == sql.AggMax}
			if argT.JSON {
				acc = &minMaxJSONAcc{max: a.Func == sql.AggMax, t: argT}
			}
		case columnar.Vector:
			acc = &minMaxVecAcc{max: a.Func == sql.AggMax, t: argT}
		default:
			acc = &minMaxAcc{max: a.Func == sql.AggMax, t: argT, float: argT.Physical() == columnar.PhysFloat64}
		}
	default:
		acc = newMoreAccumulator(a)
	}
	if a.Distinct && a.Func != sql.AggCountStar {
		if s, ok := acc.(*sumAcc); ok {
			s.ownCount = true
		}
		return &distinctAcc{inner: acc, seen: map[distinctKey]struct{}{}}
	}
	return acc
}

func growTo[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	if cap(s) >= n {
		return s[:n]
	}
	out := make([]T, n, max(n, 2*cap(s)))
	copy(out, s)
	return out
}

func mapGroup(m []int32, g int) int {
	if m == nil {
		return g
	}
	return int(m[g])
}

// countAcc is COUNT(*) (the group's rows) or COUNT(x) (its non-NULL x).
type countAcc struct {
	star bool
	n    []int64
}

func (a *countAcc) grow(n int) {
	if !a.star {
		a.n = growTo(a.n, n)
	}
}

func (a *countAcc) update(gids []int32, v *vec, sel []int32) {
	if a.star {
		return
	}
	for k, p := range sel {
		if v.nulls != nil && v.nulls[p] {
			continue
		}
		if gids == nil {
			a.n[0]++
		} else {
			a.n[gids[k]]++
		}
	}
}

func (a *countAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*countAcc)
	if a.star {
		return
	}
	for g := 0; g < n; g++ {
		a.n[mapGroup(m, g)] += b.n[g]
	}
}

func (a *countAcc) mergeSlots(o accumulator, slots []int32) {
	b := o.(*countAcc)
	if a.star {
		return
	}
	for _, g := range slots {
		a.n[g] += b.n[g]
	}
}

func (a *countAcc) result(groups []int32, rc []int64) *columnar.Column {
	col := newColumn(columnar.TInt64, len(groups), false)
	for i, g := range groups {
		if a.star {
			col.I64[i] = rc[g]
		} else {
			col.I64[i] = a.n[g]
		}
	}
	return col
}

// sumAcc is SUM or AVG: a sum per group (a 128-bit integer in the
// argument's scale — s the low word, hi the high — or a double) and the
// count of NULL arguments, so that the non-NULL count is the group's rows
// minus it. 128 bits hold the sum of 2^64 BIGINTs, so no sum wraps; a SUM
// whose total leaves the result type's int64 is an out-of-range error
// (MySQL widens SUM of integers to DECIMAL(65); gpusql's SUM is BIGINT, or
// a decimal as a scaled int64), and AVG divides the exact total.
type sumAcc struct {
	avg, float bool
	argT, t    columnar.Type
	s, hi      []int64
	f          []float64
	nulls      []int64
	// ownCount: count the values fed in (under DISTINCT they are not the
	// group's rows).
	ownCount bool
	own      []int64
	expr     sql.AggExpr // named by the out-of-range error
}

func (a *sumAcc) grow(n int) {
	if a.float {
		a.f = growTo(a.f, n)
	} else {
		a.s = growTo(a.s, n)
		a.hi = growTo(a.hi, n)
	}
	a.nulls = growTo(a.nulls, n)
	if a.ownCount {
		a.own = growTo(a.own, n)
	}
}

func (a *sumAcc) update(gids []int32, v *vec, sel []int32) {
	if a.ownCount {
		for k := range sel {
			if gids == nil {
				a.own[0]++
			} else {
				a.own[gids[k]]++
			}
		}
	}
	if v.nulls != nil {
		for k, p := range sel {
			if v.nulls[p] {
				g := int32(0)
				if gids != nil {
					g = gids[k]
				}
				a.nulls[g]++
			}
		}
	}
	switch {
	case v.f64 != nil:
		sumKernel(a.f, gids, v.f64, v.nulls, sel)
	case v.i64 != nil:
		sum128Kernel(a.s, a.hi, gids, v.i64, v.nulls, sel)
	case v.i32 != nil:
		if gids == nil && v.nulls == nil {
			// At most batchSize int32 values: the batch's total fits int64.
			var t int64
			for _, p := range sel {
				t += int64(v.i32[p])
			}
			add128(&a.s[0], &a.hi[0], t)
			return
		}
		for k, p := range sel {
			if v.nulls != nil && v.nulls[p] {
				continue
			}
			g := int32(0)
			if gids != nil {
				g = gids[k]
			}
			add128(&a.s[g], &a.hi[g], int64(v.i32[p]))
		}
	}
}

// add128 adds v, sign-extended, to the 128-bit integer hi:lo.
func add128(lo, hi *int64, v int64) {
	l, c := bits.Add64(uint64(*lo), uint64(v), 0)
	*lo = int64(l)
	*hi += v>>63 + int64(c)
}

func sum128Kernel(lo, hi []int64, gids []int32, x []int64, nulls []bool, sel []int32) {
	switch {
	case gids == nil:
		l, h := uint64(lo[0]), hi[0]
		for _, p := range sel {
			v := x[p]
			if nulls != nil && nulls[p] {
				v = 0
			}
			var c uint64
			l, c = bits.Add64(l, uint64(v), 0)
			h += v>>63 + int64(c)
		}
		lo[0], hi[0] = int64(l), h
	case nulls == nil:
		for k, p := range sel {
			add128(&lo[gids[k]], &hi[gids[k]], x[p])
		}
	default:
		for k, p := range sel {
			if !nulls[p] {
				add128(&lo[gids[k]], &hi[gids[k]], x[p])
			}
		}
	}
}

func sumKernel(acc []float64, gids []int32, x []float64, nulls []bool, sel []int32) {
	switch {
	case gids == nil && nulls == nil:
		var t float64
		for _, p := range sel {
			t += x[p]
		}
		acc[0] += t
	case gids == nil:
		var t float64
		for _, p := range sel {
			if !nulls[p] {
				t += x[p]
			}
		}
		acc[0] += t
	case nulls == nil:
		for k, p := range sel {
			acc[gids[k]] += x[p]
		}
	default:
		for k, p := range sel {
			if !nulls[p] {
				acc[gids[k]] += x[p]
			}
		}
	}
}

func (a *sumAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*sumAcc)
	for g := 0; g < n; g++ {
		t := mapGroup(m, g)
		a.nulls[t] += b.nulls[g]
		if a.float {
			a.f[t] += b.f[g]
		} else {
			// b's low word is unsigned: its sign lives in b.hi.
			l, c := bits.Add64(uint64(a.s[t]), uint64(b.s[g]), 0)
			a.s[t] = int64(l)
			a.hi[t] += b.hi[g] + int64(c)
		}
	}
}

func (a *sumAcc) mergeSlots(o accumulator, slots []int32) {
	b := o.(*sumAcc)
	for _, g := range slots {
		a.nulls[g] += b.nulls[g]
		if a.ownCount {
			a.own[g] += b.own[g]
		}
		if a.float {
			a.f[g] += b.f[g]
			continue
		}
		l, c := bits.Add64(uint64(a.s[g]), uint64(b.s[g]), 0)
		a.s[g] = int64(l)
		a.hi[g] += b.hi[g] + int64(c)
	}
}

func (a *sumAcc) result(groups []int32, rc []int64) *columnar.Column {
	col := newColumn(a.t, len(groups), true)
	s := a.argT.DecimalScale()
	for i, g := range groups {
		n := rc[g] - a.nulls[g]
		if a.ownCount {
			n = a.own[g]
		}
		if n <= 0 {
			col.SetNull(i)
			continue
		}
		col.SetValid(i)
		if a.float {
			a.floatResult(col, i, a.f[g], n)
			continue
		}
		if a.t.ID == columnar.Float64 {
			a.floatResult(col, i, float128(a.s[g], a.hi[g])/math.Pow10(s), n)
			continue
		}
		v, ok := a.exactResult(a.s[g], a.hi[g], n, s)
		if !ok {
			kind := "BIGINT"
			if a.t.ID == columnar.Decimal {
				kind = "DECIMAL"
			}
			raise(&exec.ExactOverflowError{Msg: outOfRange(kind, a.expr).Error()})
		}
		putColInt(col, i, v)
	}
	return dropValidity(col)
}

// floatResult stores a double sum f of n values: the sum, its average, or
// (an integer SUM fed doubles) the sum rounded.
func (a *sumAcc) floatResult(col *columnar.Column, i int, f float64, n int64) {
	switch {
	case a.avg:
		f /= float64(n)
	case a.t.ID != columnar.Float64:
		putColInt(col, i, int64(math.Round(f)))
		return
	}
	col.F64[i] = f
}

// exactResult is the SUM (rescaled from the argument's scale s to the
// result's) or AVG of the 128-bit total hi:lo of n values, rounded half
// away from zero; ok is false when it does not fit the result's int64.
func (a *sumAcc) exactResult(lo, hi, n int64, s int) (int64, bool) {
	ts := a.t.DecimalScale()
	if !a.avg {
		n = 1
	}
	// An AVG at MySQL's digits is cut there, as MySQL's division is
	// (sql/division_digits.go); one at fewer digits (AVG OVER) is rounded.
	cut := a.avg && ts == sql.DivisionScale(s, 0)
	div := mulDivRound
	if cut {
		div = mulDivTrunc
	}
	if hi == lo>>63 && ts >= s {
		return div(lo, pow10(ts-s), n)
	}
	if hi == lo>>63 {
		return div(lo, 1, n*pow10(s-ts))
	}
	// The total left int64: rare, exact in big integers.
	num := new(big.Int).Lsh(big.NewInt(hi), 64)
	num.Add(num, new(big.Int).SetUint64(uint64(lo)))
	den := big.NewInt(n)
	if ts >= s {
		num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ts-s)), nil))
	} else {
		den.Mul(den, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s-ts)), nil))
	}
	q := bigDivRound(num, den)
	if cut {
		q = num.Quo(num, den)
	}
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}

// bigDivRound is num/den (den > 0) rounded half away from zero.
func bigDivRound(num, den *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Abs(r).Lsh(r, 1).Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// float128 converts the 128-bit integer hi:lo to the nearest double.
func float128(lo, hi int64) float64 {
	return float64(hi)*(1<<64) + float64(uint64(lo))
}

func putColInt(col *columnar.Column, i int, v int64) {
	switch {
	case col.I64 != nil:
		col.I64[i] = v
	case col.I32 != nil:
		col.I32[i] = int32(v)
	default:
		col.F64[i] = float64(v)
	}
}

// dropValidity removes an all-valid bitmap.
func dropValidity(col *columnar.Column) *columnar.Column {
	if col.Valid == nil {
		return col
	}
	for i := 0; i < col.Len; i++ {
		if col.IsNull(i) {
			return col
		}
	}
	col.Valid = nil
	return col
}

// minMaxAcc is MIN or MAX of numbers (int64 domain or double).
type minMaxAcc struct {
	max, float bool
	t          columnar.Type
	i          []int64
	f          []float64
	has        []bool
}

func (a *minMaxAcc) grow(n int) {
	if a.float {
		a.f = growTo(a.f, n)
	} else {
		a.i = growTo(a.i, n)
	}
	a.has = growTo(a.has, n)
}

func (a *minMaxAcc) put(g int, iv int64, fv float64) {
	if a.float {
		if !a.has[g] || (a.max && fv > a.f[g]) || (!a.max && fv < a.f[g]) {
			a.f[g] = fv
		}
	} else if !a.has[g] || (a.max && iv > a.i[g]) || (!a.max && iv < a.i[g]) {
		a.i[g] = iv
	}
	a.has[g] = true
}

func (a *minMaxAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.nulls != nil && v.nulls[p] {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		if a.float {
			a.put(g, 0, v.f64[p])
		} else {
			a.put(g, orderedInt64(a.t, v.int64At(p)), 0)
		}
	}
}

func (a *minMaxAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*minMaxAcc)
	for g, h := range b.has[:n] {
		if !h {
			continue
		}
		t := mapGroup(m, g)
		if a.float {
			a.put(t, 0, b.f[g])
		} else {
			a.put(t, b.i[g], 0)
		}
	}
}

func (a *minMaxAcc) result(groups []int32, rc []int64) *columnar.Column {
	col := newColumn(a.t, len(groups), true)
	for i, g := range groups {
		if !a.has[g] {
			col.SetNull(i)
			continue
		}
		col.SetValid(i)
		if a.float {
			col.F64[i] = a.f[g]
		} else {
			putColInt(col, i, orderedInt64(a.t, a.i[g])) // its own inverse
		}
	}
	return dropValidity(col)
}

// minMaxStrAcc is MIN or MAX of strings.
type minMaxStrAcc struct {
	max bool
	s   []string
	has []bool
}

func (a *minMaxStrAcc) grow(n int) {
	a.s = growTo(a.s, n)
	a.has = growTo(a.has, n)
}

func (a *minMaxStrAcc) put(g int, s string) {
	if !a.has[g] || (a.max && s > a.s[g]) || (!a.max && s < a.s[g]) {
		a.s[g] = s
	}
	a.has[g] = true
}

func (a *minMaxStrAcc) update(gids []int32, v *vec, sel []int32) {
	for k, p := range sel {
		if v.nulls != nil && v.nulls[p] {
			continue
		}
		g := 0
		if gids != nil {
			g = int(gids[k])
		}
		a.put(g, v.stringAt(p))
	}
}

func (a *minMaxStrAcc) merge(o accumulator, m []int32, n int) {
	b := o.(*minMaxStrAcc)
	for g, h := range b.has[:n] {
		if h {
			a.put(mapGroup(m, g), b.s[g])
		}
	}
}

func (a *minMaxStrAcc) result(groups []int32, rc []int64) *columnar.Column {
	var vals []string
	for _, g := range groups {
		if a.has[g] {
			vals = append(vals, a.s[g])
		}
	}
	d := columnar.BuildDictionary(vals)
	col := newColumn(columnar.TString, len(groups), true)
	col.Dict = d
	for i, g := range groups {
		if !a.has[g] {
			col.SetNull(i)
			continue
		}
		col.SetValid(i)
		col.I32[i], _ = d.Lookup(a.s[g])
	}
	return dropValidity(col)
}

// distinctAcc feeds its inner aggregate only the first occurrence of each
// (group, value). It is only used with one shared aggregate state (no
// merging), see aggSink.
type distinctAcc struct {
	inner accumulator
	seen  map[distinctKey]struct{}
	gbuf  []int32
	sbuf  []int32
	// held is the bytes of seen (an entry, its map slot, its string),
	// charged to the memory limit with the aggregate's state.
	held int64
}

// distinctEntryBytes is a seen entry's key and map overhead.
const distinctEntryBytes = 64

func (a *distinctAcc) heldBytes() int64 {
	n := a.held
	if h, ok := a.inner.(interface{ heldBytes() int64 }); ok {
		n += h.heldBytes()
	}
	return n
}

type distinctKey struct {
	g int32
	w int64
	s string
}

func (a *distinctAcc) grow(n int) { a.inner.grow(n) }

// setKeys passes GROUP_CONCAT's ORDER BY keys through.
func (a *distinctAcc) setKeys(keys []*vec, morsel int) {
	if k, ok := a.inner.(keyedAccumulator); ok {
		k.setKeys(keys, morsel)
	}
}

// keyedAccumulator is an accumulator that reads more than its argument
// (GROUP_CONCAT's ORDER BY keys, and where each row came from).
type keyedAccumulator interface {
	setKeys(keys []*vec, morsel int)
}

func (a *distinctAcc) update(gids []int32, v *vec, sel []int32) {
	gs, ss := a.gbuf[:0], a.sbuf[:0]
	for k, p := range sel {
		if v.nulls != nil && v.nulls[p] {
			continue
		}
		key := distinctKey{}
		if gids != nil {
			key.g = gids[k]
		}
		switch {
		case v.t.ID == columnar.String:
			key.s = v.stringAt(p)
		case v.t.ID == columnar.Vector:
			key.s = vectorKeyText(v.vecs[p])
		case v.w != nil:
			key.s = wideKeyText(&v.w[p])
		case v.f64 != nil:
			key.w = floatKey(v.f64[p])
		default:
			key.w = v.int64At(p)
		}
		if _, ok := a.seen[key]; ok {
			continue
		}
		a.seen[key] = struct{}{}
		a.held += distinctEntryBytes + int64(len(key.s))
		gs = append(gs, key.g)
		ss = append(ss, p)
	}
	a.gbuf, a.sbuf = gs, ss
	a.inner.update(gs, v, ss)
}

func (a *distinctAcc) merge(o accumulator, m []int32, n int) {
	panic("distinct aggregates are not merged")
}

func (a *distinctAcc) result(groups []int32, rc []int64) *columnar.Column {
	// COUNT(DISTINCT x) and friends count only the values fed through.
	return a.inner.result(groups, rc)
}
