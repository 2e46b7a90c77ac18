package sql

import (
	"fmt"

	"gpusql/storage/columnar"
)

// JSON values and functions, as MySQL 8 computes them. A JSON value is
// text in MySQL's normalized form (internal/mysqljson) typed
// columnar.TJSON; exec/cpu parses it where a function needs its
// structure, row by row (expr_rowfunc.go, rowfunc_json.go), and the
// planner keeps plans that touch JSON on the CPU (gpu_json_refusal.go).
//
// A document argument is a JSON value or a string holding JSON text
// (checked per row: "Invalid JSON text in argument 1 to function
// json_extract: ..."); other types are refused when bound, as MySQL does.
// A value argument (JSON_OBJECT/JSON_ARRAY members, what JSON_SET writes,
// the left of MEMBER OF) becomes JSON as MySQL converts SQL values:
// strings become JSON strings, numbers keep their kind, BOOLEAN is
// true/false, DATE and DATETIME their text, NULL null (json_value below).
//
//	json_extract(doc, path...)        JSON; with one wildcard-free path the value, else an
//	                                  array of every match (NULL when none). j->'p' is
//	                                  json_extract(j, 'p'), j->>'p' json_unquote of it
//	json_unquote(s)                   VARCHAR: a JSON string's characters, other text as is
//	json_quote(s)                     VARCHAR: s as a JSON string literal
//	json_object(k, v, ...)            JSON object (NULL key: error)
//	json_array(v, ...)                JSON array (a DECIMAL member becomes a double: see mysqljson.Value)
//	json_type(doc)                    VARCHAR: OBJECT, ARRAY, INTEGER, DOUBLE, STRING...
//	json_valid(s)                     BIGINT 1/0
//	json_length(doc[, path])          BIGINT; json_depth(doc) BIGINT
//	json_keys(doc[, path])            JSON array of an object's keys (NULL otherwise)
//	json_contains(doc, cand[, path])  BIGINT; json_contains_path(doc, 'one'|'all', path...)
//	json_search(doc, 'one'|'all', pattern[, escape[, path...]])  JSON path(s) of the LIKE matches
//	json_set, json_insert, json_replace (doc, path, v, ...), json_remove(doc, path...),
//	json_array_append(doc, path, v, ...)    JSON
//	json_merge_patch, json_merge_preserve (json_merge) (doc, doc, ...)   JSON
//	json_pretty(doc)                  VARCHAR, one member per line
//	v MEMBER OF(doc)                  BIGINT (json_memberof); json_overlaps(a, b) BIGINT
//	CAST(x AS JSON)                   JSON (cast_as_json): a string must be JSON text
//
// Comparisons and ORDER BY of JSON values are refused (MySQL orders JSON
// by its own type precedence, which gpusql does not implement): compare
// j->>'$.k' as text or CAST it to a number.
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
	"json_merge_patch": {columnar.TJSON, 2, -1}, "json_merge_preserve": {columnar.TJSON, 2, -1},
	"json_pretty": {columnar.TString, 1, 1}, "json_memberof": {columnar.TInt64, 2, 2},
	"json_overlaps": {columnar.TInt64, 2, 2},
	"cast_as_json":  {columnar.TJSON, 1, 1}, "json_value": {columnar.TJSON, 1, 1},
}

func init() {
	for n := range jsonResult {
		jsonFuncs[n] = true
	}
}

// IsJSONNullSafe reports the JSON functions whose bodies see NULL
// arguments: a NULL member becomes null, a NULL key is an error, and
// JSON_SEARCH's NULL escape character is the default '\'.
func IsJSONNullSafe(name string) bool {
	return name == "json_value" || name == "json_object" || name == "json_search"
}

// jsonFunc binds the functions above.
func (c *call) jsonFunc() (Expr, bool, error) {
	if c.name == "json_merge" {
		c.name = "json_merge_preserve"
	}
	r, ok := jsonResult[c.name]
	if !ok || c.name == "json_value" || c.name == "cast_as_json" {
		return nil, false, nil
	}
	if err := c.arity(r.lo, r.hi); err != nil {
		return nil, true, err
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
		default:
			if !isJSON(c.args[i]) { // JSON text is read as the string it is
				c.args[i] = c.str(c.args[i])
			}
		}
	}
	switch c.name {
	case "json_object":
		return pairs(0)
	case "json_set", "json_insert", "json_replace", "json_array_append":
		return pairs(1)
	}
	return nil
}

// jsonArgKind says how argument i is read: 'd' a document, 'v' a value
// made JSON, 's' a string (paths, 'one'/'all', patterns, keys).
func (c *call) jsonArgKind(i int) byte {
	switch c.name {
	case "json_object":
		if i%2 == 1 {
			return 'v'
		}
		return 's'
	case "json_array":
		return 'v'
	case "json_set", "json_insert", "json_replace", "json_array_append":
		if i > 0 && i%2 == 0 {
			return 'v'
		}
	case "json_contains", "json_overlaps", "json_merge_patch", "json_merge_preserve":
		if i <= 1 || c.name != "json_contains" {
			return 'd'
		}
	case "json_memberof":
		if i == 0 {
			return 'v'
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

// jsonValue is e as a JSON member value (json_value): never NULL.
func jsonValue(e Expr) Expr {
	if e.Type().JSON {
		return e
	}
	return &Func{Name: "json_value", Args: []Expr{e}, T: columnar.TJSON}
}

// castToJSON is CAST(e AS JSON) and every conversion of a non-JSON value
// into a JSON column: a string must be JSON text.
func castToJSON(e Expr) Expr {
	if isNullConst(e) {
		return nullConst(columnar.TJSON)
	}
	return &Func{Name: "cast_as_json", Args: []Expr{e}, T: columnar.TJSON}
}

// jsonCompareError refuses comparing or ordering a JSON value.
func jsonCompareError(what string) string {
	return "unsupported: " + what + " of a JSON value (MySQL's JSON ordering is not implemented): use the text, j->>'$.key', or a number, CAST(j->>'$.key' AS SIGNED)"
}

// refuseJSONCompare is the error for comparing any JSON-typed es (=, <,
// IN, BETWEEN).
func (b *binder) refuseJSONCompare(pos int, es ...Expr) error {
	for _, e := range es {
		if isJSON(e) {
			return b.errf(pos, "%s", jsonCompareError("comparison"))
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
