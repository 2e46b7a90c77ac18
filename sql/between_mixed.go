package sql

import "gpusql/storage/columnar"

// x BETWEEN lo AND hi compares all three by one type, MySQL's
// agg_cmp_type over the three (Item_func_between::resolve_type), not
// x >= lo by that pair's type and x <= hi by the other's. Where a string
// meets a number anywhere among them that type is DOUBLE for all three:
// over v = 'c', v BETWEEN 0 AND 'b' is 0 BETWEEN 0 AND 0, true, though
// 'c' <= 'b' is false as strings. Dates keep their pair-by-pair
// comparison: MySQL converts a DATE column's constant bounds to the
// column's type (convert_constant_item), which compares as the pairs do.

// betweenAsDouble reports whether e BETWEEN lo AND hi compares as DOUBLE
// although a pair of them compares as strings.
func betweenAsDouble(e, lo, hi Expr) bool {
	if alwaysNull(e) {
		return false
	}
	var str, num bool
	for _, bound := range []Expr{lo, hi} {
		if alwaysNull(bound) {
			// A NULL has no type to aggregate (NULLIF(NULL, 'x') is one,
			// whatever type gpusql gives it): 'a' NOT BETWEEN NULLIF(NULL,
			// 'abc') AND '1' compares 'a' with '1' as strings, true.
			continue
		}
		t, err := compareType(e, bound)
		if err != nil {
			return false
		}
		switch {
		case t.ID == columnar.String:
			str = true
		case t.IsNumeric():
			num = true
		}
	}
	return str && num
}

// betweenOperands are e, lo and hi as BETWEEN compares them.
func (b *binder) betweenOperands(e, lo, hi Expr, pos int) (Expr, Expr, Expr, error) {
	if !betweenAsDouble(e, lo, hi) {
		return e, lo, hi, nil
	}
	out := make([]Expr, 3)
	for i, x := range []Expr{e, lo, hi} {
		var err error
		if out[i], err = b.castConst(x, columnar.TFloat64, pos); err != nil {
			return nil, nil, nil, err
		}
	}
	return out[0], out[1], out[2], nil
}

// mixesNumbers reports whether args, NULLs aside, hold both a number and
// something MySQL reads as a string (a string or a temporal value): FIELD
// then compares all of them as DOUBLE (item_cmp_type over its arguments:
// FIELD('b', 0, 'b') is 1, 'b' and 0 both being 0).
func mixesNumbers(args []Expr) bool {
	var num, other bool
	for _, a := range args {
		switch {
		case isNullConst(a):
		case a.Type().IsNumeric():
			num = true
		default:
			other = true
		}
	}
	return num && other
}

// alwaysNull reports whether e is NULL whatever the row: a NULL constant,
// a CASE (NULLIF among them) whose every result is, or a scalar subquery
// selecting one (MySQL types (SELECT NULL) as NULL, so it aggregates no
// type: 'abc' BETWEEN (SELECT NULL) AND 'abb' compares strings, 0).
func alwaysNull(e Expr) bool {
	switch x := e.(type) {
	case *Const:
		return x.Null
	case *ScalarSubquery:
		return selectsOnlyNull(x.Plan)
	case *Case:
		for _, w := range x.Whens {
			if !alwaysNull(w.Result) {
				return false
			}
		}
		return x.Else == nil || alwaysNull(x.Else)
	}
	return false
}

// selectsOnlyNull reports whether p's single column is NULL in every row:
// its projection, under any filter, order or limit, is alwaysNull.
func selectsOnlyNull(p Plan) bool {
	for {
		if in, ok := keepsColumns(p); ok {
			p = in
			continue
		}
		switch x := p.(type) {
		case *Project:
			return len(x.Exprs) == 1 && alwaysNull(x.Exprs[0])
		default:
			return false
		}
	}
}
