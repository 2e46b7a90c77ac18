package sql

import "gpusql/storage/columnar"

// MySQL types SUM and AVG of integers and DECIMALs as DECIMALs of 22 and
// 4 more digits (SUM(INT) DECIMAL(32,0), SUM(BIGINT) DECIMAL(41,0),
// AVG(BIGINT) DECIMAL(23,4), SUM(DECIMAL(M,D)) DECIMAL(M+22,D)). The engine
// computes them in its own types (BIGINT, DECIMAL(18,s): what the GPU
// sums), whose values are the same; ClientTypes says, for each result
// column that is such an aggregate as it is, the type MySQL gives it, so
// that clients (the MySQL protocol, database/sql, Arrow results) see
// MySQL's types. A statement whose sum overflowed is rebound with these
// types outright (Parsed.ExactDecimals).

// ClientTypes returns, per result column of q, MySQL's type where it
// differs from the plan's (the zero Type elsewhere); nil when none does.
func ClientTypes(q *Query) []columnar.Type {
	out := q.Plan.Schema()
	var types []columnar.Type
	for i := range out {
		t, ok := clientType(q.Plan, i)
		if !ok || t == out[i].Type {
			continue
		}
		if types == nil {
			types = make([]columnar.Type, len(out))
		}
		types[i] = t
	}
	return types
}

// clientType follows result column i down through the nodes that pass it
// on unchanged to the aggregate that computes it.
func clientType(p Plan, i int) (columnar.Type, bool) {
	rounded := -1 // the scale a ROUND on the way gave
	for {
		if in, ok := keepsColumns(p); ok {
			p = in
			continue
		}
		switch n := p.(type) {
		case *Project:
			e := n.Exprs[i]
			if f, ok := e.(*Func); ok && f.Name == "round" && f.T.ID == columnar.Decimal && len(f.Args) == 2 {
				e, rounded = f.Args[0], f.T.Scale // an AVG's digits rounded to the ones MySQL prints (shownDigits)
			}
			ref, ok := e.(*ColRef)
			if !ok {
				return columnar.Type{}, false
			}
			p, i = n.Input, ref.Index
		case *Aggregate:
			k := i - len(n.GroupBy)
			if k < 0 || k >= len(n.Aggs) {
				return columnar.Type{}, false
			}
			t, ok := mysqlAggType(n.Aggs[k])
			return t, ok && (rounded < 0 || t.Scale == rounded)
		default:
			return columnar.Type{}, false
		}
	}
}

// mysqlAggType is MySQL's type of a SUM or AVG the engine types in int64
// (ok false for others and for DOUBLE results).
func mysqlAggType(a AggExpr) (columnar.Type, bool) {
	if a.Func != AggSum && a.Func != AggAvg || a.Arg == nil || a.Distinct && a.Func == AggAvg && a.T.ID == columnar.Float64 {
		return columnar.Type{}, false
	}
	t := a.Arg.Type()
	if a.T.ID == columnar.Float64 || t.ID == columnar.Float64 || a.T.IsWide() {
		return columnar.Type{}, false
	}
	digits, scale, ok := exactDigits(t)
	if !ok {
		return columnar.Type{}, false
	}
	if a.Func == AggSum {
		return wideResult(digits+22, scale), true
	}
	return wideResult(digits+4, scale+4), true
}

// exactDigits is the precision and scale MySQL counts an exact numeric
// type with (decimal_precision): TINYINT 3, SMALLINT 5, MEDIUMINT 8, INT
// 10, BIGINT 19, BIGINT UNSIGNED 20, DECIMAL(M,D) M and D.
func exactDigits(t columnar.Type) (digits, scale int, ok bool) {
	switch {
	case t.ID == columnar.Decimal:
		return t.Precision, t.Scale, t.Precision > 0
	case t.ID == columnar.Bool:
		return 1, 0, true
	case t.IsBigUnsigned():
		return 20, 0, true
	case t.ID == columnar.Int64 && t.Unsigned:
		return map[int]int{8: 3, 16: 5, 24: 8, 32: 10}[t.Width], 0, true
	case t.ID == columnar.Int64:
		return 19, 0, true
	case t.ID == columnar.Int32 && !t.Year:
		return map[int]int{0: 10, 8: 3, 16: 5, 24: 8, 32: 10}[t.Width], 0, true
	}
	return 0, 0, false
}

// ClientNotNull returns, per result column of q, whether MySQL sends it
// with NOT_NULL_FLAG: the plan proves it never NULL and it is not an
// aggregate other than COUNT. MySQL marks every SUM, AVG, MIN and MAX
// nullable (Item_sum's resolve_type), even over a NOT NULL column in a
// grouped query where the plan knows it cannot be NULL.
func ClientNotNull(q *Query) []bool {
	out := q.Plan.Schema()
	notNull := make([]bool, len(out))
	for i, c := range out {
		if c.Nullable {
			continue
		}
		a, ok := sourceAgg(q.Plan, i)
		notNull[i] = !ok || a.Func == AggCount || a.Func == AggCountStar
	}
	return notNull
}

// sourceAgg is the aggregate result column i passes on unchanged from,
// through projections, sorts, limits, filters and DISTINCT.
func sourceAgg(p Plan, i int) (AggExpr, bool) {
	for {
		if in, ok := keepsColumns(p); ok {
			p = in
			continue
		}
		switch n := p.(type) {
		case *Project:
			ref, ok := n.Exprs[i].(*ColRef)
			if !ok {
				return AggExpr{}, false
			}
			p, i = n.Input, ref.Index
		case *Aggregate:
			k := i - len(n.GroupBy)
			if k < 0 || k >= len(n.Aggs) {
				return AggExpr{}, false
			}
			return n.Aggs[k], true
		default:
			return AggExpr{}, false
		}
	}
}

// ClientBlob returns, per result column of q, whether it is a base
// table's TEXT or BLOB column passed on as it is, which MySQL sends as
// MYSQL_TYPE_BLOB with BLOB_FLAG. nil when none is. A computed string of
// unknown width has the same columnar type and stays a VAR_STRING.
func ClientBlob(q *Query) []bool {
	var blob []bool
	for i, c := range q.Plan.Schema() {
		if !isLob(c.Type) {
			continue
		}
		if f := baseField(q.Plan, i); f == nil || !isLob(f.Type) {
			continue
		}
		if blob == nil {
			blob = make([]bool, len(q.Plan.Schema()))
		}
		blob[i] = true
	}
	return blob
}

// isLob reports whether t is TEXT or BLOB: a string without a length
// that is not JSON, CHAR, ENUM or SET (SQLTypeName's text and blob).
func isLob(t columnar.Type) bool {
	return t.ID == columnar.String && !t.JSON && t.Width <= 0 && !t.Char && t.Members == ""
}
