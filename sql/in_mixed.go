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

// mixedStringIn reports a list whose items compare with e by more than
// one kind of comparison (NULL items aside): as strings for some and as
// numbers for others, or as dates for some and as numbers for others
// (date_col IN ('2024-01-05', 20240229): the first pair compares as DATE,
// MySQL's cmp_item_datetime, the second as DOUBLE).
func mixedStringIn(e Expr, items []Expr) bool {
	first, seen := columnar.Type{}, false
	for _, it := range items {
		if isNullConst(it) {
			continue
		}
		t, err := compareType(e, it)
		if err != nil {
			return false
		}
		if !seen {
			first, seen = t, true
			continue
		}
		if compareKind(t) != compareKind(first) {
			return true
		}
	}
	return false
}

// compareKind groups comparison types whose pairs IN may compare as one
// common type: the numeric ones, else each type by itself.
func compareKind(t columnar.Type) columnar.TypeID {
	if t.IsNumeric() {
		return columnar.Float64
	}
	return t.ID
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
