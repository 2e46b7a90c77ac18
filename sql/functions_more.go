package sql

import (
	"math"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// The wider function library (MySQL 8 names). Like functions.go, the binder
// emits Func{Name, Args, T} with the arguments cast as listed; exec/cpu
// evaluates them row by row (exec/cpu/expr_rowfunc.go) and exec/gpu refuses
// them by name, so `--executor auto` answers on the CPU. NULL in any
// argument gives NULL unless said otherwise.
//
//	name          args (after casts)                  result
//	concat_ws     sep, s1..sn VARCHAR                 VARCHAR; NULL sep gives NULL, NULL si are skipped
//	lpad, rpad    s VARCHAR, n BIGINT, pad VARCHAR    VARCHAR of n characters (s cut to n); n < 0, or
//	                                                  pad '' with padding needed, gives NULL
//	reverse       s                                   VARCHAR, by character
//	left, right   s, n BIGINT                         VARCHAR, first / last n characters
//	repeat        s, n BIGINT                         VARCHAR; n <= 0 gives ''
//	space         n BIGINT                            VARCHAR of n spaces
//	locate        sub, s [, pos BIGINT]               BIGINT, 1-based character position of sub in s
//	                                                  from pos, 0 if absent (INSTR(s,sub), POSITION)
//	field         x, x1..xn (common type)             BIGINT index of the first xi = x, 0 if none or x
//	                                                  NULL; never NULL
//	elt           n BIGINT, s1..sn VARCHAR            VARCHAR sn, NULL when n is out of range
//	ascii         s                                   BIGINT, the first byte (0 for '')
//	strcmp        a, b VARCHAR                        BIGINT -1, 0, 1 (binary order)
//	greatest,     x1..xn (common type)                the largest / smallest; NULL if any is NULL
//	least
//	sign          x (numeric)                         BIGINT -1, 0, 1
//	truncate      x, d BIGINT const                   as round, toward zero
//	pow, sqrt, exp, ln, log, log2, log10, sin, cos, tan, asin, acos, atan, atan2, cot,
//	degrees, radians   DOUBLE args                    DOUBLE; outside the domain (sqrt(-1), ln(0),
//	                                                  asin(2)) NULL as in MySQL; a result out of
//	                                                  DOUBLE's range is an error
//	dayofweek     d DATE                              INT 1 = Sunday .. 7
//	weekday       d DATE                              INT 0 = Monday .. 6
//	dayofyear     d DATE                              INT 1..366
//	quarter       d DATE                              INT 1..4
//	last_day      d DATE                              DATE, the last day of d's month
//	dayname,      d DATE                              VARCHAR ('Monday', 'January')
//	monthname
//	to_days       d DATE                              BIGINT days since year 0 (MySQL's calendar)
//	from_days     n BIGINT                            DATE
//	makedate      y BIGINT, doy BIGINT                DATE; doy <= 0 gives NULL
//	unix_timestamp d DATE                             BIGINT seconds since 1970-01-01 00:00 UTC
//	date_format   d DATE, fmt VARCHAR                 VARCHAR; MySQL's % specifiers, time parts 0
//	str_to_date   s VARCHAR, fmt VARCHAR              DATE; NULL when s does not match fmt
//	timestampdiff unit VARCHAR const, a, b DATE       BIGINT whole units from a to b (DAY, WEEK,
//	                                                  MONTH, QUARTER, YEAR)
//	week          d DATE, mode BIGINT (0 if absent)   INT, MySQL's WEEK modes 0-7 (WEEKOFYEAR = mode 3)
//	yearweek      d DATE, mode BIGINT (0 if absent)   INT year*100 + week
//	substring_index s, delim VARCHAR, n BIGINT        VARCHAR before the n-th delim (n < 0: after the
//	                                                  n-th from the end)
//	insert        s, pos BIGINT, len BIGINT, new      VARCHAR; s with len characters at pos replaced
//	                                                  (pos out of range: s)
//	format        x DOUBLE|DECIMAL|BIGINT, d BIGINT   VARCHAR '1,234.50' (half away from zero)
//	hex           x BIGINT | s VARCHAR                VARCHAR, upper-case hex of the number or bytes
//	md5, sha1     s                                   VARCHAR, lower-case hex digest
//	sha2          s, bits BIGINT                      VARCHAR; bits 224, 256 (or 0), 384, 512, else NULL
//	crc32         s                                   BIGINT
//	bit_count     n BIGINT                            BIGINT, set bits of the 64-bit pattern
//	to_base64,    s                                   VARCHAR; FROM_BASE64 of invalid input is NULL
//	from_base64
//
// Folded here, once per statement as MySQL fixes them at the statement's
// start: CURDATE()/CURRENT_DATE (DATE), UNIX_TIMESTAMP() (BIGINT), PI();
// NOW() and the other clocks in functions_datetime.go. Times are UTC.
var moreFuncs = map[string]bool{}

func init() {
	for _, n := range []string{"concat_ws", "lpad", "rpad", "reverse", "left", "right", "repeat", "space",
		"locate", "locate_collated", "field", "elt", "ascii", "strcmp", "greatest", "least", "sign", "truncate",
		"pow", "sqrt", "exp", "ln", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos",
		"atan", "atan2", "cot", "degrees", "radians", "dayofweek", "weekday", "dayofyear", "quarter",
		"last_day", "dayname", "monthname", "to_days", "from_days", "makedate", "unix_timestamp",
		"date_format", "str_to_date", "timestampdiff", "week", "yearweek", "substring_index", "insert",
		"format", "hex", "md5", "sha1", "sha2", "crc32", "bit_count", "to_base64", "from_base64"} {
		moreFuncs[n] = true
	}
}

// IsRowFunc reports whether exec/cpu evaluates the function row by row
// (the library above).
func IsRowFunc(name string) bool {
	return moreFuncs[name] || regexpFuncs[name] || jsonFuncs[name] || roundVarFuncs[name] || name == CastChar
}

// doubleFuncs take and return DOUBLE, with their arity.
var doubleFuncs = map[string][2]int{"pow": {2, 2}, "power": {2, 2}, "sqrt": {1, 1}, "exp": {1, 1},
	"ln": {1, 1}, "log": {1, 2}, "log2": {1, 1}, "log10": {1, 1}, "sin": {1, 1}, "cos": {1, 1},
	"tan": {1, 1}, "asin": {1, 1}, "acos": {1, 1}, "atan": {1, 2}, "atan2": {2, 2}, "cot": {1, 1},
	"degrees": {1, 1}, "radians": {1, 1}}

// dateFuncs take one DATE and return the given type.
var dateFuncs = map[string]columnar.Type{"dayofweek": columnar.TInt32, "weekday": columnar.TInt32,
	"dayofyear": columnar.TInt32, "quarter": columnar.TInt32, "last_day": columnar.TDate,
	"dayname": columnar.TString, "monthname": columnar.TString, "to_days": columnar.TInt64,
	"unix_timestamp": columnar.TInt64}

// stmtNow is the statement's clock: the first call in a statement reads it,
// later ones see the same instant.
func (b *binder) stmtNow() time.Time {
	b.volatile("the clock")
	if b.now.IsZero() {
		b.now = time.Now().UTC()
	}
	return b.now
}

// call is one function call being bound: its name, its bound arguments
// and where it is, with the argument conversions the library uses.
type call struct {
	b    *binder
	name string
	args []Expr
	pos  int
}

func (c *call) arity(lo, hi int) error {
	if len(c.args) < lo || (hi >= 0 && len(c.args) > hi) {
		return c.b.paramCount(c.pos, c.name)
	}
	return nil
}

func (c *call) str(e Expr) Expr { return castTo(e, columnar.TString) }

func (c *call) integer(e Expr) (Expr, error) {
	if _, ok := numericType(e.Type()); !ok && !isNullConst(e) {
		return nil, c.b.errf(c.pos, "type mismatch: %s() of %s (a number is required)", c.name, e.Type())
	}
	return castTo(e, columnar.TInt64), nil
}

// count binds a count argument (LEFT, RIGHT, REPEAT, SPACE, LPAD, RPAD,
// SUBSTRING's): MySQL reads a BIGINT UNSIGNED past BIGINT's top as the
// huge count it is (their unsigned_flag checks), where its int64 bits
// would be negative: LEFT('abc', 18446744073709551615) is abc.
func (c *call) count(e Expr) (Expr, error) {
	n, err := c.integer(e)
	if err != nil {
		return nil, err
	}
	return unsignedCount(e, n), nil
}

// unsignedCount is n, e as an int64 count, capped at BIGINT's top where e
// is a BIGINT UNSIGNED.
func unsignedCount(e, n Expr) Expr {
	if !e.Type().IsBigUnsigned() {
		return n
	}
	return &Func{Name: "unsigned_count", Args: []Expr{n}, T: columnar.TInt64}
}

func (c *call) date(e Expr) (Expr, error) {
	if d, ok := lenientDateArg(e); ok { // temporal_args.go
		return d, nil
	}
	return nil, c.b.errf(c.pos, "type mismatch: %s() of %s (a DATE is required)", c.name, e.Type())
}

func (c *call) fn(t columnar.Type, as ...Expr) (Expr, bool, error) {
	return &Func{Name: c.name, Args: as, T: t}, true, nil
}

// moreFunc binds the library above; ok is false for names it does not know.
func (b *binder) moreFunc(name string, args []Expr, pos int) (Expr, bool, error) {
	c := &call{b: b, name: name, args: args, pos: pos}
	for _, family := range []func() (Expr, bool, error){c.numberFunc, c.timeFunc, c.datetimeFunc, c.dateFunc, c.stringFunc, c.codecFunc, c.convFunc, c.codecMoreFunc, c.networkFunc, c.randomFunc, c.lockFunc, c.miscFunc, c.compressFunc, c.aesFunc, c.benchmarkFunc, c.vectorFunc, c.jsonFunc} {
		if e, ok, err := family(); ok {
			return e, true, err
		}
	}
	if regexpFuncs[name] {
		e, err := b.regexpFunc(name, args, pos)
		return e, true, err
	}
	return nil, false, nil
}

// numberFunc binds the DOUBLE functions and SIGN, TRUNCATE, FORMAT, BIT_COUNT, PI.
func (c *call) numberFunc() (Expr, bool, error) {
	if r, ok := doubleFuncs[c.name]; ok {
		if err := c.arity(r[0], r[1]); err != nil {
			return nil, true, err
		}
		for i, a := range c.args {
			if _, ok := numericType(a.Type()); !ok && !isNullConst(a) {
				return nil, true, c.b.errf(c.pos, "type mismatch: %s() of %s", c.name, a.Type())
			}
			c.args[i] = castTo(a, columnar.TFloat64)
		}
		switch {
		case c.name == "power":
			c.name = "pow"
		case c.name == "atan" && len(c.args) == 2:
			c.name = "atan2"
		}
		return c.fn(columnar.TFloat64, c.args...)
	}
	switch c.name {
	case "pi":
		if err := c.arity(0, 0); err != nil {
			return nil, true, err
		}
		return &Const{T: fixedDouble(piDecimals), F: math.Pi}, true, nil
	case "sign":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		if _, ok := numericType(c.args[0].Type()); !ok && !isNullConst(c.args[0]) {
			return nil, true, c.b.errf(c.pos, "type mismatch: sign() of %s", c.args[0].Type())
		}
		if x := c.args[0]; x.Type().Unsigned { // 0 or 1, by value
			cmp := &Func{Name: UnsignedCompare, Args: []Expr{x, &Const{T: columnar.TInt64}}, T: columnar.TInt32}
			return castTo(cmp, columnar.TInt64), true, nil
		}
		return c.fn(columnar.TInt64, c.args[0])
	case "truncate":
		return c.b.truncateFunc(c.args, c.pos)
	case "format":
		if err := c.arity(2, 3); err != nil {
			return nil, true, err
		}
		if _, ok := numericType(c.args[0].Type()); !ok && !isNullConst(c.args[0]) {
			return nil, true, c.b.errf(c.pos, "type mismatch: format() of %s", c.args[0].Type())
		}
		x := c.args[0]
		if t, _ := numericType(x.Type()); t.Unsigned {
			// kept: FORMAT prints the unsigned value
		} else if t.ID != columnar.Decimal && t.ID != columnar.Float64 {
			x = castTo(x, columnar.TInt64)
		} else {
			x = castTo(x, t)
		}
		d, err := c.integer(c.args[1])
		if err != nil {
			return nil, true, err
		}
		if len(c.args) == 3 {
			lc := c.str(c.args[2])      // the locale (exec/cpu/format_locale.go)
			if isNullConst(c.args[2]) { // en_US and 1649 Unknown locale: 'NULL', as MySQL
				lc = &Const{T: columnar.TString, S: "NULL"}
			}
			return c.fn(columnar.TString, x, d, lc)
		}
		return c.fn(columnar.TString, x, d)
	case "bit_count":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		n, err := c.integer(c.args[0])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt64, n)
	}
	return nil, false, nil
}

// dateFunc binds the date functions and the statement clock (CURDATE, NOW).
func (c *call) dateFunc() (Expr, bool, error) {
	if t, ok := dateFuncs[c.name]; ok {
		if c.name == "unix_timestamp" && len(c.args) == 0 {
			return &Const{T: columnar.TInt64, I: c.b.stmtNow().Unix()}, true, nil
		}
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		if c.name == "unix_timestamp" {
			if dt, err := c.datetimeFirstArg(); dt != nil || err != nil {
				if err != nil {
					return nil, true, err
				}
				return c.fn(unixTimestampType(dt.Type()), c.b.toUTC(dt))
			}
		}
		d, err := c.date(c.args[0])
		if err != nil {
			return nil, true, err
		}
		if c.name == "unix_timestamp" && !c.b.zone().IsUTC() {
			return c.fn(t, c.b.toUTC(castTo(d, columnar.TDatetime(0)))) // the date's midnight in the session zone
		}
		return c.fn(t, d)
	}
	switch c.name {
	case "curdate", "current_date", "utc_date":
		if err := c.arity(0, 0); err != nil {
			return nil, true, err
		}
		us := c.b.stmtMicros(0)
		if c.name == "utc_date" {
			us = c.b.stmtUTCMicros(0)
		}
		return &Const{T: columnar.TDate, I: columnar.DatetimeDays(us)}, true, nil
	case "from_days":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		n, err := c.integer(c.args[0])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TDate, n)
	case "makedate":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		y, err := c.integer(c.args[0])
		if err != nil {
			return nil, true, err
		}
		d, err := c.integer(c.args[1])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TDate, y, d)
	case "date_format":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		if dt, err := c.datetimeFirstArg(); dt != nil || err != nil {
			if err != nil {
				return nil, true, err
			}
			return c.fn(columnar.TString, dt, c.str(c.args[1]))
		}
		d, err := c.date(c.args[0])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TString, d, c.str(c.args[1]))
	case "week", "yearweek", "weekofyear":
		if c.name == "weekofyear" {
			if err := c.arity(1, 1); err != nil {
				return nil, true, err
			}
			c.args = append(c.args, &Const{T: columnar.TInt64, I: 3})
			c.name = "week"
		} else if err := c.arity(1, 2); err != nil {
			return nil, true, err
		}
		d, err := c.date(c.args[0])
		if err != nil {
			return nil, true, err
		}
		mode := Expr(&Const{T: columnar.TInt64})
		if len(c.args) == 2 {
			if mode, err = c.integer(c.args[1]); err != nil {
				return nil, true, err
			}
		}
		return c.fn(columnar.TInt32, d, mode)
	case "str_to_date":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		format := c.str(c.args[1])
		return c.fn(strToDateType(format), c.str(c.args[0]), format)
	}
	return nil, false, nil
}

// stringFunc binds the string functions.
func (c *call) stringFunc() (Expr, bool, error) {
	switch c.name {
	case "concat_ws":
		if err := c.arity(2, -1); err != nil {
			return nil, true, err
		}
		for i := range c.args {
			c.args[i] = c.str(c.args[i])
		}
		return c.fn(textResult(c.args...), c.args...)
	case "lpad", "rpad":
		if err := c.arity(3, 3); err != nil {
			return nil, true, err
		}
		n, err := c.count(c.args[1])
		if err != nil {
			return nil, true, err
		}
		s, pad := c.str(c.args[0]), c.str(c.args[2])
		return c.fn(textResult(s, pad), s, n, pad)
	case "reverse", "ascii":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		s := c.str(c.args[0])
		t := textResult(s)
		if c.name == "ascii" {
			t = columnar.TInt64
		}
		return c.fn(t, s)
	case "left", "right", "repeat":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		n, err := c.count(c.args[1])
		if err != nil {
			return nil, true, err
		}
		s := c.str(c.args[0])
		return c.fn(textResult(s), s, n)
	case "space":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		n, err := c.count(c.args[0])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TString, n)
	case "locate", "instr", "position":
		if c.name == "instr" {
			if err := c.arity(2, 2); err != nil {
				return nil, true, err
			}
			c.args[0], c.args[1] = c.args[1], c.args[0]
		} else if err := c.arity(2, 3); err != nil {
			return nil, true, err
		}
		c.name = "locate"
		out := []Expr{c.str(c.args[0]), c.str(c.args[1])}
		if len(c.args) == 3 {
			p, err := c.integer(c.args[2])
			if err != nil {
				return nil, true, err
			}
			out = append(out, p)
		}
		return c.collatedLocate(out)
	case "strcmp":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		args, err := c.collatedKeys(c.str(c.args[0]), c.str(c.args[1]))
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt64, args...)
	case "elt":
		if err := c.arity(2, -1); err != nil {
			return nil, true, err
		}
		n, err := c.integer(c.args[0])
		if err != nil {
			return nil, true, err
		}
		out := []Expr{n}
		for _, a := range c.args[1:] {
			out = append(out, c.str(a))
		}
		return c.fn(columnar.TString, out...)
	case "field", "greatest", "least":
		lo := 2
		if c.name == "field" {
			lo = 1
		}
		if err := c.arity(lo, -1); err != nil {
			return nil, true, err
		}
		t, err := resultType(c.args)
		if err != nil {
			return nil, true, c.b.errf(c.pos, "%s(): %v", c.name, err)
		}
		if c.name == "field" && mixesNumbers(c.args) {
			t = columnar.TFloat64 // MySQL's Item_func_field: item_cmp_type of all
		}
		for i := range c.args {
			c.args[i] = castTo(c.args[i], t)
		}
		if c.name == "field" {
			args, err := c.collatedKeys(c.args...)
			if err != nil {
				return nil, true, err
			}
			return c.fn(columnar.TInt64, args...)
		}
		if e, ok, err := c.collatedExtreme(c.args, t); ok || err != nil {
			return e, true, err
		}
		return c.fn(t, c.args...)
	case "substring_index":
		if err := c.arity(3, 3); err != nil {
			return nil, true, err
		}
		n, err := c.integer(c.args[2])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TString, c.str(c.args[0]), c.str(c.args[1]), n)
	case "insert", "insert_func":
		if err := c.arity(4, 4); err != nil {
			return nil, true, err
		}
		p, err := c.integer(c.args[1])
		if err != nil {
			return nil, true, err
		}
		l, err := c.integer(c.args[2])
		if err != nil {
			return nil, true, err
		}
		c.name = "insert"
		return c.fn(columnar.TString, c.str(c.args[0]), p, l, c.str(c.args[3]))
	}
	return nil, false, nil
}

// codecFunc binds HEX, the digests, base64 and ISNULL.
func (c *call) codecFunc() (Expr, bool, error) {
	switch c.name {
	case "hex":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		switch c.args[0].Type().ID {
		case columnar.String:
			return c.fn(columnar.TString, c.args[0])
		case columnar.Float64, columnar.Decimal: // Item_func_hex reads them as a DOUBLE
			return c.fn(columnar.TString, castTo(c.args[0], columnar.TFloat64))
		}
		n, err := c.integer(c.args[0])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TString, n)
	case "md5", "sha1", "to_base64", "from_base64", "crc32":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		t := columnar.TString
		if c.name == "crc32" {
			t = columnar.TInt64
		}
		return c.fn(t, c.str(c.args[0]))
	case "sha2":
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		n, err := c.integer(c.args[1])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TString, c.str(c.args[0]), n)
	case "isnull":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		return &IsNull{E: c.args[0]}, true, nil
	}
	return nil, false, nil
}

// truncateFunc types TRUNCATE(x, d) as round: DECIMAL(p, min(s, max(d,0))).
func (b *binder) truncateFunc(args []Expr, pos int) (Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, b.errf(pos, "wrong number of arguments to truncate(): %d", len(args))
	}
	t, ok := numericType(args[0].Type())
	if !ok {
		return nil, true, b.errf(pos, "type mismatch: truncate() of %s", args[0].Type())
	}
	if t.ID == columnar.Int32 {
		t = columnar.TInt64
	}
	d, null, ok := roundDigits(args[1])
	if !ok {
		e, err := b.roundVar("truncate", args[0], args[1], pos)
		return e, true, err
	}
	if null {
		return &Const{T: t, Null: true}, true, nil
	}
	if args[0].Type().IsBigUnsigned() {
		e, err := b.wholeUnsigned("truncate", args[0], d, pos)
		return e, true, err
	}
	x := castTo(args[0], t)
	if t.ID == columnar.Decimal || t.ID == columnar.Float64 && t.Scale > 0 {
		t.Scale = min(t.Scale, int(max(d, 0))) // a fixed DOUBLE too (double_decimals.go)
	}
	return &Func{Name: "truncate", Args: []Expr{x, &Const{T: columnar.TInt64, I: d}}, T: t}, true, nil
}

// timestampDiff binds TIMESTAMPDIFF(unit, a, b): over dates, or over
// datetimes when either argument is one (or a string with a time) or the
// unit is finer than a day.
func (b *binder) timestampDiff(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	if len(n.Args) != 3 {
		return nil, b.errf(pos, "wrong number of arguments to timestampdiff()")
	}
	u, ok := n.Args[0].(*ast.TimeUnitExpr)
	if !ok {
		return nil, b.errf(pos, "timestampdiff() needs a unit")
	}
	unit, ok := diffUnits[u.Unit]
	if !ok {
		return nil, b.errf(pos, "unsupported: TIMESTAMPDIFF unit %s (MICROSECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER and YEAR are supported)", u.Unit.String())
	}
	ds := make([]Expr, 2)
	asDatetime := timeUnits[unit]
	for i, a := range n.Args[1:] {
		e, err := b.expr(a, sc)
		if err != nil {
			return nil, err
		}
		ds[i] = e
		asDatetime = asDatetime || e.Type().ID == columnar.Datetime || hasTimePart(e)
	}
	for i, e := range ds {
		var err error
		switch {
		case asDatetime:
			ds[i], err = b.datetimeArg(e, "timestampdiff", pos)
		case isNullConst(e):
			ds[i] = nullConst(columnar.TDate)
		case e.Type().ID == columnar.String || isDateNumber(e.Type()):
			ds[i], _ = lenientDateArg(e)
		case e.Type().ID != columnar.Date:
			err = b.errf(pos, "type mismatch: timestampdiff() of %s (a DATE or DATETIME is required)", e.Type())
		}
		if err != nil {
			return nil, err
		}
	}
	return &Func{Name: "timestampdiff", Args: []Expr{&Const{T: columnar.TString, S: unit}, ds[0], ds[1]}, T: columnar.TInt64}, nil
}

var diffUnits = map[ast.TimeUnitType]string{ast.TimeUnitDay: "day", ast.TimeUnitWeek: "week",
	ast.TimeUnitMonth: "month", ast.TimeUnitQuarter: "quarter", ast.TimeUnitYear: "year",
	ast.TimeUnitMicrosecond: "microsecond", ast.TimeUnitSecond: "second", ast.TimeUnitMinute: "minute",
	ast.TimeUnitHour: "hour"}
