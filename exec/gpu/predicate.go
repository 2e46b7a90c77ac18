//go:build cuda

package gpu

import (
	"fmt"
	"math"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A scan predicate reaches the kernels as one of three shapes, chosen here
// once per query on the host:
//   - an inclusive integer range (a conjunction of comparisons of the column
//     with constants: BETWEEN, <, >=, =), or a float range;
//   - a bitmap over the column's value domain [min, max] (from the column's
//     statistics), for any other predicate of one column whose domain is
//     small: dictionary codes (string =, IN, LIKE, ranges arrive as CodeSet,
//     already a bitmap), dates, small integers. The predicate is evaluated
//     once per domain value, not once per row ("evaluate on the dictionary",
//     DESIGN.md), with SQL three-valued logic; NULL's result is nullPass.
//   - anything else is not supported by the fused kernels yet.

// domainLimit bounds the value domains turned into bitmaps (128 KiB).
const domainLimit = 1 << 20

// compilePred turns conjunct e, whose every column reference reads column
// c (lo..hi its non-NULL value range), into a kernel predicate; set is the
// bitmap to upload for set predicates.
func compilePred(e sql.Expr, c *devColumn, t columnar.Type) (p predParam, set []uint32, err error) {
	p.Col = c.view()
	// IS [NOT] NULL of the column itself: a test of the validity bit only,
	// as an empty range (IS NULL: NULL passes) or its complement.
	if x, ok := e.(*sql.IsNull); ok && isPlainColumn(x.E) {
		if c.isFloat {
			p.Kind, p.FLo, p.FHi = predFRange, math.Inf(1), math.Inf(-1)
		} else {
			p.Kind, p.Lo, p.Hi = predRange, 1, 0
		}
		if x.Negated {
			p.Negate = 1
		} else {
			p.NullPass = 1
		}
		return p, nil, nil
	}
	// col <> k and NOT (range): a negated range (NULL still fails).
	if lo, hi, ok := negatedRange(e); ok && !c.isFloat {
		p.Kind, p.Lo, p.Hi, p.Negate = predRange, lo, hi, 1
		return p, nil, nil
	}
	if c.isFloat {
		lo, hi, loIncl, hiIncl, ok := floatRange(e)
		if !ok {
			return p, nil, fmt.Errorf("gpu: predicate %s on a DOUBLE column is not supported on the GPU yet", e)
		}
		p.Kind, p.FLo, p.FHi = predFRange, lo, hi
		p.FLoIncl, p.FHiIncl = b2i(loIncl), b2i(hiIncl)
		return p, nil, nil
	}
	if lo, hi, ok := intRange(e); ok {
		p.Kind, p.Lo, p.Hi = predRange, lo, hi
		return p, nil, nil
	}
	if c.n == 0 || c.max < c.min {
		// No non-NULL values: only NULL's result matters.
		r, err := evalOne(e, hval{null: true})
		if err != nil {
			return p, nil, err
		}
		p.Kind, p.Lo, p.Hi, p.NullPass = predRange, 1, 0, b2i(r.truth())
		return p, nil, nil
	}
	span := c.max - c.min + 1
	if span <= 0 || span > domainLimit {
		return p, nil, fmt.Errorf("gpu: predicate %s over a domain of %d values is not supported on the GPU yet", e, span)
	}
	set = make([]uint32, (span+31)/32)
	for v := c.min; v <= c.max; v++ {
		r, err := evalOne(e, hval{i: v, f: float64(v)})
		if err != nil {
			return p, nil, err
		}
		if r.truth() {
			set[(v-c.min)>>5] |= 1 << ((v - c.min) & 31)
		}
	}
	r, err := evalOne(e, hval{null: true})
	if err != nil {
		return p, nil, err
	}
	p.Kind, p.Lo, p.SetLen, p.NullPass = predSet, c.min, span, b2i(r.truth())
	return p, set, nil
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// intRange recognizes a conjunction of integer comparisons of the column
// with constants (both sides of one physical integer domain) as [lo, hi].
func intRange(e sql.Expr) (lo, hi int64, ok bool) {
	switch x := e.(type) {
	case *sql.Binary:
		if x.Op == sql.OpAnd {
			l1, h1, ok1 := intRange(x.L)
			l2, h2, ok2 := intRange(x.R)
			return max(l1, l2), min(h1, h2), ok1 && ok2
		}
		op, k, ok := colConstCmp(x)
		if !ok || k.T.Physical() == columnar.PhysFloat64 {
			return 0, 0, false
		}
		v := k.I
		switch op {
		case sql.OpEQ:
			return v, v, true
		case sql.OpLT:
			if v == math.MinInt64 {
				return 1, 0, true
			}
			return math.MinInt64, v - 1, true
		case sql.OpLE:
			return math.MinInt64, v, true
		case sql.OpGT:
			if v == math.MaxInt64 {
				return 1, 0, true
			}
			return v + 1, math.MaxInt64, true
		case sql.OpGE:
			return v, math.MaxInt64, true
		}
	}
	return 0, 0, false
}

// floatRange is intRange for DOUBLE columns.
func floatRange(e sql.Expr) (lo, hi float64, loIncl, hiIncl, ok bool) {
	x, isBin := e.(*sql.Binary)
	if !isBin {
		return
	}
	if x.Op == sql.OpAnd {
		l1, h1, li1, hi1, ok1 := floatRange(x.L)
		l2, h2, li2, hi2, ok2 := floatRange(x.R)
		if !ok1 || !ok2 {
			return
		}
		lo, loIncl = l1, li1
		if l2 > l1 || (l2 == l1 && !li2) {
			lo, loIncl = l2, li2
		}
		hi, hiIncl = h1, hi1
		if h2 < h1 || (h2 == h1 && !hi2) {
			hi, hiIncl = h2, hi2
		}
		return lo, hi, loIncl, hiIncl, true
	}
	op, k, ok2 := colConstCmp(x)
	if !ok2 || k.T.ID != columnar.Float64 {
		return
	}
	inf := math.Inf(1)
	switch op {
	case sql.OpEQ:
		return k.F, k.F, true, true, true
	case sql.OpLT:
		return -inf, k.F, true, false, true
	case sql.OpLE:
		return -inf, k.F, true, true, true
	case sql.OpGT:
		return k.F, inf, false, true, true
	case sql.OpGE:
		return k.F, inf, true, true, true
	}
	return
}

// colConstCmp matches column <op> constant (either order; the operator is
// flipped to read column-first). The column may sit under casts that keep
// its values (integer widening).
func colConstCmp(x *sql.Binary) (sql.BinOp, *sql.Const, bool) {
	l, r, op := x.L, x.R, x.Op
	if _, ok := l.(*sql.Const); ok {
		l, r = r, l
		switch op {
		case sql.OpLT:
			op = sql.OpGT
		case sql.OpLE:
			op = sql.OpGE
		case sql.OpGT:
			op = sql.OpLT
		case sql.OpGE:
			op = sql.OpLE
		}
	}
	k, ok := r.(*sql.Const)
	if !ok || k.Null || !isPlainColumn(l) {
		return 0, nil, false
	}
	switch op {
	case sql.OpEQ, sql.OpLT, sql.OpLE, sql.OpGT, sql.OpGE:
		if l.Type().Physical() == columnar.PhysFloat64 && k.T.ID != columnar.Float64 {
			return 0, nil, false
		}
		if l.Type().ID == columnar.Decimal && (k.T.ID != columnar.Decimal || k.T.Scale != l.Type().Scale) {
			return 0, nil, false
		}
		return op, k, true
	}
	return 0, nil, false
}

// isPlainColumn reports whether e is a column reference, possibly under
// casts that do not change its values (integer to wider integer, DOUBLE to
// DOUBLE).
func isPlainColumn(e sql.Expr) bool {
	for {
		switch x := e.(type) {
		case *sql.ColRef:
			return true
		case *sql.Cast:
			if !valuePreservingCast(x.E.Type(), x.T) {
				return false
			}
			e = x.E
		default:
			return false
		}
	}
}

func valuePreservingCast(from, to columnar.Type) bool { return planner.ValuePreservingCast(from, to) }

// hval is a host-side scalar for evaluating a one-column predicate over the
// column's domain: an integer (codes, dates, scaled decimals), a double, or
// NULL.
type hval struct {
	null bool
	isF  bool
	i    int64
	f    float64
}

func (v hval) truth() bool { return !v.null && (v.isF && v.f != 0 || !v.isF && v.i != 0) }

func hbool(b bool) hval {
	if b {
		return hval{i: 1}
	}
	return hval{}
}

// evalOne evaluates e with every column reference reading v.
func evalOne(e sql.Expr, v hval) (hval, error) {
	switch x := e.(type) {
	case *sql.ColRef:
		if x.Type().Physical() == columnar.PhysFloat64 {
			return hval{null: v.null, isF: true, f: v.f}, nil
		}
		return v, nil
	case *sql.Const:
		if x.Null {
			return hval{null: true}, nil
		}
		switch x.T.Physical() {
		case columnar.PhysFloat64:
			return hval{isF: true, f: x.F}, nil
		}
		if x.T.ID == columnar.String {
			break
		}
		return hval{i: x.I}, nil
	case *sql.Cast:
		a, err := evalOne(x.E, v)
		if err != nil || a.null {
			return hval{null: true}, err
		}
		from := x.E.Type()
		switch {
		case valuePreservingCast(from, x.T):
			return a, nil
		case x.T.ID == columnar.Decimal && (from.ID == columnar.Int32 || from.ID == columnar.Int64) && x.T.Scale < len(columnar.Pow10):
			return hval{i: a.i * columnar.Pow10[x.T.Scale]}, nil
		case x.T.ID == columnar.Decimal && from.ID == columnar.Decimal && x.T.Scale > from.Scale && x.T.Scale-from.Scale < len(columnar.Pow10):
			return hval{i: a.i * columnar.Pow10[x.T.Scale-from.Scale]}, nil
		case x.T.ID == columnar.Float64 && !a.isF:
			f := float64(a.i)
			if from.ID == columnar.Decimal {
				f /= float64(columnar.Pow10[from.Scale])
			}
			return hval{isF: true, f: f}, nil
		}
	case *sql.Not:
		a, err := evalOne(x.E, v)
		if err != nil || a.null {
			return hval{null: true}, err
		}
		return hbool(!a.truth()), nil
	case *sql.IsNull:
		a, err := evalOne(x.E, v)
		if err != nil {
			return a, err
		}
		return hbool(a.null != x.Negated), nil
	case *sql.CodeSet:
		if v.null {
			return hval{null: true}, nil
		}
		return hbool(v.i >= 0 && v.i < int64(len(x.Match)) && x.Match[v.i]), nil
	case *sql.InList:
		a, err := evalOne(x.E, v)
		if err != nil || a.null {
			return hval{null: true}, err
		}
		sawNull := false
		for _, it := range x.List {
			b, err := evalOne(it, v)
			if err != nil {
				return b, err
			}
			if b.null {
				sawNull = true
				continue
			}
			if cmpH(a, b) == 0 {
				return hbool(!x.Negated), nil
			}
		}
		if sawNull {
			return hval{null: true}, nil
		}
		return hbool(x.Negated), nil
	case *sql.Binary:
		switch x.Op {
		case sql.OpAnd, sql.OpOr:
			a, err := evalOne(x.L, v)
			if err != nil {
				return a, err
			}
			b, err := evalOne(x.R, v)
			if err != nil {
				return b, err
			}
			if x.Op == sql.OpAnd {
				if !a.null && !a.truth() || !b.null && !b.truth() {
					return hbool(false), nil
				}
			} else if !a.null && a.truth() || !b.null && b.truth() {
				return hbool(true), nil
			}
			if a.null || b.null {
				return hval{null: true}, nil
			}
			return hbool(x.Op == sql.OpAnd), nil
		case sql.OpEQ, sql.OpNE, sql.OpLT, sql.OpLE, sql.OpGT, sql.OpGE:
			if x.L.Type().ID == columnar.String || x.R.Type().ID == columnar.String {
				break
			}
			a, err := evalOne(x.L, v)
			if err != nil {
				return a, err
			}
			b, err := evalOne(x.R, v)
			if err != nil || a.null || b.null {
				return hval{null: true}, err
			}
			c := cmpH(a, b)
			switch x.Op {
			case sql.OpEQ:
				return hbool(c == 0), nil
			case sql.OpNE:
				return hbool(c != 0), nil
			case sql.OpLT:
				return hbool(c < 0), nil
			case sql.OpLE:
				return hbool(c <= 0), nil
			case sql.OpGT:
				return hbool(c > 0), nil
			default:
				return hbool(c >= 0), nil
			}
		}
	}
	return hval{}, fmt.Errorf("gpu: predicate %s is not supported on the GPU yet", e)
}

func cmpH(a, b hval) int {
	if a.isF || b.isF {
		x, y := a.f, b.f
		if !a.isF {
			x = float64(a.i)
		}
		if !b.isF {
			y = float64(b.i)
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	switch {
	case a.i < b.i:
		return -1
	case a.i > b.i:
		return 1
	}
	return 0
}

// negatedRange recognizes column <> constant and NOT(range) as the
// complement of an integer range.
func negatedRange(e sql.Expr) (lo, hi int64, ok bool) {
	switch x := e.(type) {
	case *sql.Not:
		return intRange(x.E)
	case *sql.Binary:
		if x.Op != sql.OpNE {
			return 0, 0, false
		}
		eq := *x
		eq.Op = sql.OpEQ
		return intRange(&eq)
	}
	return 0, 0, false
}
