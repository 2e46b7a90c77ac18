package cpu

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// funcEval evaluates the scalar functions of sql/functions.go. String
// functions of one string argument (upper, lower, length, trim, substring
// with literal positions...) run once per dictionary entry and map codes;
// others build their strings per row.
type funcEval struct {
	name  string
	args  []evaluator
	types []columnar.Type
	t     columnar.Type
	out   *vec
	sb    stringBuilder
	// Per-dictionary memos for one-string-argument functions.
	strMemo dictMap[string]
	intMemo dictMap[int64]
	outMemo struct {
		in   *columnar.Dictionary
		dict *columnar.Dictionary
		code []int32
	}
	unit string // date_add
	// warn collects date_add's 1441 (nil where no statement collects).
	warn *sql.Warnings
	// expr names the call in a BIGINT out-of-range error (abs).
	expr *sql.Func
}

func (c *compiler) compileFunc(e *sql.Func) (evaluator, error) {
	if e.Name == sql.UserVarGet || e.Name == sql.UserVarSet {
		return c.compileUserVar(e)
	}
	if e.Name == sql.DecimalClip {
		return c.compileDecimalClip(e)
	}
	if ev, ok, err := c.compileWideFunc(e); ok {
		return ev, err
	}
	if sql.IsRowFunc(e.Name) {
		return c.compileRowFunc(e)
	}
	if sql.IsVectorFunc(e.Name) {
		return c.compileVectorFunc(e)
	}
	f := &funcEval{name: e.Name, t: e.T, out: newVec(e.T), expr: e}
	for _, a := range e.Args {
		ev, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		f.args = append(f.args, ev)
		f.types = append(f.types, a.Type())
	}
	switch e.Name {
	case "abs", "round", "floor", "ceil", "upper", "lower", "length", "char_length", "substring",
		"trim", "ltrim", "rtrim", "replace", "year", "month", "day", "datediff", "like",
		"collate", "collation_key", "collation_fold", "collation_tagged", "collation_untag":
	case "coalesce", "concat":
		if len(f.args) == 0 {
			return nil, fmt.Errorf("cpu: %s() without arguments", e.Name)
		}
		for i := range f.args {
			if e.Name == "coalesce" {
				f.args[i] = c.castTo(f.args[i], f.types[i], e.T)
				f.types[i] = e.T
			}
		}
	case "date_add":
		if len(e.Args) != 3 {
			return nil, fmt.Errorf("cpu: date_add() takes 3 arguments")
		}
		k, ok := e.Args[2].(*sql.Const)
		if !ok {
			return nil, fmt.Errorf("cpu: date_add() unit must be a literal")
		}
		f.unit = strings.ToLower(k.S)
		if c != nil && c.x != nil {
			f.warn = c.x.warn
		}
	default:
		return nil, fmt.Errorf("cpu: unsupported function %s()", e.Name)
	}
	return f, nil
}

func (f *funcEval) eval(b *batch, sel []int32) *vec {
	out := f.out
	out.ensure(b.n)
	args := make([]*vec, len(f.args))
	for i, a := range f.args {
		if f.name == "coalesce" && i > 0 {
			break // evaluated lazily below
		}
		args[i] = a.eval(b, sel)
	}
	switch f.name {
	case "abs":
		x := args[0]
		mergeNulls(out, b.n, sel, x, nil)
		switch {
		case x.i64 != nil:
			// -MinInt64 wraps to itself, the one result still negative:
			// MySQL's error 1690 (when the position is not NULL).
			var wrapped int64
			for _, p := range sel {
				v := x.i64[p]
				if v < 0 {
					v = -v
				}
				out.i64[p] = v
				wrapped |= v
			}
			if wrapped < 0 {
				for _, p := range sel {
					if out.i64[p] < 0 && !out.isNull(p) {
						raise(outOfRange("BIGINT", f.expr))
					}
				}
			}
		case x.f64 != nil:
			for _, p := range sel {
				out.f64[p] = math.Abs(x.f64[p])
			}
		default:
			for _, p := range sel {
				v := x.i32[p]
				if v < 0 {
					v = -v
				}
				out.i32[p] = v
			}
		}
	case "coalesce":
		f.coalesce(b, sel)
	case "round", "floor", "ceil":
		f.rounding(b, sel, args)
	case "upper", "lower", "trim", "ltrim", "rtrim", "substring", "concat", "replace",
		"collate", "collation_key", "collation_fold", "collation_tagged", "collation_untag":
		f.stringFunc(b, sel, args)
	case "length", "char_length":
		x := args[0]
		mergeNulls(out, b.n, sel, x, nil)
		m := f.intMemo.get(x.dict, func(s string) int64 {
			if f.name == "length" {
				return int64(len(s))
			}
			return int64(utf8.RuneCountInString(s))
		})
		for _, p := range sel {
			// A NULL row's code may be stale (string functions leave
			// it), so it is not read.
			if !out.isNull(p) {
				putInt(out, p, m[x.i32[p]])
			}
		}
	case "year", "month", "day":
		x := args[0]
		mergeNulls(out, b.n, sel, x, nil)
		for _, p := range sel {
			y, m, d := civilFromDays(x.int64At(p))
			v := y
			if f.name == "month" {
				v = m
			} else if f.name == "day" {
				v = d
			}
			putInt(out, p, v)
		}
	case "like":
		mergeNulls(out, b.n, sel, args[0], args[1])
		for _, p := range sel {
			if !out.isNull(p) {
				out.i32[p] = b2i(sql.LikeMatch(args[0].stringAt(p), args[1].stringAt(p)))
			}
		}
	case "datediff":
		mergeNulls(out, b.n, sel, args[0], args[1])
		for _, p := range sel {
			// By MySQL's day numbers (calc_daynr), which give year 0 no
			// February 29: DATEDIFF('0000-03-01', '0000-02-28') is 1.
			putInt(out, p, mysqlDayNumber(args[0].int64At(p))-mysqlDayNumber(args[1].int64At(p)))
		}
	case "date_add":
		mergeNulls(out, b.n, sel, args[0], args[1])
		for _, p := range sel {
			if out.isNull(p) {
				continue
			}
			d, ok := dateAdd(args[0].int64At(p), args[1].int64At(p), f.unit)
			if !ok {
				out.setNull(b.n, p)
				f.warn.Add(sql.WarnDatetimeOverflow, sql.DatetimeOverflowText)
				continue
			}
			putInt(out, p, d)
		}
	}
	return out
}

func putInt(out *vec, p int32, v int64) {
	if out.i32 != nil {
		out.i32[p] = int32(v)
	} else if out.i64 != nil {
		out.i64[p] = v
	} else {
		out.f64[p] = float64(v)
	}
}

// coalesce takes each row's first non-NULL argument, evaluating an argument
// only on the rows still NULL.
func (f *funcEval) coalesce(b *batch, sel []int32) {
	out := f.out
	isStr := f.t.ID == columnar.String
	if isStr {
		f.sb.reset(b.n)
	}
	rest := append([]int32(nil), sel...)
	for _, a := range f.args {
		if len(rest) == 0 {
			break
		}
		v := a.eval(b, rest)
		next := rest[:0]
		for _, p := range rest {
			if v.isNull(p) {
				next = append(next, p)
				continue
			}
			switch {
			case isStr:
				f.sb.set(p, v.stringAt(p))
			case out.i32 != nil:
				out.i32[p] = v.i32[p]
			case out.i64 != nil:
				out.i64[p] = v.i64[p]
			case out.vecs != nil:
				out.vecs[p] = v.vecs[p]
			case out.w != nil:
				out.w[p] = v.w[p]
			default:
				out.f64[p] = v.f64[p]
			}
		}
		rest = next
	}
	for _, p := range rest {
		out.setNull(b.n, p)
		if isStr {
			f.sb.setNull(p)
		}
	}
	if isStr {
		f.sb.finish(out, sel)
	}
}

// rounding implements round(x, d), floor(x) and ceil(x).
func (f *funcEval) rounding(b *batch, sel []int32, args []*vec) {
	out, x, xt := f.out, args[0], f.types[0]
	mergeNulls(out, b.n, sel, x, nil)
	d := int64(0)
	if f.name == "round" && len(args) > 1 {
		d = args[1].int64At(sel0(sel))
		if len(sel) > 0 && args[1].isNull(sel[0]) {
			for _, p := range sel {
				out.setNull(b.n, p)
			}
			return
		}
	}
	for _, p := range sel {
		if x.isNull(p) {
			continue
		}
		switch xt.ID {
		case columnar.Float64:
			v := x.f64[p]
			switch f.name {
			case "floor":
				v = math.Floor(v)
			case "ceil":
				v = math.Ceil(v)
			default:
				v = doubleRound(v, d, false)
			}
			if out.f64 != nil {
				out.f64[p] = v
			} else {
				putInt(out, p, int64(v))
			}
		default:
			v := x.int64At(p)
			s := xt.DecimalScale()
			var r int64 // result at scale rs
			rs := 0
			switch f.name {
			case "floor", "ceil":
				q := pow10(s)
				r = v / q
				if rem := v % q; rem != 0 {
					if f.name == "floor" && v < 0 {
						r--
					} else if f.name == "ceil" && v > 0 {
						r++
					}
				}
			default:
				keep := int(d)
				if keep >= s {
					r, rs = v, s
				} else {
					drop := s - keep // digits to drop, may exceed s (d < 0)
					if drop > 18 {
						r = f.roundPast18(v, drop, s)
					} else {
						q, m := divRound(v, pow10(drop)), pow10(max(0, -keep))
						if mulOverflows(q, m) {
							f.roundOverflow(s)
						}
						r = q * m
					}
					rs = max(keep, 0)
				}
			}
			switch f.t.ID {
			case columnar.Decimal:
				out.i64[p] = rescale(r, rs, f.t.Scale)
			case columnar.Float64:
				out.f64[p] = float64(r) / math.Pow10(rs)
			default:
				putInt(out, p, rescale(r, rs, 0))
			}
		}
	}
}

// roundOverflow is a ROUND whose result leaves BIGINT. MySQL rounds an
// integer as one (Item_func_round::int_op) and refuses the overflow with
// 1690, so ROUND(9223372036854775807, -1) is an error; a narrow DECIMAL
// it rounds in a wider DECIMAL, which the engine reruns the statement in
// (exec.ErrExactOverflow), never a wrapped value.
func (f *funcEval) roundOverflow(scale int) {
	err := outOfRange(rangeKind(f.t), f.expr)
	if scale == 0 && f.types[0].ID != columnar.Decimal {
		raise(err)
	}
	raise(&exec.ExactOverflowError{Msg: err.Error()})
}

// roundPast18 is ROUND(v, d) dropping more than 18 digits: 0, but an
// integer of 19 digits rounds to 10^19, past BIGINT; past 19 digits
// MySQL's int_op answers 0 (its log_10_int table ends there).
func (f *funcEval) roundPast18(v int64, drop, scale int) int64 {
	if drop == 19 && scale == 0 && (v >= 5e18 || v <= -5e18) {
		f.roundOverflow(scale)
	}
	return 0
}

// rangeKind names t's family in an out-of-range error, as MySQL does.
func rangeKind(t columnar.Type) string {
	if t.ID == columnar.Decimal {
		return "DECIMAL"
	}
	return "BIGINT"
}

func sel0(sel []int32) int32 {
	if len(sel) == 0 {
		return 0
	}
	return sel[0]
}

// stringFunc implements the string-valued functions. With one string
// argument and literal other arguments the result is computed once per
// dictionary entry, and the output dictionary is the sorted set of results.
func (f *funcEval) stringFunc(b *batch, sel []int32, args []*vec) {
	out := f.out
	for _, a := range args {
		mergeNulls(out, b.n, sel, a, out)
	}
	// A NULL literal makes every row NULL (mergeNulls above) and has no
	// value the per-entry memo could read, so it takes the row loop.
	litRest := true
	for i := 1; i < len(f.args); i++ {
		if c, ok := isConst(f.args[i]); !ok || c.Null {
			litRest = false
		}
	}
	if litRest && len(sel) > 0 {
		x := args[0]
		p0 := sel[0]
		m := f.strMemo.get(x.dict, func(s string) string { return f.apply(s, args, p0) })
		if f.outMemo.in != x.dict {
			d := columnar.BuildDictionary(m)
			code := make([]int32, len(m))
			for i, s := range m {
				code[i], _ = d.Lookup(s)
			}
			f.outMemo.in, f.outMemo.dict, f.outMemo.code = x.dict, d, code
		}
		out.dict = f.outMemo.dict
		for _, p := range sel {
			// NULL rows get code 0, as stringBuilder.finish gives them:
			// a code left from an earlier batch's larger dictionary
			// would be out of range for whatever reads it.
			if out.isNull(p) {
				out.i32[p] = 0
			} else {
				out.i32[p] = f.outMemo.code[x.i32[p]]
			}
		}
		return
	}
	f.sb.reset(b.n)
	for _, p := range sel {
		if out.isNull(p) {
			f.sb.setNull(p)
			continue
		}
		f.sb.set(p, f.apply(args[0].stringAt(p), args, p))
	}
	f.sb.finish(out, sel)
}

// apply computes one string function of s (args[0]'s value) at row p.
func (f *funcEval) apply(s string, args []*vec, p int32) string {
	switch f.name {
	case "collate": // sql/collation.go: the value, compared by its collation elsewhere
		return s
	case "collation_key":
		return columnar.CollationKey(args[1].stringAt(p), s)
	case "collation_fold":
		return columnar.CollationFold(args[1].stringAt(p), s)
	case "collation_tagged":
		return columnar.CollationTag(args[1].stringAt(p), s)
	case "collation_untag":
		return columnar.CollationUntag(s)
	case "upper":
		return strings.ToUpper(s)
	case "lower":
		return strings.ToLower(s)
	case "trim", "ltrim", "rtrim":
		r := " "
		if len(args) > 1 {
			r = args[1].stringAt(p)
		}
		if r == "" {
			return s
		}
		if f.name != "rtrim" {
			for strings.HasPrefix(s, r) {
				s = s[len(r):]
			}
		}
		if f.name != "ltrim" {
			for strings.HasSuffix(s, r) {
				s = s[:len(s)-len(r)]
			}
		}
		return s
	case "substring":
		if f.types[0].Binary {
			return string(substringOf([]byte(s), args, p))
		}
		return string(substringOf([]rune(s), args, p))
	case "replace":
		from := args[1].stringAt(p)
		if from == "" {
			return s
		}
		return strings.ReplaceAll(s, from, args[2].stringAt(p))
	case "concat":
		var sb strings.Builder
		sb.WriteString(s)
		for _, a := range args[1:] {
			sb.WriteString(a.stringAt(p))
		}
		return sb.String()
	}
	return s
}

// dateAdd adds n units to a date; month and year arithmetic clamps the day
// to the target month's last.
func dateAdd(days, n int64, unit string) (int64, bool) {
	switch unit {
	case "day", "week":
		// Past MySQL's DATE range (0000-01-01 to 9999-12-31) the
		// result is NULL, as MySQL's date_add_interval answers.
		if unit == "week" {
			n = max(min(n, 1<<40), -1<<40) * 7
		}
		r := days + max(min(n, 1<<40), -1<<40)
		y, m, d := civilFromDays(r)
		return r, validDate(y, m, d)
	case "month", "year":
		if unit == "year" {
			n *= 12
		}
		y, m, d := civilFromDays(days)
		t := y*12 + (m - 1) + n
		y, m = t/12, t%12+1
		if t < 0 {
			return 0, false
		}
		d = min(d, daysInMonth(y, m))
		if !validDate(y, m, d) {
			return 0, false
		}
		return daysFromCivil(y, m, d), true
	}
	return 0, false
}

// substringOf is SUBSTRING(s, pos[, len]) over s's characters: runes for
// text, bytes for a binary string (MySQL counts a binary string's
// characters as its bytes).
func substringOf[T byte | rune](rs []T, args []*vec, p int32) []T {
	pos := args[1].int64At(p)
	n := int64(len(rs))
	var start int64
	switch {
	case pos > 0:
		start = pos - 1
	case pos < 0:
		start = n + pos
	default:
		return nil
	}
	if start < 0 || start >= n {
		return nil
	}
	end := n
	if len(args) > 2 {
		l := args[2].int64At(p)
		if l <= 0 {
			return nil
		}
		end = start + min(l, n-start) // not start+l: it may overflow
	}
	return rs[start:end]
}
