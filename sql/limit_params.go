package sql

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// A '?' in LIMIT or OFFSET takes a non-negative integer, as MySQL's
// prepared statements type it (an unsigned integer parameter): a string of
// digits ('10', what PHP and many drivers send) is read as its number,
// while a negative number, a fraction, NULL or other text is MySQL's 1210
// Incorrect arguments to EXECUTE (mysqld_stmt_execute in the binary
// protocol). Written as a string literal, LIMIT '2' would be a syntax
// error, which MySQL never gives here.

// limitPlaceholders is the set of query's placeholders, by order from 0,
// that stand for a LIMIT row count or offset. A prepared statement runs
// many times: its answer is kept, so its text is parsed once more at most.
func limitPlaceholders(query string) map[int]bool {
	if !strings.Contains(strings.ToLower(query), "limit") {
		return nil
	}
	limitCache.mu.Lock()
	set, ok := limitCache.m[query]
	limitCache.mu.Unlock()
	if ok {
		return set
	}
	set = findLimitPlaceholders(query)
	limitCache.mu.Lock()
	if len(limitCache.m) >= 1024 { // bounded: a new start now and then
		limitCache.m = map[string]map[int]bool{}
	}
	limitCache.m[query] = set
	limitCache.mu.Unlock()
	return set
}

// limitCache keeps limitPlaceholders' answers by query text.
var limitCache = struct {
	mu sync.Mutex
	m  map[string]map[int]bool
}{m: map[string]map[int]bool{}}

func findLimitPlaceholders(query string) map[int]bool {
	ps, err := Parse(query)
	if err != nil || len(ps) != 1 {
		return nil
	}
	v := &limitParamVisitor{limit: map[int]bool{}}
	ps[0].Node.Accept(v)
	if len(v.limit) == 0 {
		return nil
	}
	// The parser leaves Order 0; a marker's order is its rank by offset.
	slices.Sort(v.all)
	set := map[int]bool{}
	for i, off := range v.all {
		if v.limit[off] {
			set[i] = true
		}
	}
	return set
}

// limitParamVisitor collects the offsets of every placeholder (all) and
// of those in a LIMIT (limit).
type limitParamVisitor struct {
	all   []int
	limit map[int]bool
}

func (v *limitParamVisitor) Enter(n ast.Node) (ast.Node, bool) {
	switch n := n.(type) {
	case *driver.ParamMarkerExpr:
		v.all = append(v.all, n.Offset)
	case *ast.Limit:
		for _, e := range []ast.ExprNode{n.Count, n.Offset} {
			if p, ok := e.(*driver.ParamMarkerExpr); ok {
				v.limit[p.Offset] = true
			}
		}
	}
	return n, false
}

func (v *limitParamVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// limitLiteral is a LIMIT parameter's value as the integer literal it
// stands for, or MySQL's 1210 naming the statement that executes it.
func limitLiteral(v any, stmt string) (string, error) {
	ok := false
	var n uint64
	switch r := reflect.ValueOf(v); {
	case r.CanInt():
		v = r.Int()
	case r.CanUint():
		v = r.Uint()
	case r.CanFloat():
		v = r.Float()
	}
	switch v := v.(type) {
	case int64:
		n, ok = uint64(v), v >= 0
	case uint64:
		n, ok = v, true
	case float64:
		n, ok = uint64(v), v >= 0 && v == math.Trunc(v) && v < 1<<64
	case []byte:
		n, ok = digits(string(v))
	case string:
		n, ok = digits(v)
	}
	if !ok {
		lit, _ := Literal(v)
		return "", &Error{Code: ErWrongArguments, Msg: "Incorrect arguments to " + stmt,
			Detail: fmt.Sprintf("LIMIT ? takes a non-negative integer, not %s", lit)}
	}
	return strconv.FormatUint(n, 10), nil
}

// digits reads a string parameter of LIMIT: decimal digits, spaces around
// them allowed.
func digits(s string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// constValue is a bound variable's value as SubstituteParams' arguments
// carry it (for limitLiteral).
func constValue(c *Const) any {
	switch {
	case c.Null:
		return nil
	case c.T.ID == columnar.String:
		return c.S
	case c.T.ID == columnar.Float64:
		return c.F
	case c.T.IsInteger() && c.T.Unsigned:
		return uint64(c.I)
	case c.T.IsInteger():
		return c.I
	}
	f, _ := strconv.ParseFloat(constString(c), 64) // a DECIMAL: whole or not
	return f
}
