package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// INTERVAL, PERIOD_ADD, PERIOD_DIFF, GET_FORMAT, RANDOM_BYTES, FORMAT_BYTES
// and FORMAT_PICO_TIME, bound as
// the library of functions_more.go and evaluated by
// exec/cpu/rowfunc_misc.go.
//
//	name          args (after casts)                result
//	interval      n, n1..nk DOUBLE                  BIGINT: the number of ni <= n before the first
//	                                                ni > n (MySQL's linear scan; the ni are meant
//	                                                to ascend); a NULL ni reads as 0; n NULL gives -1
//	period_add    p BIGINT, n BIGINT                BIGINT YYYYMM: period p (YYMM or YYYYMM; YY < 70
//	                                                is 20YY) plus n months
//	period_diff   p1, p2 BIGINT                     BIGINT months from p2 to p1. A period whose
//	                                                month is not 1..12, or negative, is an error
//	get_format    selector VARCHAR const, s VARCHAR VARCHAR: the DATE_FORMAT pattern of
//	                                                'USA' / 'JIS' / 'ISO' / 'EUR' / 'INTERNAL' for
//	                                                DATE, TIME or DATETIME (TIMESTAMP); another
//	                                                name gives NULL
//	random_bytes  n BIGINT                          VARCHAR (binary) of n random bytes from the
//	                                                OS's generator; n outside 1..1024 is an error
//	format_bytes  x DOUBLE                          VARCHAR: '%4d bytes' below 1 KiB, else x in the
//	                                                largest binary unit it reaches, '%4.2f KiB'
//	                                                (%4.2e from 100000 units on), up to EiB
//	format_pico_time x DOUBLE                       VARCHAR: picoseconds as '%3d ps', else in the
//	                                                largest of ns, us, ms, s, min, h, d as format_bytes
func init() {
	for _, n := range []string{"interval", "period_add", "period_diff", "get_format", "random_bytes",
		"format_bytes", "format_pico_time"} {
		moreFuncs[n] = true
	}
	VolatileFuncs["random_bytes"] = true
}

// miscFunc binds the functions above but GET_FORMAT, and CURRENT_ROLE.
func (c *call) miscFunc() (Expr, bool, error) {
	switch c.name {
	case "interval":
		if err := c.nativeArity(2, -1); err != nil {
			return nil, true, err
		}
		for i, a := range c.args {
			if _, ok := numericType(a.Type()); !ok && !isNullConst(a) && a.Type().ID != columnar.String {
				return nil, true, c.b.errf(c.pos, "type mismatch: interval() of %s (a number is required)", a.Type())
			}
			c.args[i] = castTo(a, columnar.TFloat64)
		}
		return c.fn(columnar.TInt64, c.args...)
	case "format_bytes", "format_pico_time":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		x := c.args[0]
		if _, ok := numericType(x.Type()); !ok && !isNullConst(x) && x.Type().ID != columnar.String {
			return nil, true, c.b.errf(c.pos, "type mismatch: %s() of %s (a number is required)", c.name, x.Type())
		}
		return c.fn(columnar.TString, castTo(x, columnar.TFloat64))
	case "current_role":
		// gpusql has no roles, so none is ever active: MySQL's answer then.
		if err := c.nativeArity(0, 0); err != nil {
			return nil, true, err
		}
		return &Const{T: columnar.TString, S: "NONE"}, true, nil
	case "period_add", "period_diff":
		if err := c.nativeArity(2, 2); err != nil {
			return nil, true, err
		}
		a, err := c.wholeNumber(c.args[0])
		if err != nil {
			return nil, true, err
		}
		n, err := c.wholeNumber(c.args[1])
		if err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt64, a, n)
	case "random_bytes":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		n, err := c.wholeNumber(c.args[0])
		if err != nil {
			return nil, true, err
		}
		c.b.volatile("RANDOM_BYTES()")
		return c.fn(columnar.TString, n)
	}
	return nil, false, nil
}

// getFormat binds GET_FORMAT({DATE|TIME|DATETIME|TIMESTAMP}, s).
func (b *binder) getFormat(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	if len(n.Args) != 2 {
		return nil, b.errf(pos, "Incorrect parameter count in the call to native function 'get_format'")
	}
	sel, ok := n.Args[0].(*ast.GetFormatSelectorExpr)
	if !ok {
		return nil, b.errf(pos, "get_format() needs DATE, TIME, DATETIME or TIMESTAMP first")
	}
	s, err := b.expr(n.Args[1], sc)
	if err != nil {
		return nil, err
	}
	kind := &Const{T: columnar.TString, S: sel.Selector.String()}
	if c, ok := s.(*Const); ok && c.T.ID == columnar.String {
		// A constant: STR_TO_DATE(s, GET_FORMAT(DATE, 'USA')) takes its
		// type from the format, as MySQL's (a constant item there too).
		if f, ok := GetFormat(kind.S, c.S); ok && !c.Null {
			return &Const{T: columnar.TString, S: f}, nil
		}
	}
	return &Func{Name: "get_format", Args: []Expr{kind, castTo(s, columnar.TString)}, T: columnar.TString}, nil
}

// getFormats are GET_FORMAT's patterns (MySQL's manual, Date and Time
// Functions), by selector and standard.
var getFormats = map[string]map[string]string{
	"DATE": {"USA": "%m.%d.%Y", "JIS": "%Y-%m-%d", "ISO": "%Y-%m-%d", "EUR": "%d.%m.%Y", "INTERNAL": "%Y%m%d"},
	"DATETIME": {"USA": "%Y-%m-%d %H.%i.%s", "JIS": "%Y-%m-%d %H:%i:%s", "ISO": "%Y-%m-%d %H:%i:%s",
		"EUR": "%Y-%m-%d %H.%i.%s", "INTERNAL": "%Y%m%d%H%i%s"},
	"TIME": {"USA": "%h:%i:%s %p", "JIS": "%H:%i:%s", "ISO": "%H:%i:%s", "EUR": "%H.%i.%s", "INTERNAL": "%H%i%s"},
}

// GetFormat is GET_FORMAT(selector, standard): ok is false for NULL.
func GetFormat(selector, standard string) (string, bool) {
	f, ok := getFormats[selector][strings.ToUpper(standard)]
	return f, ok
}
