package engine

import (
	"errors"
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// mysqlError is e as MySQL's error of the same store, with its number (so
// a MySQL client gets MySQL's text and code): 1264 "Out of range value for
// column 'c' at row n" for a number, 1292 "Incorrect datetime value" /
// "Incorrect time value" for a DATETIME or TIME, with the value gpusql
// could not store as detail, 1366 / 1265 for text into a YEAR; nil
// where gpusql's wording stays (a YEAR out of range).
func (e *rowError) mysqlError() *sql.Error {
	if e.column == "" {
		return nil
	}
	if e.typ.Year {
		// Text that is no number, or more than one: 1366 / 1265; 1264
		// keeps gpusql's wording, which says why.
		if _, code := sql.YearTextStore(e.value); code != 0 && code != sql.WarnOutOfRange {
			return sql.Errorf(code, "%s", sql.YearStoreMessage(code, e.value, e.column, e.row+1))
		}
		return nil
	}
	switch e.typ.ID {
	case columnar.Datetime:
		return sql.Errorf(sql.ErTruncatedWrongValue, "Incorrect datetime value: '%s' for column '%s' at row %d", e.value, e.column, e.row+1)
	case columnar.Date:
		return sql.Errorf(sql.ErTruncatedWrongValue, "Incorrect date value: '%s' for column '%s' at row %d", e.value, e.column, e.row+1)
	case columnar.Time:
		return sql.Errorf(sql.ErTruncatedWrongValue, "Incorrect time value: '%s' for column '%s' at row %d", e.value, e.column, e.row+1)
	case columnar.Int32, columnar.Int64, columnar.Decimal, columnar.Float64:
		return sql.OutOfRangeStore(e.typ, e.column, e.row+1, e.value)
	}
	return nil
}

// storeError is err, a failure to store src's values into field f, as
// MySQL's error with its code, naming row rowOf(i) for src's row i
// (UPDATE: the table's row; ON DUPLICATE KEY UPDATE: the inserted row).
func storeError(err error, f columnar.Field, rowOf func(int) int) error {
	var re *rowError
	var se *columnar.StringError
	switch {
	case errors.As(err, &re):
		at := *re
		at.row = rowOf(re.row) - 1
		if m := at.mysqlError(); m != nil {
			return m
		}
		if f.Type.Year {
			return &at // gpusql's text, which says why, with MySQL's 1264 (MySQLError)
		}
		return sql.OutOfRangeStore(f.Type, f.Name, at.row+1, re.value)
	case errors.As(err, &se):
		return se.At("", f.Name, rowOf(se.Row-1))
	}
	return fmt.Errorf("column '%s': %w", f.Name, err)
}

// MySQLError is MySQL's code and text for a YEAR out of range, 1264, whose
// gpusql text (Error) says why; sql.MySQLCode reads it.
func (e *rowError) MySQLError() (uint16, string) {
	if m := e.mysqlError(); m != nil {
		return m.Code, m.Msg
	}
	if e.typ.Year && e.column != "" {
		return sql.ErWarnDataOutOfRange, fmt.Sprintf("Out of range value for column '%s' at row %d", e.column, e.row+1)
	}
	return 0, ""
}
