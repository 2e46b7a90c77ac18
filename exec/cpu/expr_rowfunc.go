package cpu

import (
	"regexp"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// rowFunc evaluates the wider function library of sql/functions_more.go and
// sql/regexp.go row by row: each argument's value at a row is read into a
// val, and the function's Go body computes the result. These functions are
// rarely on a query's hot path (they format and clean values), so clarity
// wins over a vectorized kernel per function.
type rowFunc struct {
	name  string
	expr  *sql.Func // for error messages
	args  []evaluator
	types []columnar.Type
	t     columnar.Type
	out   *vec
	sb    stringBuilder
	body  func(f *rowFunc, a []val) val
	vals  []val
	// nullSafe bodies see NULL arguments (concat_ws, field); the others
	// give NULL when any argument is NULL without being called.
	nullSafe bool
	// re caches the last compiled regular expression (patterns are
	// almost always constants).
	re     *regexp.Regexp
	reKey  [2]string
	reUsed bool
	// warn collects the statement's warnings (STR_TO_DATE's 1411).
	warn *sql.Warnings
}

// val is one argument or result value: i for integers, dates, booleans and
// decimals (scaled), f for doubles, s for strings.
type val struct {
	i    int64
	f    float64
	s    string
	null bool
}

var nullVal = val{null: true}

func (c *compiler) compileRowFunc(e *sql.Func) (evaluator, error) {
	if e.T.IsWide() {
		// Row bodies compute in int64 or doubles: a wide result is
		// computed as a DOUBLE (approximate) and converted.
		inner := *e
		inner.T = columnar.TFloat64
		ev, err := c.compileRowFunc(&inner)
		if err != nil {
			return nil, err
		}
		return c.castTo(ev, columnar.TFloat64, e.T), nil
	}
	f := &rowFunc{name: e.Name, expr: e, t: e.T, out: newVec(e.T)}
	if c.x != nil {
		f.warn = c.x.warn
	}
	for _, a := range e.Args {
		ev, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		t := a.Type()
		if t.IsWide() { // read as a DOUBLE (approximate), see above
			ev, t = c.castTo(ev, t, columnar.TFloat64), columnar.TFloat64
		}
		f.args = append(f.args, ev)
		f.types = append(f.types, t)
	}
	f.vals = make([]val, len(f.args))
	var ok bool
	if mk, found := compiledBodies[e.Name]; found {
		f.body = mk(c, e)
		f.nullSafe = nullSafeRowFuncs[e.Name]
	} else if f.body, ok = stringBodies[e.Name]; ok {
		f.nullSafe = nullSafeRowFuncs[e.Name]
	} else if f.body, ok = mathBodies[e.Name]; ok {
	} else if f.body, ok = dateBodies[e.Name]; ok {
	} else if f.body, ok = datetimeBodies[e.Name]; ok {
	} else if f.body, ok = timeBodies[e.Name]; ok {
	} else if f.body, ok = jsonBodies[e.Name]; ok {
		f.nullSafe = sql.IsJSONNullSafe(e.Name)
	} else if f.body, ok = regexpBodies[e.Name]; !ok {
		return nil, errUnsupportedFunc(e.Name)
	}
	return f, nil
}

func (f *rowFunc) eval(b *batch, sel []int32) *vec {
	out := f.out
	out.ensure(b.n)
	args := make([]*vec, len(f.args))
	for i, a := range f.args {
		args[i] = a.eval(b, sel)
	}
	isStr := f.t.ID == columnar.String
	if isStr {
		f.sb.reset(b.n)
	}
	for _, p := range sel {
		r := f.row(args, p)
		if r.null {
			out.setNull(b.n, p)
			if isStr {
				f.sb.setNull(p)
			}
			continue
		}
		switch {
		case isStr:
			f.sb.set(p, r.s)
		case out.f64 != nil:
			out.f64[p] = r.f
		default:
			putInt(out, p, r.i)
		}
	}
	if isStr {
		f.sb.finish(out, sel)
	}
	return out
}

// row reads the arguments at p and applies the body.
func (f *rowFunc) row(args []*vec, p int32) val {
	for i, a := range args {
		v := val{}
		switch {
		case a.isNull(p):
			if !f.nullSafe {
				return nullVal
			}
			v.null = true
		case f.types[i].ID == columnar.String:
			v.s = a.stringAt(p)
		case a.f64 != nil:
			v.f = a.f64[p]
		default:
			v.i = a.int64At(p)
		}
		f.vals[i] = v
	}
	return f.body(f, f.vals)
}
