package sql

// MySQL lets SELECT DISTINCT sort by an expression that is not a
// select-list column when every column it reads lies in a part of it that
// is a select-list expression: SELECT DISTINCT a ... ORDER BY a + 1, or
// ORDER BY -x over the alias x. Such a key has one value per distinct row,
// so computing it as a hidden column next to the select list and taking
// DISTINCT over both keeps the same rows. A column read outside those
// parts (ORDER BY b) would tell apart rows DISTINCT merges: MySQL's error
// 3065, and an aggregate not in the select list its 3066. A volatile
// function (RAND()) is refused for the same reason.

// distinctOrderCheck checks ORDER BY expression number nth (from 1) of a
// SELECT DISTINCT, e over sc, against the select list's expressions.
func (b *binder) distinctOrderCheck(e Expr, selected []Expr, sc *scope, nth, pos int) error {
	keys := make(map[string]bool, len(selected))
	for _, x := range selected {
		keys[exprKey(x)] = true
	}
	var bad error
	walkExpr(e, func(x Expr) bool {
		if bad != nil {
			return false
		}
		if keys[exprKey(x)] {
			if name, _ := collationOf(x); name != "" {
				// DISTINCT merges 'a' and 'A'; LENGTH or HEX of
				// them would not.
				bad = b.errf(pos, "unsupported: ORDER BY %s under SELECT DISTINCT of a column of collation %s (sort by the column itself)", e, name)
			}
			return false
		}
		switch x := x.(type) {
		case *ColRef:
			bad = b.distinctOrderColumn(x, sc, nth, pos)
		case *Func:
			if VolatileFuncs[x.Name] {
				bad = b.errf(pos, "unsupported: ORDER BY %s under SELECT DISTINCT (a value that differs per row; sort a derived table's rows instead)", e)
			}
		}
		return true
	})
	return bad
}

// distinctOrderColumn is MySQL's error for column r read by ORDER BY
// expression nth outside the select list: 3066 for an aggregate, 3065
// naming the column otherwise (a bare column of a grouped query too,
// which reads as its group's ANY_VALUE).
func (b *binder) distinctOrderColumn(r *ColRef, sc *scope, nth, pos int) error {
	col := r.Col
	if a := sc.agg; a != nil && r.Index >= a.nGroups {
		i := r.Index - a.nGroups
		arg, ok := a.aggFuncs[i].Arg.(*ColRef)
		if !isAnyValue(a, i) || !ok {
			return b.errCode(pos, ErAggregateInOrderNotSelect, "Expression #%d of ORDER BY clause is not in SELECT list, contains aggregate function; this is incompatible with DISTINCT", nth)
		}
		col = arg.Col
	}
	if col.Table == "" {
		// A column the binder made (a subquery decorrelated into a
		// join): MySQL would check the subquery's outer references.
		return b.errf(pos, "unsupported: ORDER BY expression #%d is not in the select list, which SELECT DISTINCT requires here", nth)
	}
	name := DatabaseName + "." + col.Table + "." + col.Name
	return b.errCode(pos, ErFieldInOrderNotSelect, "Expression #%d of ORDER BY clause is not in SELECT list, references column '%s' which is not in SELECT list; this is incompatible with DISTINCT", nth, name)
}

// isAnyValue says whether aggregate i stands for a bare column (aggScope's
// anyValue) rather than an aggregate call of the query.
func isAnyValue(a *aggScope, i int) bool {
	for _, j := range a.anyValue {
		if j == i {
			return true
		}
	}
	return false
}
