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
