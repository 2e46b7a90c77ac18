//go:build cuda

package gpu

import (
	"math"
	"math/big"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// factKey is the dense domain of a fact-table group column.
type factKey struct {
	lo, size int64
	nullable bool
}

// decodeStar turns the group table into the aggregate's output: one row
// per non-empty group (exactly one without GROUP BY), group columns first.
// It works a column at a time, each in one typed loop over the rows (the
// result is small, but a GPU machine's host spent tens of microseconds a
// query decoding row by row through per-value type switches). Its buffers
// come from s (nil: allocated).
func decodeStar(q *starQuery, outs []starOutput, dims []*dimRun, fkeys []factKey, tab groupRows, s *hostScratch) (*exec.Result, error) {
	slots, bases := groupSlots(q, tab, s)
	n := len(slots)
	res := &exec.Result{Rows: n}
	schema := q.agg.Out
	for _, c := range schema {
		res.Names = append(res.Names, c.Name)
	}
	if len(q.keys) > 0 {
		digits := slotDigits(componentSizes(dims, fkeys), q.slotOrder(), slots, s)
		vals := s.values(n)
		for ki, k := range q.keys {
			var src *columnar.Column
			if k.dim >= 0 {
				dm := q.dims[k.dim]
				src = dm.scan.Table.Columns[dm.gcols[k.j]]
			} else {
				src = q.fact.Table.Columns[q.nFact[k.j]]
			}
			col := columnar.NewColumnIn(columnar.HeapAllocator, schema[ki].Type, n, src.Valid != nil)
			col.Dict = src.Dict
			kd := newKeyDecoder(k, dims, fkeys)
			kd.fill(col, vals, digits[kd.comp])
			res.Columns = append(res.Columns, col)
		}
	}
	for oi, o := range outs {
		t := schema[len(q.keys)+oi].Type
		col := columnar.NewColumnIn(columnar.HeapAllocator, t, n, true)
		if o.ae.Arg != nil {
			if r, ok := colRefUnder(o.ae.Arg); ok && t.ID == columnar.String {
				col.Dict = r.Col.Dict
			}
		}
		decodeAggregate(col, o, q.aggs[o.slot], tab.words, bases)
		res.Columns = append(res.Columns, col)
	}
	return res, nil
}

// groupSlots lists the slots of the output's groups in increasing order
// and where each one's words start in tab.
func groupSlots(q *starQuery, tab groupRows, s *hostScratch) (slots, bases []int64) {
	switch {
	case len(q.keys) == 0:
		base := int64(0)
		if tab.compact {
			base = 1
		}
		return []int64{0}, []int64{base}
	case tab.compact:
		n := int(tab.rows())
		slots, bases = s.rowList(n), s.baseList(n)
		stride := tab.W + 1
		for i := range slots {
			slots[i] = int64(tab.words[int64(i)*stride])
			bases[i] = int64(i)*stride + 1
		}
		return slots, bases
	}
	rows, W := tab.rows(), tab.W
	n := 0
	for i := int64(0); i < rows; i++ {
		if tab.words[i*W] != 0 {
			n++
		}
	}
	slots, bases = s.rowList(n)[:0], s.baseList(n)[:0]
	for i := int64(0); i < rows; i++ {
		if tab.words[i*W] != 0 {
			slots, bases = append(slots, i), append(bases, i*W)
		}
	}
	return slots, bases
}

// storeInts writes vals into an integer-physical column.
func storeInts(c *columnar.Column, vals []int64) {
	switch {
	case c.I32 != nil:
		for i, v := range vals {
			c.I32[i] = int32(v)
		}
	case c.I64 != nil:
		copy(c.I64, vals)
	case c.F64 != nil:
		for i, v := range vals {
			c.F64[i] = float64(v)
		}
	}
}

// allValid marks the first n rows of c not NULL.
func allValid(c *columnar.Column, n int) {
	full := n / 64
	for w := 0; w < full; w++ {
		c.Valid[w] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		c.Valid[full] = 1<<uint(r) - 1
	}
}

// decodeAggregate fills col with output aggregate o of each group, whose
// words start at bases: the kernel aggregate's word, NULL where the
// aggregate counted no value, AVG as its sum over its count.
func decodeAggregate(col *columnar.Column, o starOutput, a starAgg, words []uint64, bases []int64) {
	allValid(col, len(bases))
	val, cnt := int64(1+o.slot), int64(0)
	if o.countSlot >= 0 {
		cnt = int64(1 + o.countSlot)
	}
	fn := o.ae.Func
	if fn == sql.AggCountStar || fn == sql.AggCount {
		if col.I64 != nil {
			for i, b := range bases {
				col.I64[i] = int64(words[b+val])
			}
			return
		}
		for i, b := range bases {
			setInt(col, i, int64(words[b+val]))
		}
		return
	}
	for i, b := range bases {
		if words[b+cnt] == 0 {
			col.SetNull(i)
		}
	}
	switch {
	case fn == sql.AggAvg:
		decodeAverage(col, o, a, words, bases, val, cnt)
	case a.isFloat:
		for i, b := range bases {
			col.F64[i] = math.Float64frombits(words[b+val])
		}
	case col.I64 != nil:
		for i, b := range bases {
			col.I64[i] = int64(words[b+val])
		}
	default:
		for i, b := range bases {
			setInt(col, i, int64(words[b+val]))
		}
	}
}

// decodeAverage fills col with each group's sum over its count (rows
// already NULL where the count is 0 are left alone).
func decodeAverage(col *columnar.Column, o starOutput, a starAgg, words []uint64, bases []int64, val, cnt int64) {
	t := col.Type
	argScale := 0
	if o.ae.Arg.Type().ID == columnar.Decimal {
		argScale = o.ae.Arg.Type().Scale
	}
	for i, b := range bases {
		c := words[b+cnt]
		if c == 0 {
			continue
		}
		v := words[b+val]
		if a.isFloat || t.ID == columnar.Float64 {
			sum := math.Float64frombits(v)
			if !a.isFloat {
				sum = float64(int64(v))
			}
			col.F64[i] = sum / float64(c)
			continue
		}
		setInt(col, i, avgScaled(int64(v), int64(c), t.Scale-argScale))
	}
}

// avgScaled is sum/count scaled up by 10^up, rounded half away from zero
// (count > 0). It divides in int64 when sum·10^up fits one, as it does
// for all but extreme sums, and in big integers otherwise.
func avgScaled(sum, count int64, up int) int64 {
	if up >= 0 && up <= 18 && count > 0 {
		if p := pow10(up); sum <= math.MaxInt64/p && sum >= -(math.MaxInt64/p) {
			num := sum * p
			q, m := num/count, num%count
			if m < 0 {
				m = -m
			}
			if m >= count-m { // 2|m| >= count, without overflowing
				if num < 0 {
					q--
				} else {
					q++
				}
			}
			return q
		}
	}
	return avgScaledBig(sum, count, up)
}

// avgScaledBig is avgScaled in big integers.
func avgScaledBig(sum, count int64, up int) int64 {
	num := big.NewInt(sum)
	if up > 0 {
		num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(up)), nil))
	}
	den := big.NewInt(count)
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	m.Abs(m).Lsh(m, 1)
	if m.Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q.Int64()
}

// setInt stores v into row i of an integer-physical column.
func setInt(c *columnar.Column, i int, v int64) {
	switch {
	case c.I32 != nil:
		c.I32[i] = int32(v)
	case c.I64 != nil:
		c.I64[i] = v
	case c.F64 != nil:
		c.F64[i] = float64(v)
	}
}
