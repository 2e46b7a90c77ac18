package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Scalar functions. The binder emits Func{Name, Args, T} with exactly these
// names, argument types (already cast) and result types; the executors
// implement this list and nothing else. NULL in any argument gives NULL
// unless said otherwise.
//
//	name        args (after casts)                     result
//	abs         x BIGINT | DECIMAL(p,s) | DOUBLE        type of x
//	coalesce    x1..xn, all of the common type T        T; first non-NULL (NULL only if all are)
//	round       x BIGINT|DECIMAL(p,s)|DOUBLE, d BIGINT const
//	                                                    BIGINT; DECIMAL(p, min(s, max(d,0))); DOUBLE.
//	                                                    Half away from zero; d < 0 rounds to tens, hundreds...
//	floor       x BIGINT | DECIMAL(p,s) | DOUBLE        BIGINT for BIGINT/DECIMAL, DOUBLE for DOUBLE
//	ceil        as floor
//	upper       s VARCHAR                               VARCHAR
//	lower       s VARCHAR                               VARCHAR
//	length      s VARCHAR                               BIGINT, length in bytes
//	char_length s VARCHAR                               BIGINT, length in characters
//	substring   s VARCHAR, pos BIGINT [, len BIGINT]    VARCHAR; 1-based pos in characters, pos < 0
//	                                                    counts from the end, pos = 0 or len <= 0 gives ''
//	concat      s1..sn VARCHAR                          VARCHAR
//	replace     s, from, to VARCHAR                     VARCHAR; every occurrence of from replaced
//	                                                    by to (case-sensitive; from = '' leaves s)
//	trim        s VARCHAR [, r VARCHAR]                 VARCHAR; strips spaces (or every leading and
//	ltrim       s VARCHAR [, r VARCHAR]                 trailing repetition of r) at both ends /
//	rtrim       s VARCHAR [, r VARCHAR]                 the start / the end
//	like        s VARCHAR, pattern VARCHAR              BOOLEAN; s LIKE pattern when the pattern is
//	                                                    not a constant (constants bind to Like)
//	year        d DATE                                  INT
//	month       d DATE                                  INT 1..12
//	day         d DATE                                  INT 1..31
//	date_add    d DATE, n BIGINT, unit VARCHAR const    DATE; unit is 'day', 'month' or 'year' (WEEK is
//	                                                    n*7 days; DATE_SUB negates n). Month/year
//	                                                    arithmetic clamps the day to the month's last
//	                                                    (MySQL: 2024-01-31 + 1 month = 2024-02-29)
//	datediff    a DATE, b DATE                          BIGINT, a - b in days
//
// Rewritten instead of emitted: IF(c,a,b) and NULLIF(a,b) → Case; IFNULL →
// coalesce; MOD(a,b) → Binary OpMod; EXTRACT(YEAR|MONTH|DAY FROM d) → year /
// month / day; DAYOFMONTH → day; UCASE/LCASE → upper/lower; SUBSTR/MID →
// substring; CEILING → ceil; OCTET_LENGTH → length; CHARACTER_LENGTH →
// char_length; DATE(x) → Cast to DATE; ADDDATE/SUBDATE/DATE_SUB/INTERVAL
// arithmetic → date_add. Calls whose arguments are all constants are still
// emitted as Func (the executor evaluates them once per batch) except
// date_add and DATE literals, which are folded here.

func (b *binder) funcCall(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	name := n.FnName.L
	switch name {
	case ast.DateLiteral:
		return b.dateLiteral(n, pos)
	case ast.TimestampLiteral:
		return b.timestampLiteral(n, pos)
	case ast.TimeLiteral:
		return b.timeLiteral(n, pos)
	}
	switch name {
	case "extract":
		return b.extract(n, sc, pos)
	case "trim", "ltrim", "rtrim":
		return b.trim(n, sc, pos)
	case "date_add", "date_sub", "adddate", "subdate", "timestampadd":
		return b.dateAdd(n, sc, pos)
	case "timestampdiff":
		return b.timestampDiff(n, sc, pos)
	case "grouping":
		return b.grouping(n, sc, pos)
	case "charset", "collation", "coercibility":
		return b.infoFunc(n, sc, pos)
	case "get_format":
		return b.getFormat(n, sc, pos)
	case "convert":
		return b.convertUsing(n, sc, pos)
	case "name_const":
		return b.nameConst(n, sc, pos)
	case "connection_id", "database", "schema", "version", "user", "current_user", "session_user", "system_user":
		return b.sessionFunc(name, len(n.Args), pos)
	case "last_insert_id":
		return b.lastInsertID(n.Args, sc, pos)
	case "row_count":
		return b.rowCountFunc(len(n.Args), pos)
	case "found_rows":
		return b.foundRowsFunc(len(n.Args), pos)
	}
	args := make([]Expr, len(n.Args))
	for i, a := range n.Args {
		e, err := b.expr(a, sc)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	arity := func(lo, hi int) error {
		if len(args) < lo || (hi >= 0 && len(args) > hi) {
			return b.paramCount(pos, name)
		}
		return nil
	}
	numeric := func(e Expr) (Expr, error) {
		t, ok := numericType(e.Type())
		if !ok {
			return nil, b.errf(pos, "type mismatch: %s() of %s", name, e.Type())
		}
		if t.ID == columnar.Int32 {
			t = columnar.TInt64
		}
		return castTo(e, t), nil
	}
	str := func(e Expr) Expr { return castTo(e, columnar.TString) }
	date := func(i int) (Expr, error) {
		if d, ok := lenientDateArg(args[i]); ok { // temporal_args.go
			return d, nil
		}
		return nil, b.errf(pos, "type mismatch: %s() of %s (a DATE is required)", name, args[i].Type())
	}
	switch name {
	case "any_value":
		// In a grouped query the argument's bare columns already stand for
		// a value of the group (bareColumns); elsewhere it is the value.
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		return args[0], nil
	case "abs":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		x, err := numeric(args[0])
		if err != nil {
			return nil, err
		}
		if x.Type().Unsigned {
			return x, nil // already its absolute value (MySQL keeps it unsigned)
		}
		if x.Type().ID == columnar.Int32 {
			// |-2147483648| leaves INT: MySQL computes ABS in BIGINT.
			x = castTo(x, columnar.TInt64)
		}
		return &Func{Name: "abs", Args: []Expr{x}, T: x.Type()}, nil
	case "coalesce", "ifnull":
		if name == "ifnull" {
			if err := arity(2, 2); err != nil {
				return nil, err
			}
		} else if err := arity(1, -1); err != nil {
			return nil, err
		}
		t, err := resultType(args)
		if err != nil {
			return nil, b.errf(pos, "%v", err)
		}
		for i := range args {
			args[i] = castTo(args[i], t)
		}
		return &Func{Name: "coalesce", Args: args, T: t}, nil
	case "nullif":
		if err := arity(2, 2); err != nil {
			return nil, err
		}
		eq, err := b.compare(OpEQ, args[0], args[1], pos)
		if err != nil {
			return nil, err
		}
		t := args[0].Type()
		return &Case{Whens: []When{{Cond: eq, Result: nullConst(t)}}, Else: args[0], T: t}, nil
	case "if":
		if err := arity(3, 3); err != nil {
			return nil, err
		}
		c, err := b.truthy(args[0], pos)
		if err != nil {
			return nil, err
		}
		t, err := resultType(args[1:])
		if err != nil {
			return nil, b.errf(pos, "%v", err)
		}
		return &Case{Whens: []When{{Cond: c, Result: castTo(args[1], t)}}, Else: castTo(args[2], t), T: t}, nil
	case "mod":
		if err := arity(2, 2); err != nil {
			return nil, err
		}
		return b.arith(OpMod, args[0], args[1], pos)
	case "round":
		if err := arity(1, 2); err != nil {
			return nil, err
		}
		x, err := numeric(args[0])
		if err != nil {
			return nil, err
		}
		d := int64(0)
		if len(args) == 2 {
			digits, null, ok := roundDigits(args[1])
			if !ok {
				return b.roundVar("round", x, args[1], pos)
			}
			if null {
				return &Const{T: x.Type(), Null: true}, nil
			}
			d = digits
		}
		if x.Type().IsBigUnsigned() {
			return b.wholeUnsigned("round", x, d, pos)
		}
		if b.exactDecimals && d < 0 && x.Type().ID == columnar.Decimal && !x.Type().IsWide() {
			// Rerun after an overflow: MySQL rounds a DECIMAL in one a
			// digit wider (an integer stays BIGINT: 1690 past it).
			digits, scale, _ := exactDigits(x.Type())
			x = castTo(x, wideResult(max(digits+1, decimal.NarrowPrecision+1), scale))
		}
		t := x.Type()
		if t.ID == columnar.Decimal || t.ID == columnar.Float64 && t.Scale > 0 {
			// ROUND(PI(), 3) is 3.142: a fixed DOUBLE keeps d decimals too.
			t.Scale = min(t.Scale, int(max(d, 0)))
		}
		return &Func{Name: "round", Args: []Expr{x, &Const{T: columnar.TInt64, I: d}}, T: t}, nil
	case "floor", "ceil", "ceiling":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		x, err := numeric(args[0])
		if err != nil {
			return nil, err
		}
		if x.Type().Unsigned {
			return x, nil // a whole number: FLOOR and CEIL keep it, unsigned
		}
		t := columnar.TInt64
		if x.Type().ID == columnar.Float64 {
			t = columnar.TFloat64
		}
		if xt := x.Type(); xt.IsWide() {
			t = wideResult(xt.Precision-xt.Scale+1, 0) // MySQL: DECIMAL(p-s+1, 0)
		}
		fn := "floor"
		if name != "floor" {
			fn = "ceil"
		}
		return &Func{Name: fn, Args: []Expr{x}, T: t}, nil
	case "upper", "ucase", "lower", "lcase":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		if byteString(args[0], n.Args[0]) {
			return str(args[0]), nil // MySQL: no effect on a binary string
		}
		fn := "upper"
		if name == "lower" || name == "lcase" {
			fn = "lower"
		}
		return &Func{Name: fn, Args: []Expr{str(args[0])}, T: columnar.TString}, nil
	case "length", "octet_length", "char_length", "character_length":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		fn := "length"
		if strings.HasPrefix(name, "char") && !byteString(args[0], n.Args[0]) {
			fn = "char_length"
		}
		return &Func{Name: fn, Args: []Expr{str(args[0])}, T: columnar.TInt64}, nil
	case "substring", "substr", "mid":
		if err := arity(2, 3); err != nil {
			return nil, err
		}
		out := []Expr{str(args[0])}
		for _, a := range args[1:] {
			x, err := numeric(a)
			if err != nil {
				return nil, err
			}
			if a.Type().ID == columnar.String {
				x = a // read as MySQL's val_int reads it: '2.7' is 2, not 3
			}
			out = append(out, unsignedCount(x, castTo(x, columnar.TInt64)))
		}
		return &Func{Name: "substring", Args: out, T: textResult(out[0])}, nil
	case "replace":
		if err := arity(3, 3); err != nil {
			return nil, err
		}
		out := []Expr{str(args[0]), str(args[1]), str(args[2])}
		return &Func{Name: "replace", Args: out, T: textResult(out...)}, nil
	case "concat":
		if err := arity(1, -1); err != nil {
			return nil, err
		}
		for i := range args {
			args[i] = str(args[i])
		}
		return &Func{Name: "concat", Args: args, T: textResult(args...)}, nil
	case "year", "month", "day", "dayofmonth":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		d, err := date(0)
		if err != nil {
			return nil, err
		}
		fn := name
		if fn == "dayofmonth" {
			fn = "day"
		}
		return &Func{Name: fn, Args: []Expr{d}, T: columnar.TInt32}, nil
	case "date":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		return date(0)
	case "datediff":
		if err := arity(2, 2); err != nil {
			return nil, err
		}
		a, err := date(0)
		if err != nil {
			return nil, err
		}
		d, err := date(1)
		if err != nil {
			return nil, err
		}
		return &Func{Name: "datediff", Args: []Expr{a, d}, T: columnar.TInt64}, nil
	}
	if e, ok, err := b.moreFunc(name, args, pos); ok {
		return e, err
	}
	if isMySQLBuiltin(name) {
		return nil, b.errf(pos, "unsupported: function %s()", name)
	}
	return nil, b.errCode(pos, ErSPDoesNotExist, "FUNCTION %s.%s does not exist", DatabaseName, name)
}

func funcNullable(f *Func) bool {
	if f.Name == "field" {
		return false
	}
	if IsRowFunc(f.Name) || IsVectorFunc(f.Name) {
		return true // many give NULL on non-NULL input (lpad, sqrt, elt...)
	}
	if f.Name == "coalesce" {
		for _, a := range f.Args {
			if !nullable(a) {
				return false
			}
		}
		return true
	}
	for _, a := range f.Args {
		if nullable(a) {
			return true
		}
	}
	return false
}

func (b *binder) dateLiteral(n *ast.FuncCallExpr, pos int) (Expr, error) {
	if len(n.Args) == 1 {
		if e, err := b.expr(n.Args[0], &scope{plan: &Values{}}); err == nil {
			if c, ok := e.(*Const); ok && c.T.ID == columnar.String {
				if d, ok := ParseDate(c.S); ok {
					return &Const{T: columnar.TDate, I: int64(d)}, nil
				}
				return nil, b.errCode(pos, ErWrongValue, "Incorrect DATE value: '%s'", c.S)
			}
		}
	}
	return nil, b.errf(pos, "incorrect DATE literal")
}

var extractUnits = map[ast.TimeUnitType]string{ast.TimeUnitYear: "year", ast.TimeUnitMonth: "month", ast.TimeUnitDay: "day",
	ast.TimeUnitQuarter: "quarter", ast.TimeUnitWeek: "week", ast.TimeUnitHour: "hour", ast.TimeUnitMinute: "minute",
	ast.TimeUnitSecond: "second", ast.TimeUnitMicrosecond: "microsecond"}

func (b *binder) extract(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	if len(n.Args) != 2 {
		return nil, b.errf(pos, "wrong number of arguments to extract()")
	}
	u, ok := n.Args[0].(*ast.TimeUnitExpr)
	if !ok {
		return nil, b.errf(pos, "unsupported: EXTRACT without a unit")
	}
	if fields, ok := compoundExtractUnits[u.Unit]; ok {
		return b.extractFields(fields, n.Args[1], sc, pos)
	}
	fn, ok := extractUnits[u.Unit]
	if !ok {
		return nil, b.errf(pos, "unsupported: EXTRACT(%s FROM ...)", u.Unit.String())
	}
	if timeFields[fn] {
		return b.extractFields([]string{fn}, n.Args[1], sc, pos)
	}
	call := &ast.FuncCallExpr{FnName: ast.NewCIStr(fn), Args: n.Args[1:]}
	return b.funcCall(call, sc, pos)
}

func (b *binder) trim(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	name := n.FnName.L
	if len(n.Args) == 0 || len(n.Args) > 3 {
		return nil, b.errf(pos, "wrong number of arguments to %s()", name)
	}
	s, err := b.expr(n.Args[0], sc)
	if err != nil {
		return nil, err
	}
	args := []Expr{castTo(s, columnar.TString)}
	if len(n.Args) >= 2 && n.Args[1] != nil {
		if !absentTrimArg(n.Args[1]) {
			r, err := b.expr(n.Args[1], sc)
			if err != nil {
				return nil, err
			}
			args = append(args, castTo(r, columnar.TString))
		}
	}
	if len(n.Args) == 3 {
		if d, ok := n.Args[2].(*ast.TrimDirectionExpr); ok {
			switch d.Direction {
			case ast.TrimLeading:
				name = "ltrim"
			case ast.TrimTrailing:
				name = "rtrim"
			}
		}
	}
	return &Func{Name: name, Args: args, T: columnar.TString}, nil
}

// absentTrimArg is the parser's stand-in for a TRIM without a remstr
// (TRIM(BOTH FROM s)): a NULL of no type. A NULL written there is typed
// binary, and MySQL's TRIM(BOTH NULL FROM s) is NULL.
func absentTrimArg(e ast.ExprNode) bool {
	v, ok := e.(ast.ValueExpr)
	return ok && v.GetValue() == nil && v.GetType().GetCharset() != "binary"
}

func (b *binder) dateAdd(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	name := n.FnName.L
	if len(n.Args) != 3 {
		return nil, b.errf(pos, "unsupported: %s() without an INTERVAL", name)
	}
	dArg, kArg := n.Args[0], n.Args[1]
	if name == "timestampadd" { // TIMESTAMPADD(unit, n, d)
		dArg, kArg = n.Args[2], n.Args[1]
	}
	d, err := b.expr(dArg, sc)
	if err != nil {
		return nil, err
	}
	unitExpr := n.Args[2]
	if name == "timestampadd" {
		unitExpr = n.Args[0]
	}
	u, ok := unitExpr.(*ast.TimeUnitExpr)
	if !ok {
		return nil, b.errf(pos, "unsupported: %s() unit", name)
	}
	k, err := b.expr(kArg, sc)
	if err != nil {
		return nil, err
	}
	return b.addInterval(name, d, k, u.Unit, pos)
}

// addDays binds DATE + INTERVAL k unit for units of a day or longer: a
// DATE result (date_add), folded when both are constants.
func (b *binder) addDays(name string, d, k Expr, unit string, pos int) (Expr, error) {
	dd, ok := lenientDateArg(d) // temporal_args.go
	if !ok || d.Type().ID == columnar.Datetime {
		return nil, b.errf(pos, "type mismatch: %s() of %s (a DATE is required)", name, d.Type())
	}
	d = dd
	dc, ok1 := d.(*Const)
	kc, ok2 := k.(*Const)
	if ok1 && ok2 {
		if dc.Null || kc.Null {
			return nullConst(columnar.TDate), nil
		}
		// Past the range the call stays, so the executor notes MySQL's
		// 1441 where it answers NULL.
		if v, ok := AddDate(int32(dc.I), kc.I, unit); ok {
			return &Const{T: columnar.TDate, I: int64(v)}, nil
		}
	}
	return &Func{Name: "date_add", Args: []Expr{d, k, &Const{T: columnar.TString, S: unit}}, T: columnar.TDate}, nil
}

// AddDate adds n units ("day", "month" or "year") to a date (days since
// 1970-01-01), clamping the day of month as MySQL does; ok is false where
// the result leaves MySQL's DATE range, 0000-01-01 to 9999-12-31, which
// MySQL answers with NULL (date_add_interval's "datetime field overflow":
// DATE '9999-12-31' + INTERVAL 1 DAY is NULL).
func AddDate(days int32, n int64, unit string) (int32, bool) {
	if unit == "day" {
		if n < -maxDateDays || n > maxDateDays {
			return 0, false
		}
		r := int64(days) + n
		return int32(r), r >= minDateDays && r <= maxDateDays
	}
	if n < -maxDateMonths || n > maxDateMonths {
		return 0, false
	}
	y, m, d := DateParts(days)
	months := int64(y)*12 + int64(m-1)
	if unit == "year" {
		months += n * 12
	} else {
		months += n
	}
	if months < 0 || months >= maxDateMonths {
		return 0, false
	}
	ny, nm := int(months/12), int(months%12)+1
	d = min(d, daysIn(ny, nm))
	return int32(columnar.DaysFromCivil(ny, nm, d)), true
}

// The bounds of MySQL's DATE in days since 1970-01-01, and its months
// from year 0 on.
var (
	minDateDays = columnar.DaysFromCivil(0, 1, 1)
	maxDateDays = columnar.DaysFromCivil(9999, 12, 31)
)

const maxDateMonths = 10000 * 12

func daysIn(y, m int) int { return columnar.DaysInMonth(y, m) }
