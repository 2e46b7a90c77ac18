package engine

import (
	"regexp"
	"strconv"

	"gpusql/storage/columnar"
)

// parquetRange finds the row and column of a Parquet loader's range error
// ("load f.parquet row 3, column 1 (a): 300 is out of range for
// TINYINT"); the greedy prefix takes the last "row", past any in the path.
var parquetRange = regexp.MustCompile(`^load .* row (\d+), column (\d+) \(.*\): .* is out of range for `)

// parquetFieldError is a Parquet value its column cannot hold as MySQL's
// strict LOAD DATA gives a field past the column's range: 1264 Out of
// range value for column 'a' at row 3, the loader's message in the
// detail. Without it the loader's text read as a CAST's 1690 (DECIMAL
// value is out of range). The loader (storage/columnar) returns no typed
// error for it, so its message, which names row and column, is read.
func parquetFieldError(err error, t *columnar.Table) error {
	m := parquetRange.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	row, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	if col < 1 || col > len(t.Fields) {
		return err
	}
	e := outOfRangeError(t.Fields[col-1], row)
	e.Detail = err.Error()
	return e
}
