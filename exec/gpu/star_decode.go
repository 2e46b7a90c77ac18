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
// Its row list lives in s (nil: allocated).
func decodeStar(q *starQuery, outs []starOutput, dims []*dimRun, fkeys []factKey, tab groupRows, s *hostScratch) (*exec.Result, error) {
	// rows are the table rows of the output's groups.
	var rows []int64
	switch {
	case len(q.keys) == 0:
		rows = []int64{0}
	case tab.compact:
		rows = s.rowList(int(tab.rows()))
		for i := range rows {
			rows[i] = int64(i)
		}
	default:
		// Counted first: one allocation of the right size.
		n := 0
		for i := int64(0); i < tab.rows(); i++ {
			if tab.words[i*tab.W] != 0 {
				n++
			}
		}
		rows = s.rowList(n)[:0]
		for i := int64(0); i < tab.rows(); i++ {
			if tab.words[i*tab.W] != 0 {
				rows = append(rows, i)
			}
		}
	}
	n := len(rows)
	res := &exec.Result{Rows: n}
	schema := q.agg.Out
	for _, c := range schema {
		res.Names = append(res.Names, c.Name)
	}
	// Group keys.
	sizes := make([]int64, 0, len(dims)+len(fkeys))
	for _, dr := range dims {
		sizes = append(sizes, dr.k)
	}
	for _, fk := range fkeys {
		sizes = append(sizes, fk.size)
	}
	keyCols := make([]*columnar.Column, len(q.keys))
	decoders := make([]keyDecoder, len(q.keys))
	for ki, k := range q.keys {
		var src *columnar.Column
		if k.dim >= 0 {
			dm := q.dims[k.dim]
			src = dm.scan.Table.Columns[dm.gcols[k.j]]
		} else {
			src = q.fact.Table.Columns[q.nFact[k.j]]
		}
		keyCols[ki] = columnar.NewColumnIn(columnar.HeapAllocator, schema[ki].Type, n, src.Valid != nil)
		keyCols[ki].Dict = src.Dict
		decoders[ki] = newKeyDecoder(k, dims, fkeys)
	}
	digits := newGroupDigits(sizes)
	for row, i := range rows {
		digits.moveTo(tab.slot(i))
		for ki := range decoders {
			kd, col := &decoders[ki], keyCols[ki]
			v, null := kd.value(digits.digits[kd.comp])
			if null {
				col.SetNull(row)
				continue
			}
			if col.Valid != nil {
				col.SetValid(row)
			}
			setInt(col, row, v)
		}
	}
	res.Columns = append(res.Columns, keyCols...)
	// Aggregates.
	for oi, o := range outs {
		t := schema[len(q.keys)+oi].Type
		col := columnar.NewColumnIn(columnar.HeapAllocator, t, n, true)
		if o.ae.Arg != nil {
			if r, ok := colRefUnder(o.ae.Arg); ok && t.ID == columnar.String {
				col.Dict = r.Col.Dict
			}
		}
		a := q.aggs[o.slot]
		for row, i := range rows {
			words := tab.at(i)
			cnt := words[0]
			if o.countSlot >= 0 {
				cnt = words[1+o.countSlot]
			}
			v := words[1+o.slot]
			switch {
			case o.ae.Func == sql.AggCountStar || o.ae.Func == sql.AggCount:
				setInt(col, row, int64(v))
			case cnt == 0:
				col.SetNull(row)
				continue
			case o.ae.Func == sql.AggAvg:
				if a.isFloat || t.ID == columnar.Float64 {
					sum := math.Float64frombits(v)
					if !a.isFloat {
						sum = float64(int64(v))
					}
					col.F64[row] = sum / float64(cnt)
				} else {
					argScale := 0
					if o.ae.Arg.Type().ID == columnar.Decimal {
						argScale = o.ae.Arg.Type().Scale
					}
					setInt(col, row, avgScaled(int64(v), int64(cnt), t.Scale-argScale))
				}
			case a.isFloat:
				col.F64[row] = math.Float64frombits(v)
			default:
				setInt(col, row, int64(v))
			}
			col.SetValid(row)
		}
		res.Columns = append(res.Columns, col)
	}
	return res, nil
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
