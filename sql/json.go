package sql

import (
	"fmt"

	"gpusql/storage/columnar"
)

// JSON values and functions, as MySQL 8 computes them. A JSON value is
// text in MySQL's normalized form (internal/mysqljson) typed
// columnar.TJSON; exec/cpu parses it where a function needs its
// structure, row by row (expr_rowfunc.go, rowfunc_json.go), and the
// planner keeps plans that touch JSON on the CPU (planner/gpu_type_refusal.go).
//
// A document argument is a JSON value or a string holding JSON text
// (checked per row: "Invalid JSON text in argument 1 to function
// json_extract: ..."); other types are refused when bound, as MySQL does.
// A value argument (JSON_OBJECT/JSON_ARRAY members, what JSON_SET writes,
// the left of MEMBER OF) becomes JSON as MySQL converts SQL values:
// strings become JSON strings, numbers keep their kind, BOOLEAN is
// true/false, DATE and DATETIME their text, NULL null (to_json below).
//
//	json_extract(doc, path...)        JSON; with one wildcard-free path the value, else an
//	                                  array of every match (NULL when none). j->'p' is
//	                                  json_extract(j, 'p'), j->>'p' json_unquote of it
//	json_unquote(s)                   VARCHAR: a JSON string's characters, other text as is
//	json_quote(s)                     VARCHAR: s as a JSON string literal
//	json_object(k, v, ...)            JSON object (NULL key: error)
//	json_array(v, ...)                JSON array (a DECIMAL member becomes a double: see mysqljson.Value)
//	json_type(doc)                    VARCHAR: OBJECT, ARRAY, INTEGER, DOUBLE, STRING...
//	json_valid(s)                     BIGINT 1/0 (0 for a value that is not text)
//	json_length(doc[, path])          BIGINT; json_depth(doc) BIGINT
//	json_keys(doc[, path])            JSON array of an object's keys (NULL otherwise)
//	json_contains(doc, cand[, path])  BIGINT; json_contains_path(doc, 'one'|'all', path...)
//	json_search(doc, 'one'|'all', pattern[, escape[, path...]])  JSON path(s) of the LIKE matches
//	json_set, json_insert, json_replace (doc, path, v, ...), json_remove(doc, path...),
//	json_array_append, json_array_insert (doc, path, v, ...)    JSON
//	json_value(doc, path)             VARCHAR: the scalar at path unquoted, NULL for none or
//	                                  an object or array (MySQL's default NULL ON ERROR;
//	                                  RETURNING is not supported)
//	json_merge_patch, json_merge_preserve (json_merge) (doc, doc, ...)   JSON
//	json_pretty(doc)                  VARCHAR, one member per line
//	v MEMBER OF(doc)                  BIGINT (json_memberof); json_overlaps(a, b) BIGINT
//	CAST(x AS JSON)                   JSON (cast_as_json): a string must be JSON text
//
// Comparisons (=, <, <=>...) with a JSON side follow MySQL's JSON ordering
// (jsonCompare), and so do ORDER BY (orderKey) and MIN / MAX
// (exec/cpu/aggregate_json.go); IN and BETWEEN over JSON, which MySQL
// does not define, are refused. GROUP BY and DISTINCT compare the
// normalized text, so 1 and 1.0 stay apart where MySQL joins them.
var jsonFuncs = map[string]bool{}

// jsonResult is each function's result type, with its argument count
// (least, most; -1 any).
var jsonResult = map[string]struct {
	t      columnar.Type
	lo, hi int
}{
	"json_extract": {columnar.TJSON, 2, -1}, "json_unquote": {columnar.TString, 1, 1},
	"json_quote": {columnar.TString, 1, 1}, "json_object": {columnar.TJSON, 0, -1},
	"json_array": {columnar.TJSON, 0, -1}, "json_type": {columnar.TString, 1, 1},
	"json_valid": {columnar.TInt64, 1, 1}, "json_length": {columnar.TInt64, 1, 2},
	"json_depth": {columnar.TInt64, 1, 1}, "json_keys": {columnar.TJSON, 1, 2},
	"json_contains": {columnar.TInt64, 2, 3}, "json_contains_path": {columnar.TInt64, 3, -1},
	"json_search": {columnar.TJSON, 3, -1}, "json_set": {columnar.TJSON, 3, -1},
	"json_insert": {columnar.TJSON, 3, -1}, "json_replace": {columnar.TJSON, 3, -1},
	"json_remove": {columnar.TJSON, 2, -1}, "json_array_append": {columnar.TJSON, 3, -1},
	"json_array_insert": {columnar.TJSON, 3, -1}, "json_value": {columnar.TString, 2, 2},
	"json_merge_patch": {columnar.TJSON, 2, -1}, "json_merge_preserve": {columnar.TJSON, 2, -1},
	"json_pretty": {columnar.TString, 1, 1}, "json_memberof": {columnar.TInt64, 2, 2},
	"json_overlaps": {columnar.TInt64, 2, 2}, "json_storage_size": {columnar.TInt64, 1, 1},
	"json_storage_free": {columnar.TInt64, 1, 1}, "json_merge": {columnar.TJSON, 2, -1},
	"json_value_missing": {columnar.TString, 0, 0},
	"cast_as_json":       {columnar.TJSON, 1, 1}, "to_json": {columnar.TJSON, 1, 1},
	"json_compare": {columnar.TInt64, 2, 2}, "json_sort_key": {columnar.TString, 1, 1},
}

// internalJSONFuncs are bound by the binder itself (value conversion,
// CAST, comparisons, ORDER BY keys), not callable by name.
var internalJSONFuncs = map[string]bool{"to_json": true, "cast_as_json": true, "json_compare": true, "json_sort_key": true}

func init() {
	for n := range jsonResult {
		jsonFuncs[n] = true
	}
}

// IsJSONNullSafe reports the JSON functions whose bodies see NULL
// arguments: a NULL member becomes null, a NULL key is an error, and
// JSON_SEARCH's NULL escape character is the default '\'.
func IsJSONNullSafe(name string) bool {
	return name == "to_json" || name == "json_object" || name == "json_search"
}

// jsonFunc binds the functions above.
func (c *call) jsonFunc() (Expr, bool, error) {
	r, ok := jsonResult[c.name]
	if !ok || internalJSONFuncs[c.name] {
		return nil, false, nil
	}
	if err := c.arity(r.lo, r.hi); err != nil {
		return nil, true, err
	}
	if a := c.args; c.name == "json_valid" && !isNullConst(a[0]) && a[0].Type().ID != columnar.String {
		// MySQL: only text or JSON can be JSON text; a number is 0 (even NULL).
		return &Const{T: columnar.TInt64}, true, nil
	}
	if err := c.jsonArgs(); err != nil {
		return nil, true, err
	}
	return c.fn(r.t, c.args...)
}

// jsonArgs checks the argument count's shape and converts each argument
// to what the function reads: documents, paths and strings, or values.
func (c *call) jsonArgs() error {
	n := len(c.args)
	pairs := func(first int) error {
		if (n-first)%2 != 0 {
			return c.b.errf(c.pos, "Incorrect parameter count in the call to native function '%s'", c.name)
		}
		return nil
	}
	for i := range c.args {
		kind := c.jsonArgKind(i)
		switch kind {
		case 'd':
			d, err := c.jsonDoc(i)
			if err != nil {
				return err
			}
			c.args[i] = d
		case 'v':
			c.args[i] = jsonValue(c.args[i])
		case 'r':
			if t := c.args[i].Type(); t.ID == columnar.Vector {
				return c.b.errf(c.pos, "type mismatch: %s() of %s", c.name, t)
			}
		default:
			if !isJSON(c.args[i]) { // JSON text is read as the string it is
				c.args[i] = c.str(c.args[i])
			}
		}
	}
	switch c.name {
	case "json_object":
		return pairs(0)
	case "json_set", "json_insert", "json_replace", "json_array_append", "json_array_insert":
		return pairs(1)
	}
	return nil
}

// jsonArgKind says how argument i is read: 'd' a document, 'v' a value
// made JSON, 'r' any SQL value read as JSON by the body, 's' a string
// (paths, 'one'/'all', patterns, keys).
func (c *call) jsonArgKind(i int) byte {
	switch c.name {
	case "json_object":
		if i%2 == 1 {
			return 'v'
		}
		return 's'
	case "json_array":
		return 'v'
	case "json_set", "json_insert", "json_replace", "json_array_append", "json_array_insert":
		if i > 0 && i%2 == 0 {
			return 'v'
		}
	case "json_contains", "json_overlaps", "json_merge_patch", "json_merge_preserve", "json_merge":
		if i <= 1 || c.name != "json_contains" {
			return 'd'
		}
	case "json_memberof":
		if i == 0 {
			return 'r' // compared as a comparison's side: NULL stays NULL
		}
		return 'd'
	case "json_unquote", "json_quote", "json_valid":
		return 's'
	}
	if i == 0 {
		return 'd'
	}
	return 's'
}

// jsonDoc is argument i as a document: a JSON value, or a string checked
// per row.
func (c *call) jsonDoc(i int) (Expr, error) {
	e := c.args[i]
	switch {
	case isNullConst(e):
		return nullConst(columnar.TString), nil
	case e.Type().ID == columnar.String:
		return e, nil
	}
	return nil, c.b.errf(c.pos, "Invalid data type for JSON data in argument %d to function %s; a JSON string or JSON type is required.", i+1, c.name)
}

// jsonValue is e as a JSON member value (to_json): never NULL, an SQL
// NULL (also of a JSON expression) being JSON null.
func jsonValue(e Expr) Expr {
	return &Func{Name: "to_json", Args: []Expr{e}, T: columnar.TJSON}
}

// castToJSON is CAST(e AS JSON) and every conversion of a non-JSON value
// into a JSON column: a string must be JSON text.
func castToJSON(e Expr) Expr {
	if isNullConst(e) {
		return nullConst(columnar.TJSON)
	}
	return &Func{Name: "cast_as_json", Args: []Expr{e}, T: columnar.TJSON}
}

// jsonCompare is l op r where either side is JSON, as MySQL compares
// JSON: the other side becomes JSON as a value argument does (a string is
// a JSON string, so j->'$.name' = 'ann' holds), then the two are ordered
// by mysqljson.Compare (type precedence, then value). json_compare gives
// -1, 0 or 1, NULL when either side is SQL NULL.
func (b *binder) jsonCompare(op BinOp, l, r Expr, pos int) (Expr, error) {
	for _, e := range []Expr{l, r} {
		if e.Type().ID == columnar.Vector {
			return nil, b.errf(pos, "type mismatch: comparison of JSON and %s", e.Type())
		}
	}
	cmp := &Func{Name: "json_compare", Args: []Expr{l, r}, T: columnar.TInt64}
	return &Binary{Op: op, L: cmp, R: &Const{T: columnar.TInt64}, T: columnar.TBool}, nil
}

// orderKey is what an ORDER BY of e sorts: e itself, or for a JSON value
// its mysqljson.SortKey, whose byte order is MySQL's JSON ordering.
func orderKey(e Expr) Expr {
	if isEnum(e) {
		return enumNumber(e) // MySQL sorts an ENUM by index, a SET by bitmask
	}
	if name, _ := collationOf(e); name != "" {
		return collationKey(e, name)
	}
	if !isJSON(e) {
		return e
	}
	return &Func{Name: "json_sort_key", Args: []Expr{e}, T: columnar.TString}
}

// jsonCompareError refuses what MySQL does not define for JSON values.
func jsonCompareError(what string) string {
	return "unsupported: " + what + " of a JSON value: use the text, j->>'$.key', or a number, CAST(j->>'$.key' AS SIGNED)"
}

// refuseJSONCompare is the error for IN or BETWEEN over JSON values,
// which MySQL's manual lists as not supported for JSON (its answers there
// are not JSON comparisons).
func (b *binder) refuseJSONCompare(pos int, what string, es ...Expr) error {
	for _, e := range es {
		if isJSON(e) {
			return b.errf(pos, "%s", jsonCompareError(what))
		}
	}
	return nil
}

// isJSON reports a JSON-typed expression.
func isJSON(e Expr) bool { return e != nil && e.Type().JSON }

// jsonStoreError is MySQL's refusal of a non-string constant stored into
// a JSON column: only text (or a JSON value) is JSON.
func jsonStoreError(table, col string, row int) string {
	return fmt.Sprintf("Invalid JSON text: \"not a JSON text, may need CAST\" at position 0 in value for column '%s.%s' at row %d", table, col, row)
}
