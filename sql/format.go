package sql

import (
	"fmt"
	"strconv"
	"strings"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// String renderings are SQL-like, for EXPLAIN and error messages. exprKey
// renders the same tree with column positions instead of names, so two
// expressions with equal keys compute the same value over the same input;
// the binder uses it to match GROUP BY expressions and to share aggregates.

func (e *ColRef) String() string         { return render(e, false) }
func (e *Const) String() string          { return render(e, false) }
func (e *Binary) String() string         { return render(e, false) }
func (e *Not) String() string            { return render(e, false) }
func (e *Neg) String() string            { return render(e, false) }
func (e *IsNull) String() string         { return render(e, false) }
func (e *InList) String() string         { return render(e, false) }
func (e *Like) String() string           { return render(e, false) }
func (e *CodeSet) String() string        { return render(e, false) }
func (e *Case) String() string           { return render(e, false) }
func (e *Cast) String() string           { return render(e, false) }
func (e *Func) String() string           { return render(e, false) }
func (e *ScalarSubquery) String() string { return render(e, false) }
func (e *NestedSubquery) String() string { return render(e, false) }
func (e *Param) String() string          { return render(e, false) }

// String renders an aggregate call, e.g. sum(lo_revenue), count(DISTINCT x).
func (a AggExpr) String() string { return renderAgg(a, false) }

func exprKey(e Expr) string { return render(e, true) }

func aggKey(a AggExpr) string { return renderAgg(a, true) }

var aggNames = map[AggFunc]string{AggCountStar: "count", AggCount: "count", AggSum: "sum", AggAvg: "avg", AggMin: "min", AggMax: "max",
	AggVarPop: "var_pop", AggVarSamp: "var_samp", AggStddevPop: "stddev_pop", AggStddevSamp: "stddev_samp",
	AggBitAnd: "bit_and", AggBitOr: "bit_or", AggBitXor: "bit_xor", AggGroupConcat: "group_concat",
	AggJSONArrayAgg: "json_arrayagg", AggJSONObjectAgg: "json_objectagg"}

// AggName is an aggregate function's SQL name.
func AggName(f AggFunc) string { return aggNames[f] }

func renderAgg(a AggExpr, keys bool) string {
	if a.Func == AggCountStar {
		return "count(*)"
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	s := aggNames[a.Func] + "(" + d + render(a.Arg, keys)
	for i, k := range a.Order {
		if i == 0 {
			s += " ORDER BY "
		} else {
			s += ", "
		}
		s += render(k.Expr, keys)
		if k.Desc {
			s += " DESC"
		}
	}
	if a.Func == AggGroupConcat && a.Sep != "," {
		s += " SEPARATOR " + quoteString(a.Sep)
	}
	return s + ")"
}

// String is the SQL spelling of the operator.
func (op BinOp) String() string {
	switch op {
	case OpAdd:
		return "+"
	case OpSub:
		return "-"
	case OpMul:
		return "*"
	case OpDiv:
		return "/"
	case OpIntDiv:
		return "DIV"
	case OpMod:
		return "%"
	case OpEQ:
		return "="
	case OpNE:
		return "<>"
	case OpLT:
		return "<"
	case OpLE:
		return "<="
	case OpGT:
		return ">"
	case OpGE:
		return ">="
	case OpAnd:
		return "AND"
	case OpOr:
		return "OR"
	}
	return "?"
}

func render(e Expr, keys bool) string {
	var sb strings.Builder
	renderTo(&sb, e, keys, true)
	return sb.String()
}

func renderTo(sb *strings.Builder, e Expr, keys, top bool) {
	r := func(x Expr) { renderTo(sb, x, keys, false) }
	switch e := e.(type) {
	case nil:
		sb.WriteString("<nil>")
	case *ColRef:
		if keys {
			fmt.Fprintf(sb, "$%d", e.Index)
			return
		}
		sb.WriteString(e.Col.Name)
	case *outerRef:
		if keys {
			fmt.Fprintf(sb, "outer$%d", e.Index)
			return
		}
		sb.WriteString("outer." + e.Col.Name)
	case *Const:
		sb.WriteString(constString(e))
		if keys {
			sb.WriteString(":" + e.T.String())
		}
	case *Binary:
		if !top {
			sb.WriteByte('(')
		}
		// AND/OR chains print flat: a AND b AND c.
		side := func(x Expr) {
			if c, ok := x.(*Binary); ok && (e.Op == OpAnd || e.Op == OpOr) && c.Op == e.Op {
				renderTo(sb, x, keys, true)
				return
			}
			r(x)
		}
		side(e.L)
		sb.WriteString(" " + e.Op.String() + " ")
		side(e.R)
		if !top {
			sb.WriteByte(')')
		}
	case *Not:
		sb.WriteString("NOT ")
		r(e.E)
	case *Neg:
		sb.WriteString("-")
		r(e.E)
	case *IsNull:
		r(e.E)
		if e.Negated {
			sb.WriteString(" IS NOT NULL")
		} else {
			sb.WriteString(" IS NULL")
		}
	case *InList:
		r(e.E)
		if e.Negated {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" IN (")
		for i, x := range e.List {
			if i > 0 {
				sb.WriteString(", ")
			}
			renderTo(sb, x, keys, true)
		}
		sb.WriteString(")")
	case *Like:
		r(e.E)
		if e.Negated {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" LIKE " + quoteString(e.Pattern))
	case *CodeSet:
		if keys {
			fmt.Fprintf(sb, "codeset($%d,%s)", e.E.Index, e.Desc)
			return
		}
		sb.WriteString(e.Desc)
	case *Case:
		sb.WriteString("CASE")
		for _, w := range e.Whens {
			sb.WriteString(" WHEN ")
			renderTo(sb, w.Cond, keys, true)
			sb.WriteString(" THEN ")
			renderTo(sb, w.Result, keys, true)
		}
		if e.Else != nil {
			sb.WriteString(" ELSE ")
			renderTo(sb, e.Else, keys, true)
		}
		sb.WriteString(" END")
	case *Cast:
		sb.WriteString("CAST(")
		renderTo(sb, e.E, keys, true)
		sb.WriteString(" AS " + e.T.String() + ")")
	case *Func:
		sb.WriteString(e.Name + "(")
		for i, x := range e.Args {
			if i > 0 {
				sb.WriteString(", ")
			}
			renderTo(sb, x, keys, true)
		}
		sb.WriteString(")")
	case *ScalarSubquery:
		if keys {
			fmt.Fprintf(sb, "subquery%p", e)
			return
		}
		sb.WriteString("(subquery)")
	case *NestedSubquery:
		renderNested(sb, e, keys)
	case *Param:
		fmt.Fprintf(sb, "?%d", e.ID)
	default:
		fmt.Fprintf(sb, "%v", e)
	}
}

func constString(c *Const) string {
	if c.Null {
		return "NULL"
	}
	switch c.T.ID {
	case columnar.Int32, columnar.Int64:
		if c.T.IsBigUnsigned() {
			return strconv.FormatUint(uint64(c.I), 10)
		}
		return strconv.FormatInt(c.I, 10)
	case columnar.Float64:
		// MySQL writes exponents without a plus sign: '(1e308 * 10)'.
		return strings.Replace(strconv.FormatFloat(c.F, 'g', -1, 64), "e+", "e", 1)
	case columnar.Decimal:
		if c.T.IsWide() {
			return decimal.Format(c.W, c.T.Scale)
		}
		return FormatDecimal(c.I, c.T.Scale)
	case columnar.Date:
		return "DATE '" + FormatDate(int32(c.I)) + "'"
	case columnar.Datetime:
		return "TIMESTAMP '" + columnar.FormatDatetime(c.I, c.T.Scale) + "'"
	case columnar.Time:
		return "TIME '" + columnar.FormatTime(c.I, c.T.Scale) + "'"
	case columnar.Bool:
		if c.I != 0 {
			return "TRUE"
		}
		return "FALSE"
	case columnar.String:
		return quoteString(c.S)
	case columnar.Vector:
		return quoteString(columnar.VectorText(c.V))
	}
	return "?"
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// FormatDecimal renders a scaled integer with scale digits after the point.
func FormatDecimal(v int64, scale int) string {
	if scale <= 0 {
		return strconv.FormatInt(v, 10)
	}
	neg := v < 0
	u := uint64(v)
	if neg {
		u = uint64(-v)
	}
	s := strconv.FormatUint(u, 10)
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// FormatPlan renders a logical plan as an indented tree, one operator a
// line, for tests and debugging.
func FormatPlan(p Plan) string {
	var sb strings.Builder
	formatPlan(&sb, p, 0)
	return sb.String()
}

func exprList(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

func formatPlan(sb *strings.Builder, p Plan, depth int) {
	sb.WriteString(strings.Repeat("  ", depth))
	switch p := p.(type) {
	case *Scan:
		names := make([]string, len(p.Out))
		for i, c := range p.Out {
			names[i] = c.Name
		}
		fmt.Fprintf(sb, "Scan %s", p.Table.Name)
		if p.Alias != "" && p.Alias != p.Table.Name {
			fmt.Fprintf(sb, " AS %s", p.Alias)
		}
		fmt.Fprintf(sb, " [%s]", strings.Join(names, ", "))
	case *Filter:
		fmt.Fprintf(sb, "Filter %s", p.Cond)
	case *Project:
		parts := make([]string, len(p.Exprs))
		for i, e := range p.Exprs {
			parts[i] = e.String()
			if i < len(p.Out) && p.Out[i].Name != parts[i] {
				parts[i] += " AS " + p.Out[i].Name
			}
		}
		fmt.Fprintf(sb, "Project [%s]", strings.Join(parts, ", "))
	case *Join:
		kind := map[JoinKind]string{JoinInner: "Inner", JoinLeft: "Left", JoinSemi: "Semi", JoinAnti: "Anti", JoinCross: "Cross"}[p.Kind]
		fmt.Fprintf(sb, "Join %s", kind)
		if p.NullAware {
			sb.WriteString(" NullAware")
		}
		if len(p.LeftKeys) > 0 {
			fmt.Fprintf(sb, " keys=[%s]=[%s]", exprList(p.LeftKeys), exprList(p.RightKeys))
		}
		if p.Residual != nil {
			fmt.Fprintf(sb, " on %s", p.Residual)
		}
	case *Aggregate:
		aggs := make([]string, len(p.Aggs))
		for i, a := range p.Aggs {
			aggs[i] = a.String()
		}
		fmt.Fprintf(sb, "Aggregate group=[%s] aggs=[%s]", exprList(p.GroupBy), strings.Join(aggs, ", "))
	case *Sort:
		keys := make([]string, len(p.Keys))
		for i, k := range p.Keys {
			keys[i] = k.Expr.String()
			if k.Desc {
				keys[i] += " DESC"
			}
		}
		fmt.Fprintf(sb, "Sort [%s]", strings.Join(keys, ", "))
	case *Limit:
		fmt.Fprintf(sb, "Limit offset=%d count=%d", p.Offset, p.Count)
	case *Distinct:
		sb.WriteString("Distinct")
	case *SetOp:
		kind := map[SetOpKind]string{SetUnion: "Union", SetIntersect: "Intersect", SetExcept: "Except"}[p.Kind]
		if p.All {
			kind += " All"
		}
		fmt.Fprintf(sb, "SetOp %s", kind)
	case *Values:
		rows := make([]string, len(p.Rows))
		for i, r := range p.Rows {
			rows[i] = "(" + exprList(r) + ")"
		}
		fmt.Fprintf(sb, "Values %s", strings.Join(rows, ", "))
	case *Window:
		funcs := make([]string, len(p.Funcs))
		for i := range p.Funcs {
			funcs[i] = p.Funcs[i].String()
		}
		fmt.Fprintf(sb, "Window [%s]", strings.Join(funcs, ", "))
	default:
		fmt.Fprintf(sb, "%T", p)
	}
	switch p.(type) {
	case *Project, *Aggregate, *SetOp, *Values, *Window:
		sb.WriteString(schemaSuffix(p.Schema()))
	}
	sb.WriteByte('\n')
	for _, c := range p.Children() {
		formatPlan(sb, c, depth+1)
	}
}

// schemaSuffix lists the output types, with '?' on nullable columns and '#'
// on columns that carry a dictionary.
func schemaSuffix(s Schema) string {
	parts := make([]string, len(s))
	for i, c := range s {
		parts[i] = c.Type.String()
		if c.Nullable {
			parts[i] += "?"
		}
		if c.Dict != nil {
			parts[i] += "#"
		}
	}
	return " -> (" + strings.Join(parts, ", ") + ")"
}

// renderNested spells a NestedSubquery as the SQL it stands for, with its
// arguments: x IN (subquery ?1=a, ?2=b).
func renderNested(sb *strings.Builder, e *NestedSubquery, keys bool) {
	if keys {
		fmt.Fprintf(sb, "nested%p(", e)
		for _, a := range append(append([]Expr(nil), e.LHS...), e.Args...) {
			renderTo(sb, a, keys, true)
			sb.WriteByte(',')
		}
		sb.WriteByte(')')
		return
	}
	lhs := func() {
		if len(e.LHS) == 1 {
			renderTo(sb, e.LHS[0], keys, false)
		} else {
			sb.WriteByte('(')
			for i, x := range e.LHS {
				if i > 0 {
					sb.WriteString(", ")
				}
				renderTo(sb, x, keys, true)
			}
			sb.WriteByte(')')
		}
	}
	switch e.Mode {
	case SubqueryExists:
		sb.WriteString("EXISTS ")
	case SubqueryAny:
		lhs()
		fmt.Fprintf(sb, " %s ANY ", e.Op)
	case SubqueryAll:
		lhs()
		fmt.Fprintf(sb, " %s ALL ", e.Op)
	}
	sb.WriteString("(subquery")
	for i, a := range e.Args {
		fmt.Fprintf(sb, " ?%d=", e.Params[i])
		renderTo(sb, a, keys, true)
	}
	sb.WriteByte(')')
}
