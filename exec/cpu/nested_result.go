package cpu

import (
	"strings"

	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// nestedResult is what one run of a nested subquery leaves for the rows
// that share its arguments: the scalar value, the row count (EXISTS), and
// for ANY / ALL the rows to compare against, summarized for one column
// (distinct values, least and greatest, whether a NULL was among them) or
// kept whole for row comparisons.
type nestedResult struct {
	rows     int
	value    *sql.Const
	hasNull  bool
	set      map[any]struct{}
	min, max *sql.Const
	tuples   [][]*sql.Const
}

func (r *nestedResult) summarize(c *columnar.Column) {
	r.set = map[any]struct{}{}
	for i := 0; i < r.rows; i++ {
		k := columnConst(c, i)
		if k.Null {
			r.hasNull = true
			continue
		}
		r.set[setKey(k)] = struct{}{}
		if r.min == nil || compareConst(k, r.min) < 0 {
			r.min = k
		}
		if r.max == nil || compareConst(k, r.max) > 0 {
			r.max = k
		}
	}
}

func setKey(k *sql.Const) any {
	switch {
	case k.T.ID == columnar.String:
		return k.S
	case k.T.ID == columnar.Vector:
		return vectorKeyText(k.V)
	case k.T.Physical() == columnar.PhysFloat64:
		return k.F
	case k.T.IsWide():
		return k.W // a wide DECIMAL's value is in W, I is 0
	}
	return k.I
}

// compareConst orders two non-NULL values of one type (strings in binary
// order, as every string comparison).
func compareConst(a, b *sql.Const) int {
	switch {
	case a.T.IsWide():
		return decimal.Cmp(a.W, b.W)
	case a.T.ID == columnar.String:
		return strings.Compare(a.S, b.S)
	case a.T.ID == columnar.Vector:
		return columnar.CompareVectors(a.V, b.V)
	case a.T.Physical() == columnar.PhysFloat64:
		switch {
		case a.F < b.F:
			return -1
		case a.F > b.F:
			return 1
		}
		return 0
	case a.T.IsBigUnsigned():
		// BIGINT UNSIGNED keeps its value's bits in I: past 2^63-1 it
		// reads negative as int64 but is the greatest.
		switch {
		case uint64(a.I) < uint64(b.I):
			return -1
		case uint64(a.I) > uint64(b.I):
			return 1
		}
		return 0
	}
	switch {
	case a.I < b.I:
		return -1
	case a.I > b.I:
		return 1
	}
	return 0
}

// compare is row op ANY (rows) (all false) or row op ALL (rows) (all true)
// in three-valued logic: ANY is true when the comparison holds for some
// row, ALL false when it fails for some row; otherwise a NULL on either
// side makes the answer NULL, and over no rows ANY is false, ALL true.
func (r *nestedResult) compare(all bool, op sql.BinOp, row []*sql.Const) *sql.Const {
	if r.rows == 0 {
		return boolConst(all, false)
	}
	if r.tuples != nil || len(row) != 1 {
		return r.compareTuples(all, op, row)
	}
	x := row[0]
	if x.Null {
		return boolConst(false, true)
	}
	// decided: a row where the comparison holds (ANY) or fails (ALL).
	var decided bool
	_, in := r.set[setKey(x)]
	if all {
		op = negate(op)
	}
	switch op {
	case sql.OpEQ:
		decided = in
	case sql.OpNE:
		decided = len(r.set) > 1 || len(r.set) == 1 && !in
	case sql.OpLT, sql.OpLE:
		decided = r.max != nil && cmpResult(op, compareConst(x, r.max))
	default:
		decided = r.min != nil && cmpResult(op, compareConst(x, r.min))
	}
	switch {
	case decided:
		return boolConst(!all, false)
	case r.hasNull:
		return boolConst(false, true)
	}
	return boolConst(all, false)
}

// negate is the operator of NOT (x op y) for non-NULL operands.
func negate(op sql.BinOp) sql.BinOp {
	switch op {
	case sql.OpEQ:
		return sql.OpNE
	case sql.OpNE:
		return sql.OpEQ
	case sql.OpLT:
		return sql.OpGE
	case sql.OpLE:
		return sql.OpGT
	case sql.OpGT:
		return sql.OpLE
	}
	return sql.OpLT
}

// compareTuples is the row-constructor form: (a, b) = (x, y) is a = x AND
// b = y, and <> its negation, each three-valued.
func (r *nestedResult) compareTuples(all bool, op sql.BinOp, row []*sql.Const) *sql.Const {
	sawNull := false
	for _, t := range r.tuples {
		eq, null := tupleEqual(row, t)
		holdsHere := eq
		if op == sql.OpNE {
			holdsHere = !eq
		}
		switch {
		case null:
			sawNull = true
		case holdsHere != all:
			return boolConst(!all, false)
		}
	}
	if sawNull {
		return boolConst(false, true)
	}
	return boolConst(all, false)
}

// tupleEqual compares two rows: unequal as soon as one pair of non-NULL
// values differs, else NULL if any value is NULL.
func tupleEqual(a, b []*sql.Const) (eq, null bool) {
	for i := range a {
		switch {
		case a[i].Null || b[i].Null:
			null = true
		case compareConst(a[i], b[i]) != 0:
			return false, false
		}
	}
	return !null, null
}

// bytes estimates what the result holds: the values of its set and tuples,
// as map entries and constants (about 64 bytes each).
func (r *nestedResult) bytes() int64 {
	n := 64 + 64*int64(len(r.set))
	for _, t := range r.tuples {
		n += 64 * int64(len(t))
	}
	return n
}
