package sql

import (
	"strings"

	"gpusql/storage/columnar"
)

// Dictionary predicates. A string column read from a base table carries its
// sorted dictionary (Column.Dict), so a predicate comparing it with constants
// is decided once per distinct string here, at bind time, and the executors
// test one bool per row code: no string is touched per row, on either device.
// NULL rows stay NULL (the executors check validity), so negated forms just
// negate Match.

// dictCol returns e as a dictionary-carrying column reference.
func dictCol(e Expr) *ColRef {
	c, ok := e.(*ColRef)
	if !ok || c.Col.Type.ID != columnar.String || c.Col.Dict == nil {
		return nil
	}
	return c
}

// strConst returns e as a non-NULL string constant.
func strConst(e Expr) (string, bool) {
	c, ok := e.(*Const)
	if !ok || c.Null || c.T.ID != columnar.String {
		return "", false
	}
	return c.S, true
}

func newCodeSet(col *ColRef, desc string, match func(s string) bool) *CodeSet {
	d := col.Col.Dict
	cs := &CodeSet{E: col, Match: make([]bool, d.CodeSpace()), Desc: desc}
	for i, s := range d.Values {
		cs.Match[i] = match(s)
	}
	return cs
}

var flipOp = map[BinOp]BinOp{OpEQ: OpEQ, OpNE: OpNE, OpLT: OpGT, OpLE: OpGE, OpGT: OpLT, OpGE: OpLE}

func codeSetCompare(op BinOp, l, r Expr) *CodeSet {
	col, k := dictCol(l), ""
	ok := false
	if col != nil {
		k, ok = strConst(r)
	}
	if !ok {
		if col = dictCol(r); col == nil {
			return nil
		}
		if k, ok = strConst(l); !ok {
			return nil
		}
		op = flipOp[op]
	}
	desc := col.Col.Name + " " + op.String() + " " + quoteString(k)
	return newCodeSet(col, desc, func(s string) bool {
		c := strings.Compare(s, k)
		switch op {
		case OpEQ:
			return c == 0
		case OpNE:
			return c != 0
		case OpLT:
			return c < 0
		case OpLE:
			return c <= 0
		case OpGT:
			return c > 0
		case OpGE:
			return c >= 0
		}
		return false
	})
}

func codeSetBetween(e, lo, hi Expr, not bool) *CodeSet {
	col := dictCol(e)
	if col == nil {
		return nil
	}
	l, ok1 := strConst(lo)
	h, ok2 := strConst(hi)
	if !ok1 || !ok2 {
		return nil
	}
	kw := " BETWEEN "
	if not {
		kw = " NOT BETWEEN "
	}
	return newCodeSet(col, col.Col.Name+kw+quoteString(l)+" AND "+quoteString(h), func(s string) bool {
		return (s >= l && s <= h) != not
	})
}

func codeSetIn(e Expr, items []Expr, not bool) *CodeSet {
	col := dictCol(e)
	if col == nil || len(items) == 0 {
		return nil
	}
	set := make(map[string]bool, len(items))
	quoted := make([]string, len(items))
	for i, it := range items {
		s, ok := strConst(it)
		if !ok {
			return nil // a NULL item makes non-matches NULL: leave it to InList
		}
		set[s] = true
		quoted[i] = quoteString(s)
	}
	kw := " IN ("
	if not {
		kw = " NOT IN ("
	}
	return newCodeSet(col, col.Col.Name+kw+strings.Join(quoted, ", ")+")", func(s string) bool {
		return set[s] != not
	})
}

func codeSetLike(e Expr, pattern string, not bool) *CodeSet {
	col := dictCol(e)
	if col == nil {
		return nil
	}
	kw := " LIKE "
	if not {
		kw = " NOT LIKE "
	}
	return newCodeSet(col, col.Col.Name+kw+quoteString(pattern), func(s string) bool {
		return LikeMatch(s, pattern) != not
	})
}

// mergeCodeSets folds a AND/OR of two predicates on the same dictionary
// column into one CodeSet (c = 'x' OR c = 'y' tests one bool per row). Both
// sides are NULL exactly on NULL rows, so three-valued logic is preserved.
func mergeCodeSets(or bool, l, r Expr) *CodeSet {
	a, ok1 := l.(*CodeSet)
	b, ok2 := r.(*CodeSet)
	if !ok1 || !ok2 || a.E.Index != b.E.Index || a.E.Col.Dict != b.E.Col.Dict || len(a.Match) != len(b.Match) {
		return nil
	}
	op := " AND "
	if or {
		op = " OR "
	}
	m := make([]bool, len(a.Match))
	for i := range m {
		if or {
			m[i] = a.Match[i] || b.Match[i]
		} else {
			m[i] = a.Match[i] && b.Match[i]
		}
	}
	return &CodeSet{E: a.E, Match: m, Desc: "(" + a.Desc + op + b.Desc + ")"}
}
