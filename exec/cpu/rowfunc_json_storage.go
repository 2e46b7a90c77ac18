package cpu

import "gpusql/internal/mysqljson"

// JSON_STORAGE_SIZE is the bytes of MySQL's binary encoding of the
// document (mysqljson.StorageSize); JSON_STORAGE_FREE, the space a
// partial update left in a JSON column, is 0: gpusql rewrites a document
// whole. Both parse their argument first, so invalid JSON text is
// MySQL's error.
func init() {
	jsonBodies["json_storage_size"] = func(f *rowFunc, a []val) val {
		return iv(mysqljson.StorageSize(f.jsonDoc(a, 0)))
	}
	jsonBodies["json_storage_free"] = func(f *rowFunc, a []val) val {
		f.jsonDoc(a, 0)
		return iv(0)
	}
}

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
