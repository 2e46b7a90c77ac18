package cpu

import (
	"fmt"
	"math"
	"strings"

	"gpusql/sql"

	"gpusql/storage/columnar"
)

func fv(x float64) val { return val{f: x} }

// double wraps a DOUBLE function: a NaN result (outside the domain) is
// NULL as in MySQL; an infinite one is MySQL's out-of-range error.
func double(name string, fn func(a []val) float64) func(f *rowFunc, a []val) val {
	return func(f *rowFunc, a []val) val {
		r := fn(a)
		switch {
		case math.IsNaN(r):
			return nullVal
		case math.IsInf(r, 0):
			raise(fmt.Errorf("DOUBLE value is out of range in '%s'", mysqlCall(name, f.expr)))
		}
		return fv(r)
	}
}

// mysqlCall writes a call as MySQL's error messages do: pow(10,309).
func mysqlCall(name string, e *sql.Func) string {
	if e == nil {
		return name + "()"
	}
	if e.Text != "" {
		return e.Text // overflow_text.go
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return name + "(" + strings.Join(args, ",") + ")"
}

// warnInvalidLog is MySQL's ER_INVALID_ARGUMENT_FOR_LOGARITHM.
const warnInvalidLog uint16 = 3020

// logarithm is double for LN, LOG, LOG2 and LOG10, whose NULL outside
// the domain (x <= 0, a base <= 0 or 1) notes MySQL's warning 3020.
func logarithm(name string, fn func(a []val) float64) func(f *rowFunc, a []val) val {
	body := double(name, fn)
	return func(f *rowFunc, a []val) val {
		r := body(f, a)
		if r.null {
			f.warn.Add(warnInvalidLog, "Invalid argument for logarithm")
		}
		return r
	}
}

// positive is fn(x) for x > 0 and NaN (NULL) otherwise, as MySQL's LN/LOG.
func positive(fn func(float64) float64) func(a []val) float64 {
	return func(a []val) float64 {
		if a[0].f <= 0 {
			return math.NaN()
		}
		return fn(a[0].f)
	}
}

// finite turns a NaN into +Inf, so double raises MySQL's out-of-range
// error for it: POW checks its result with check_float_overflow, which
// rejects any non-finite value, so POW(-2, 0.5) is error 1690, not NULL
// (unlike ASIN or SQRT, which test their argument and answer NULL).
func finite(r float64) float64 {
	if math.IsNaN(r) {
		return math.Inf(1)
	}
	return r
}

func unary(fn func(float64) float64) func(a []val) float64 {
	return func(a []val) float64 { return fn(a[0].f) }
}

// mathBodies are the numeric functions of sql/functions_more.go.
var mathBodies = map[string]func(f *rowFunc, a []val) val{
	"pow": double("pow", func(a []val) float64 { return finite(math.Pow(a[0].f, a[1].f)) }),
	"sqrt": double("sqrt", func(a []val) float64 {
		if a[0].f < 0 {
			return math.NaN()
		}
		return math.Sqrt(a[0].f)
	}),
	"exp":   double("exp", unary(math.Exp)),
	"ln":    logarithm("ln", positive(math.Log)),
	"log2":  logarithm("log2", positive(math.Log2)),
	"log10": logarithm("log10", positive(math.Log10)),
	"log": logarithm("log", func(a []val) float64 {
		if len(a) == 1 {
			return positive(math.Log)(a)
		}
		if a[0].f <= 0 || a[0].f == 1 || a[1].f <= 0 {
			return math.NaN()
		}
		return math.Log(a[1].f) / math.Log(a[0].f)
	}),
	"sin":     double("sin", unary(sinC)),
	"cos":     double("cos", unary(cosC)),
	"tan":     double("tan", unary(tanC)),
	"asin":    double("asin", unary(math.Asin)),
	"acos":    double("acos", unary(math.Acos)),
	"atan":    double("atan", unary(math.Atan)),
	"atan2":   double("atan2", func(a []val) float64 { return math.Atan2(a[0].f, a[1].f) }),
	"cot":     double("cot", func(a []val) float64 { return 1 / tanC(a[0].f) }),
	"degrees": double("degrees", func(a []val) float64 { return a[0].f * 180 / math.Pi }),
	"radians": double("radians", func(a []val) float64 { return a[0].f * math.Pi / 180 }),
	"sign": func(f *rowFunc, a []val) val {
		if f.types[0].ID == columnar.Float64 {
			return iv(int64(cmpOrdered(a[0].f, 0)))
		}
		return iv(int64(cmpOrdered(a[0].i, 0)))
	},
	"truncate": truncateBody,
}

// truncateBody is TRUNCATE(x, d): round toward zero at d fraction digits
// (d < 0 zeroes digits left of the point).
func truncateBody(f *rowFunc, a []val) val {
	d := a[1].i
	if f.types[0].ID == columnar.Float64 {
		return fv(doubleRound(a[0].f, d, true))
	}
	v, s := a[0].i, int64(f.types[0].DecimalScale())
	drop := s - d // digits to drop from v
	var r int64
	switch {
	case drop <= 0:
		r = v
	case drop > 18:
		r = 0
	default:
		q := pow10(int(drop))
		r = v / q * q // Go's / truncates toward zero
	}
	// r is at scale s; the result's scale is f.t's.
	return iv(rescaleTrunc(r, int(s), f.t.DecimalScale()))
}

// rescaleTrunc moves a value from scale from to scale to (to <= from drops
// digits already zeroed; to > from cannot happen for TRUNCATE).
func rescaleTrunc(v int64, from, to int) int64 {
	if from > to {
		return v / pow10(from-to)
	}
	return v
}
