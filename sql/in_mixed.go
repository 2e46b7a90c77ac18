package sql

import "gpusql/storage/columnar"

// x IN (a, b, ...) whose list mixes strings and numbers compares x with
// each item by that pair's own rules, as MySQL 8 does (Item_func_in keeps
// a comparator per result type when the types differ; "Comparison
// Functions and Operators", IN): s IN (9, 'abc') is s = 9 (as numbers)
// OR s = 'abc' (as strings), so '' and 'x' are not in it, though both
// read as the number 0. One common type would compare all of them as
// numbers. OR keeps IN's three-valued answer: NULL when nothing matches
// and some comparison is NULL.

// mixedStringIn reports a list whose items compare with e as strings for
// some and as another type for others (NULL items aside).
func mixedStringIn(e Expr, items []Expr) bool {
	var str, other bool
	for _, it := range items {
		if isNullConst(it) {
			continue
		}
		t, err := compareType(e, it)
		if err != nil {
			return false
		}
		if t.ID == columnar.String {
			str = true
		} else {
			other = true
		}
	}
	return str && other
}

// pairwiseIn binds e IN (items) as e = item1 OR e = item2 ..., negated
// for NOT IN.
func (b *binder) pairwiseIn(e Expr, items []Expr, negated bool, pos int) (Expr, error) {
	var acc Expr
	for _, it := range items {
		eq, err := b.compare(OpEQ, e, it, pos)
		if err != nil {
			return nil, err
		}
		if acc == nil {
			acc = eq
		} else {
			acc = &Binary{Op: OpOr, L: acc, R: eq, T: columnar.TBool}
		}
	}
	if negated {
		return &Not{E: acc}, nil
	}
	return acc, nil
}
