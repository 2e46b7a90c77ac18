package sql

import (
	"fmt"
	"math"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// expr binds an AST expression over scope sc. In a post-aggregation scope a
// subtree that equals a GROUP BY expression, or an aggregate call, becomes a
// reference to the Aggregate's output column before anything else is tried.
func (b *binder) expr(n ast.ExprNode, sc *scope) (Expr, error) {
	if err := b.enter(); err != nil {
		return nil, err
	}
	defer b.leave()
	pos := b.pos(n)
	if w, ok := n.(*ast.WindowFuncExpr); ok {
		return b.windowColumn(w, sc)
	}
	if sc.agg != nil {
		if e, ok, err := b.matchAggregated(n, sc); err != nil || ok {
			return e, err
		}
	}
	switch n := n.(type) {
	case *ast.ParenthesesExpr:
		return b.expr(n.Expr, sc)
	case *driver.ValueExpr:
		return b.literal(n, pos)
	case *ast.ColumnNameExpr:
		return b.column(n.Name, sc, pos)
	case *ast.BinaryOperationExpr:
		e, err := b.binaryOp(n, sc, pos)
		return b.withOverflowText(n, sc, e, err)
	case *ast.UnaryOperationExpr:
		e, err := b.unaryOp(n, sc, pos)
		if n.Op != opcode.Minus {
			return e, err
		}
		return b.withOverflowText(n, sc, e, err)
	case *ast.IsNullExpr:
		e, err := b.expr(n.Expr, sc)
		if err != nil {
			return nil, err
		}
		return &IsNull{E: e, Negated: n.Not}, nil
	case *ast.IsTruthExpr:
		e, err := b.expr(n.Expr, sc)
		if err != nil {
			return nil, err
		}
		return b.isTruth(e, n.True != 0, n.Not, pos)
	case *ast.BetweenExpr:
		return b.between(n, sc, pos)
	case *ast.PatternInExpr:
		if n.Sel != nil {
			return b.inSubqueryExpr(n, sc, pos)
		}
		return b.inList(n, sc, pos)
	case *ast.PatternLikeOrIlikeExpr:
		return b.like(n, sc, pos)
	case *ast.CaseExpr:
		return b.caseExpr(n, sc, pos)
	case *ast.FuncCallExpr:
		e, err := b.funcCall(n, sc, pos)
		return b.withOverflowText(n, sc, e, err)
	case *ast.FuncCastExpr:
		return b.castExpr(n, sc, pos)
	case *ast.AggregateFuncExpr:
		return nil, b.errCode(pos, ErInvalidGroupFuncUse, "Invalid use of group function")
	case *ast.SubqueryExpr:
		return b.scalarSubquery(n, sc, pos)
	case *ast.ExistsSubqueryExpr:
		return b.existsExpr(n, sc, pos)
	case *ast.CompareSubqueryExpr:
		return b.compareSubqueryExpr(n, sc, pos)
	case *ast.RowExpr:
		// A row where one value belongs: MySQL's ER_OPERAND_COLUMNS.
		return nil, b.operandColumnsError(pos, 1)
	case *ast.ValuesExpr:
		return b.valuesRef(n, sc, pos)
	case *ast.DefaultExpr:
		return b.defaultExpr(n, sc, pos)
	case *ast.VariableExpr:
		if n.Value != nil && !n.IsSystem {
			return b.assignUserVar(n, sc, pos)
		}
		return b.variable(n, pos)
	case *ast.PositionExpr:
		return nil, b.errf(pos, "unsupported: column position %d in an expression", n.N)
	case ast.ParamMarkerExpr:
		return nil, b.errf(pos, "unsupported: parameter markers (?)")
	case *ast.PatternRegexpExpr:
		return b.regexpOp(n, sc, pos)
	case *ast.SetCollationExpr:
		return b.collate(n, sc, pos)
	case *ast.TimeUnitExpr, *ast.TrimDirectionExpr:
		return nil, b.errf(pos, "unsupported: %s here", constructName(n))
	}
	return nil, b.errf(pos, "unsupported: %s", constructName(n))
}

// constructName names an AST node type for "unsupported" messages.
func constructName(n ast.Node) string {
	s := fmt.Sprintf("%T", n)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "*ast."), "*")
	s = strings.TrimSuffix(s, "Expr")
	s = strings.TrimSuffix(s, "Stmt")
	var out []rune
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			out = append(out, ' ')
		}
		out = append(out, r)
	}
	return strings.ToLower(string(out)) + " expression"
}

func compareSubqueryName(n *ast.CompareSubqueryExpr) string {
	q := "ANY"
	if n.All {
		q = "ALL"
	}
	return opName(n.Op) + " " + q
}

func opName(op opcode.Op) string {
	switch op {
	case opcode.EQ:
		return "="
	case opcode.NE:
		return "<>"
	case opcode.LT:
		return "<"
	case opcode.LE:
		return "<="
	case opcode.GT:
		return ">"
	case opcode.GE:
		return ">="
	}
	return op.String()
}

// literal types a constant: see the type rules in coerce.go.
func (b *binder) literal(n *driver.ValueExpr, pos int) (Expr, error) {
	switch n.Kind() {
	case driver.KindNull:
		return nullConst(columnar.TInt32), nil
	case driver.KindInt64:
		v := n.GetInt64()
		if mysql.HasIsBooleanFlag(n.GetType().GetFlag()) {
			return &Const{T: columnar.TBool, I: v}, nil
		}
		return intConst(v), nil
	case driver.KindUint64:
		u := n.GetUint64()
		if u <= math.MaxInt64 {
			return intConst(int64(u)), nil
		}
		return unsignedLiteral(u), nil
	case driver.KindFloat64:
		return &Const{T: columnar.TFloat64, F: n.GetFloat64()}, nil
	case driver.KindFloat32:
		return &Const{T: columnar.TFloat64, F: float64(n.GetFloat32())}, nil
	case driver.KindString, driver.KindBytes:
		return &Const{T: columnar.TString, S: n.GetString()}, nil
	case driver.KindMysqlDecimal:
		return decimalLiteral(n.GetMysqlDecimal().String()), nil
	case driver.KindBinaryLiteral:
		return hexLiteral([]byte(n.GetBinaryLiteral())), nil
	}
	return nil, b.errf(pos, "unsupported: literal of this kind")
}

// intConst types an integer constant: INT when it fits in 32 bits, else BIGINT.
func intConst(v int64) *Const {
	if v >= math.MinInt32 && v <= math.MaxInt32 {
		return &Const{T: columnar.TInt32, I: v}
	}
	return &Const{T: columnar.TInt64, I: v}
}

// decimalLiteral types 1.25 as DECIMAL(3,2); more than 18 digits is a wide
// DECIMAL, more than 65 a DOUBLE.
func decimalLiteral(s string) *Const {
	digits := strings.TrimLeft(strings.TrimPrefix(s, "-"), "0")
	scale := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		scale = len(s) - i - 1
	}
	prec := len(strings.ReplaceAll(digits, ".", ""))
	prec = max(prec, scale+1)
	if prec <= maxDecimalPrecision {
		if v, ok := ParseDecimal(s, scale); ok {
			return &Const{T: columnar.TDecimal(prec, scale), I: v}
		}
	}
	if c, ok := wideLiteral(s, prec, scale); ok {
		return c
	}
	f, _ := parseFloatPrefix(s)
	return &Const{T: columnar.TFloat64, F: f}
}

// column resolves a column name. Unqualified names search the FROM columns
// (an error when two tables have one), then select-list aliases where the
// clause allows them (HAVING), then the enclosing query (a correlated
// reference).
func (b *binder) column(cn *ast.ColumnName, sc *scope, pos int) (Expr, error) {
	if !knownSchema(cn.Schema.O) || strings.EqualFold(cn.Schema.O, "information_schema") {
		// nope.t.c names a table of a database gpusql does not have
		// (information_schema's tables are read under their own names).
		return nil, b.unknownColumn(pos, cn.Schema.O+"."+qualified(cn.Table.O, cn.Name.O))
	}
	resolve := b.resolve
	if b.outerHaving[cn] {
		resolve = b.resolveOuter // having_names.go
	}
	e, found, err := resolve(sc, cn.Table.O, cn.Name.O, pos, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, b.unknownColumn(pos, qualified(cn.Table.O, cn.Name.O))
	}
	return e, nil
}

func qualified(table, name string) string {
	if table == "" {
		return name
	}
	return table + "." + name
}

func (b *binder) resolve(sc *scope, table, name string, pos int, fromChild bool) (Expr, bool, error) {
	local := sc
	if sc.agg != nil {
		local = sc.agg.pre
	}
	i, amb := local.lookup(table, name)
	if amb {
		return nil, false, b.ambiguousColumn(pos, qualified(table, name))
	}
	if i >= 0 {
		ref := local.colRef(i)
		if sc.agg == nil {
			return ref, true, nil
		}
		if g, ok := sc.agg.group(ref, sc); ok {
			return g, true, nil
		}
		if j, ok := sc.agg.anyValue[exprKey(ref)]; ok {
			return sc.colRef(sc.agg.nGroups + j), true, nil
		}
		return nil, false, b.notGrouped(pos, local.cols[i], len(sc.agg.groupKeys) > 0)
	}
	if table != "" && !local.hasTable(table) && sc.parent == nil {
		return nil, false, b.unknownColumn(pos, qualified(table, name))
	}
	if !fromChild && table == "" && sc.aliases != nil {
		if node, ok := sc.aliases[strings.ToLower(name)]; ok && !sc.inAlias {
			if e, ok := sc.aliasExprs[strings.ToLower(name)]; ok {
				return e, true, nil
			}
			sc.inAlias = true
			defer func() { sc.inAlias = false }()
			e, err := b.expr(node, sc)
			return e, err == nil, err
		}
	}
	return b.resolveOuter(sc, table, name, pos, fromChild)
}

// resolveOuter resolves a name in the queries enclosing sc's block (a
// correlated reference), or reports it not found.
func (b *binder) resolveOuter(sc *scope, table, name string, pos int, _ bool) (Expr, bool, error) {
	if sc.parent == nil {
		return nil, false, nil
	}
	e, found, err := b.resolve(sc.parent, table, name, pos, true)
	if err != nil || !found {
		return e, found, err
	}
	e, err = b.outerValue(sc, e)
	return e, err == nil, err
}

// truthy converts e to a BOOLEAN condition as MySQL does (non-zero is true).
func (b *binder) truthy(e Expr, pos int) (Expr, error) {
	t := e.Type()
	switch {
	case t.ID == columnar.Bool:
		return e, nil
	case isNullConst(e):
		return nullConst(columnar.TBool), nil
	case t.ID == columnar.String:
		return &Binary{Op: OpNE, L: castTo(e, columnar.TFloat64), R: &Const{T: columnar.TFloat64}, T: columnar.TBool}, nil
	case t.IsNumeric():
		return &Binary{Op: OpNE, L: e, R: castTo(&Const{T: columnar.TInt32}, t), T: columnar.TBool}, nil
	}
	return nil, b.errf(pos, "type mismatch: %s used as a condition", t)
}

func (b *binder) binaryOp(n *ast.BinaryOperationExpr, sc *scope, pos int) (Expr, error) {
	if _, cmp := cmpOps[n.Op]; (cmp || n.Op == opcode.NullEQ) && (isRowOperand(n.L) || isRowOperand(n.R)) {
		return b.rowComparison(n, sc, pos)
	}
	l, err := b.expr(n.L, sc)
	if err != nil {
		return nil, err
	}
	r, err := b.expr(n.R, sc)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case opcode.LogicAnd, opcode.LogicOr, opcode.LogicXor:
		if l, err = b.truthy(l, b.pos(n.L)); err != nil {
			return nil, err
		}
		if r, err = b.truthy(r, b.pos(n.R)); err != nil {
			return nil, err
		}
		if n.Op != opcode.LogicXor {
			if cs := mergeCodeSets(n.Op == opcode.LogicOr, l, r); cs != nil {
				return cs, nil
			}
		}
		switch n.Op {
		case opcode.LogicAnd:
			return and(l, r), nil
		case opcode.LogicOr:
			return &Binary{Op: OpOr, L: l, R: r, T: columnar.TBool}, nil
		}
		// a XOR b = (a AND NOT b) OR (NOT a AND b): NULL when either is.
		return &Binary{Op: OpOr, L: and(l, &Not{E: r}), R: and(&Not{E: l}, r), T: columnar.TBool}, nil
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE:
		return b.compare(cmpOps[n.Op], l, r, pos)
	case opcode.NullEQ:
		return b.nullSafeEqual(l, r, pos)
	case opcode.Plus, opcode.Minus, opcode.Mul, opcode.Div, opcode.IntDiv, opcode.Mod:
		return b.arith(arithOps[n.Op], l, r, pos)
	}
	if name, ok := bitOpFuncs[n.Op]; ok {
		return b.bitBinary(name, l, r, pos)
	}
	return nil, b.errf(pos, "unsupported: operator %s", n.Op)
}

var cmpOps = map[opcode.Op]BinOp{opcode.EQ: OpEQ, opcode.NE: OpNE, opcode.LT: OpLT, opcode.LE: OpLE, opcode.GT: OpGT, opcode.GE: OpGE}
var arithOps = map[opcode.Op]BinOp{opcode.Plus: OpAdd, opcode.Minus: OpSub, opcode.Mul: OpMul, opcode.Div: OpDiv, opcode.IntDiv: OpIntDiv, opcode.Mod: OpMod}

func and(l, r Expr) Expr {
	if l == nil {
		return r
	}
	if r == nil {
		return l
	}
	return &Binary{Op: OpAnd, L: l, R: r, T: columnar.TBool}
}

// compare builds l op r: a CodeSet when one side is a dictionary column and
// the other a string constant, else a Binary over a common type.
func (b *binder) compare(op BinOp, l, r Expr, pos int) (Expr, error) {
	if isJSON(l) || isJSON(r) {
		return b.jsonCompare(op, l, r, pos)
	}
	if name, err := b.comparisonCollation(op.String(), pos, l, r); err != nil || name != "" {
		if err != nil {
			return nil, err
		}
		return &Binary{Op: op, L: collationKey(l, name), R: collationKey(r, name), T: columnar.TBool}, nil
	}
	l, r = uncollated(l), uncollated(r)
	l, r = enumCompare(l, r)
	if cs := codeSetCompare(op, l, r); cs != nil {
		return cs, nil
	}
	if _, wide := wideCommonType(l.Type(), r.Type()); !wide {
		if e, ok := b.unsignedCompare(op, l, r); ok {
			return e, nil
		}
	}
	t, err := compareType(l, r)
	if err != nil {
		return nil, b.errf(pos, "%v", err)
	}
	lc, err := b.castConst(l, t, pos)
	if err != nil {
		return nil, err
	}
	rc, err := b.castConst(r, t, pos)
	if err != nil {
		return nil, err
	}
	return &Binary{Op: op, L: lc, R: rc, T: columnar.TBool}, nil
}

// castConst is castTo that rejects a string constant that is not a valid
// date where a DATE is needed: almost always a typo the user wants to see.
func (b *binder) castConst(e Expr, t columnar.Type, pos int) (Expr, error) {
	if c, ok := e.(*Const); ok && !c.Null && t.ID == columnar.Date && c.T.ID == columnar.String {
		if _, ok := ParseDate(c.S); !ok {
			return nil, b.errCode(pos, ErWrongValue, "Incorrect DATE value: '%s'", c.S)
		}
	}
	if c, ok := e.(*Const); ok && !c.Null && t.ID == columnar.Datetime && c.T.ID == columnar.String {
		if _, ok := columnar.ParseDatetime(c.S, columnar.MaxFsp); !ok {
			return nil, b.errf(pos, "Incorrect datetime value: '%s'", c.S)
		}
	}
	if c, ok := e.(*Const); ok && !c.Null && t.ID == columnar.Time && c.T.ID == columnar.String {
		if _, ok := columnar.ParseTime(c.S, columnar.MaxFsp); !ok {
			return nil, b.errf(pos, "Incorrect time value: '%s'", c.S)
		}
	}
	return castTo(e, t), nil
}

// arith types l op r by the rules in coerce.go and inserts the casts.
func (b *binder) arith(op BinOp, l, r Expr, pos int) (Expr, error) {
	if l.Type().ID == columnar.Vector || r.Type().ID == columnar.Vector {
		return b.vectorArith(op, l, r, pos)
	}
	l, r = enumNumber(l), enumNumber(r)
	lt, lok := numericType(l.Type())
	rt, rok := numericType(r.Type())
	if isNullConst(l) && rok {
		lt, lok = rt, true
	}
	if isNullConst(r) && lok {
		rt, rok = lt, true
	}
	if !lok || !rok {
		bad := l.Type()
		if lok {
			bad = r.Type()
		}
		return nil, b.errf(pos, "type mismatch: operator %s does not apply to %s (use DATE_ADD/DATEDIFF for dates)", op, bad)
	}
	if e, ok := doubleIntDiv(l, r, lt, rt); ok && op == OpIntDiv {
		return e, nil // int_div_double.go
	}
	if e, ok := wideArith(op, l, r, lt, rt, b.exactDecimals); ok {
		return e, nil
	}
	if e, ok, err := b.unsignedArith(op, l, r, lt, rt, pos); ok || err != nil {
		return e, err
	}
	var t columnar.Type
	switch {
	case lt.ID == columnar.Float64 || rt.ID == columnar.Float64:
		t = doubleArithType(op, lt, rt) // double_decimals.go
	case op == OpIntDiv:
		ct := commonNumeric(lt, rt)
		if ct.ID == columnar.Int32 {
			ct = columnar.TInt64
		}
		if w := commonWide(lt, rt); ct.ID == columnar.Decimal && w.IsWide() {
			// A BIGINT's 19 digits with a fraction: past the int64's 18,
			// so 9223372036854775807 DIV 2.0 divides wide.
			ct = w
		}
		return &Binary{Op: op, L: castTo(l, ct), R: castTo(r, ct), T: columnar.TInt64}, nil
	case op == OpDiv:
		// MySQL's digits (division_digits.go); past the int64's 18, a
		// wide DECIMAL.
		dl, dr := asDecimal(lt), asDecimal(rt)
		s := DivisionScale(dl.Scale, dr.Scale)
		p := dl.Precision - dl.Scale + dr.Scale + s
		if s >= maxDecimalPrecision { // no integer digit left in the int64
			return &Binary{Op: op, L: castTo(l, lt), R: castTo(r, rt), T: wideResult(max(p, maxDecimalPrecision+1), s)}, nil
		}
		t = columnar.TDecimal(min(maxDecimalPrecision, p), s)
		return &Binary{Op: op, L: castTo(l, dl), R: castTo(r, dr), T: t}, nil
	case lt.ID == columnar.Decimal || rt.ID == columnar.Decimal:
		dl, dr := asDecimal(lt), asDecimal(rt)
		if op == OpMul {
			s := dl.Scale + dr.Scale
			if s > maxDecimalPrecision {
				// Exact past the int64 too (a quotient's 9 digits
				// times another's 18): wide.
				return &Binary{Op: op, L: castTo(l, lt), R: castTo(r, rt), T: wideResult(dl.Precision+dr.Precision, s)}, nil
			}
			t = columnar.TDecimal(min(maxDecimalPrecision, dl.Precision+dr.Precision), s)
			return &Binary{Op: op, L: castTo(l, dl), R: castTo(r, dr), T: t}, nil
		}
		s := max(dl.Scale, dr.Scale)
		p := max(dl.Precision-dl.Scale, dr.Precision-dr.Scale) + s
		if op == OpAdd || op == OpSub {
			p++
		}
		t = columnar.TDecimal(min(maxDecimalPrecision, p), s)
	default:
		t = columnar.TInt64
	}
	return &Binary{Op: op, L: castTo(l, t), R: castTo(r, t), T: t}, nil
}

func (b *binder) unaryOp(n *ast.UnaryOperationExpr, sc *scope, pos int) (Expr, error) {
	e, err := b.expr(n.V, sc)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case opcode.Plus:
		return e, nil
	case opcode.Minus:
		return b.negate(e, pos)
	case opcode.Not, opcode.Not2:
		c, err := b.truthy(e, pos)
		if err != nil {
			return nil, err
		}
		return &Not{E: c}, nil
	case opcode.BitNeg:
		return b.bitNegate(e, pos)
	}
	return nil, b.errf(pos, "unsupported: unary operator %s", n.Op)
}

func (b *binder) negate(e Expr, pos int) (Expr, error) {
	if e.Type().Unsigned {
		return negateUnsigned(e), nil
	}
	if c, ok := e.(*Const); ok {
		switch {
		case c.Null:
			return c, nil
		case c.T.ID == columnar.Int32 || c.T.ID == columnar.Int64:
			if c.I != math.MinInt64 {
				return intConst(-c.I), nil
			}
		case c.T.IsWide():
			return &Const{T: c.T, W: decimal.Neg(c.W)}, nil
		case c.T.ID == columnar.Decimal:
			return &Const{T: c.T, I: -c.I}, nil
		case c.T.ID == columnar.Float64:
			return &Const{T: c.T, F: -c.F}, nil
		}
	}
	t, ok := numericType(e.Type())
	if !ok {
		return nil, b.errf(pos, "type mismatch: cannot negate %s", e.Type())
	}
	if t.ID == columnar.Int32 {
		t = columnar.TInt64
	}
	return &Neg{E: castTo(e, t)}, nil
}

// isTruth builds e IS [NOT] TRUE/FALSE, which is never NULL.
func (b *binder) isTruth(e Expr, truth, not bool, pos int) (Expr, error) {
	c, err := b.truthy(e, pos)
	if err != nil {
		return nil, err
	}
	if !truth {
		c = &Not{E: c}
	}
	yes, no := int64(1), int64(0)
	if not {
		yes, no = 0, 1
	}
	return &Case{Whens: []When{{Cond: c, Result: &Const{T: columnar.TBool, I: yes}}},
		Else: &Const{T: columnar.TBool, I: no}, T: columnar.TBool}, nil
}

func (b *binder) between(n *ast.BetweenExpr, sc *scope, pos int) (Expr, error) {
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	lo, err := b.expr(n.Left, sc)
	if err != nil {
		return nil, err
	}
	hi, err := b.expr(n.Right, sc)
	if err != nil {
		return nil, err
	}
	if err := b.refuseJSONCompare(pos, "BETWEEN", e, lo, hi); err != nil {
		return nil, err
	}
	if e, lo, hi, err = b.betweenOperands(e, lo, hi, pos); err != nil {
		return nil, err // between_mixed.go
	}
	if cs := codeSetBetween(e, lo, hi, n.Not); cs != nil && !isCollated(e) {
		return cs, nil
	}
	if n.Not {
		lt, err := b.compare(OpLT, e, lo, pos)
		if err != nil {
			return nil, err
		}
		gt, err := b.compare(OpGT, e, hi, pos)
		if err != nil {
			return nil, err
		}
		return &Binary{Op: OpOr, L: lt, R: gt, T: columnar.TBool}, nil
	}
	ge, err := b.compare(OpGE, e, lo, pos)
	if err != nil {
		return nil, err
	}
	le, err := b.compare(OpLE, e, hi, pos)
	if err != nil {
		return nil, err
	}
	return and(ge, le), nil
}

func (b *binder) inList(n *ast.PatternInExpr, sc *scope, pos int) (Expr, error) {
	if rowInListShape(n) {
		return b.rowInList(n, sc, pos)
	}
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	items := make([]Expr, len(n.List))
	for i, x := range n.List {
		if items[i], err = b.expr(x, sc); err != nil {
			return nil, err
		}
	}
	if err := b.refuseJSONCompare(pos, "IN", append([]Expr{e}, items...)...); err != nil {
		return nil, err
	}
	for i := range items {
		_, items[i] = enumCompare(e, items[i]) // members named in another case
	}
	if name, err := b.comparisonCollation("in", pos, append([]Expr{e}, items...)...); err != nil || name != "" {
		if err != nil {
			return nil, err
		}
		for i := range items {
			items[i] = collationKey(items[i], name)
		}
		return &InList{E: collationKey(e, name), List: items, Negated: n.Not}, nil
	}
	if cs := codeSetIn(e, items, n.Not); cs != nil {
		return cs, nil
	}
	if in, ok := b.unsignedInList(e, items, n.Not); ok {
		return in, nil
	}
	if mixedStringIn(e, items) { // in_mixed.go
		return b.pairwiseIn(e, items, n.Not, pos)
	}
	var t columnar.Type
	for i, it := range items {
		ct, err := compareType(e, it)
		if err != nil {
			return nil, b.errf(b.posOr(n.List[i], pos), "%v", err)
		}
		switch {
		case i == 0 || isNullConst(it):
			if i == 0 {
				t = ct
			}
		case sameType(t, ct):
		case t.ID == columnar.Datetime && ct.ID == columnar.Datetime, t.ID == columnar.Time && ct.ID == columnar.Time:
			t.Scale = max(t.Scale, ct.Scale)
		case t.IsNumeric() && ct.IsNumeric():
			t = compareNumeric(t, ct)
		default:
			t = columnar.TFloat64
		}
	}
	ce, err := b.castConst(e, t, pos)
	if err != nil {
		return nil, err
	}
	for i := range items {
		if items[i], err = b.castConst(items[i], t, b.posOr(n.List[i], pos)); err != nil {
			return nil, err
		}
	}
	return &InList{E: ce, List: items, Negated: n.Not}, nil
}

func (b *binder) like(n *ast.PatternLikeOrIlikeExpr, sc *scope, pos int) (Expr, error) {
	if !n.IsLike {
		if b.soundsLike {
			return b.bindSoundsLike(n, sc, pos)
		}
		return nil, b.errf(pos, "unsupported: ILIKE")
	}
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	p, err := b.expr(n.Pattern, sc)
	if err != nil {
		return nil, err
	}
	name, err := b.comparisonCollation("like", pos, e, p)
	if err != nil {
		return nil, err
	}
	if name != "" {
		e, p = collationFold(e, name), collationFold(p, name)
	}
	pc, ok := p.(*Const)
	if !ok && n.Escape != '\\' {
		return nil, b.errf(pos, "unsupported: LIKE ... ESCAPE other than '\\' with a pattern that is not a constant")
	}
	if !ok {
		// A pattern that varies by row (a column, a correlated value):
		// the like() function, matched per row.
		var m Expr = &Func{Name: "like", Args: []Expr{castTo(e, columnar.TString), castTo(p, columnar.TString)}, T: columnar.TBool}
		if n.Not {
			m = &Not{E: m}
		}
		return m, nil
	}
	if pc.Null || isNullConst(e) {
		return nullConst(columnar.TBool), nil
	}
	pc = castTo(pc, columnar.TString).(*Const)
	if n.Escape != '\\' {
		pc = &Const{T: pc.T, S: backslashEscaped(pc.S, b.likeEscape(n.Escape))}
	}
	if cs := codeSetLike(e, pc.S, n.Not); cs != nil {
		return cs, nil
	}
	if e.Type().ID == columnar.Date {
		e = castTo(e, columnar.TString)
	}
	return &Like{E: castTo(e, columnar.TString), Pattern: pc.S, Negated: n.Not}, nil
}

func (b *binder) caseExpr(n *ast.CaseExpr, sc *scope, pos int) (Expr, error) {
	var value Expr
	var err error
	if n.Value != nil {
		if value, err = b.expr(n.Value, sc); err != nil {
			return nil, err
		}
	}
	c := &Case{}
	results := make([]Expr, 0, len(n.WhenClauses)+1)
	for _, w := range n.WhenClauses {
		cond, err := b.expr(w.Expr, sc)
		if err != nil {
			return nil, err
		}
		wp := b.posOr(w.Expr, pos)
		if value != nil {
			cond, err = b.compare(OpEQ, value, cond, wp)
		} else {
			cond, err = b.truthy(cond, wp)
		}
		if err != nil {
			return nil, err
		}
		res, err := b.expr(w.Result, sc)
		if err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, When{Cond: cond, Result: res})
		results = append(results, res)
	}
	if n.ElseClause != nil {
		if c.Else, err = b.expr(n.ElseClause, sc); err != nil {
			return nil, err
		}
	} else {
		c.Else = nullConst(columnar.TInt32)
	}
	results = append(results, c.Else)
	if c.T, err = resultType(results); err != nil {
		return nil, b.errf(pos, "%v", err)
	}
	for i := range c.Whens {
		c.Whens[i].Result = castTo(c.Whens[i].Result, c.T)
	}
	c.Else = castTo(c.Else, c.T)
	return c, nil
}
