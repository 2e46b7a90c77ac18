package cpu

import "errors"

// JSON_MERGE is JSON_MERGE_PRESERVE under its deprecated name, which
// MySQL 8 answers with warning 1287 (once for each call in the statement).
func init() {
	preserve := jsonBodies["json_merge_preserve"]
	jsonBodies["json_merge"] = func(f *rowFunc, a []val) val {
		f.warn.AddOnce(f.expr, warnDeprecatedSyntax, "'JSON_MERGE' is deprecated and will be removed in a future release. Please use JSON_MERGE_PRESERVE/JSON_MERGE_PATCH instead")
		return preserve(f, a)
	}
}

// warnDeprecatedSyntax is MySQL's ER_WARN_DEPRECATED_SYNTAX.
const warnDeprecatedSyntax uint16 = 1287

// JSON_VALUE_MISSING() is JSON_VALUE's ERROR ON EMPTY (sql/json_value_returning.go):
// MySQL's ER_MISSING_JSON_VALUE, raised where a row has no value at the path.
func init() {
	jsonBodies["json_value_missing"] = func(f *rowFunc, a []val) val {
		raise(errors.New("No value was found by 'json_value' on the specified path."))
		return nullVal
	}
}
