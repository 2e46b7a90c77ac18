package engine

import (
	"gpusql/exec"
	"gpusql/internal/decimal"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// YEAR and TIME columns take computed values (INSERT ... SELECT, UPDATE,
// VALUES rows with expressions) unconverted from the binder (sql.storeCast)
// and convert each here, so a value that is no YEAR or TIME fails the
// statement naming its row, as MySQL's strict mode does, where a cast
// would give NULL.

// yearsInto stores computed values into a YEAR column, converting each by
// MySQL's rules (sql.YearValue: '69' and 69 are 2069, a DATE its year); a
// value that is no YEAR fails the statement, naming its row (strict mode).
func yearsInto(out *columnar.Column, m int, src *columnar.Column, n int) error {
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		y, ok := yearOf(src, i)
		if !ok {
			return &rowError{row: i, value: exec.FormatValue(src, i), typ: out.Type}
		}
		out.I32[m+i] = y
	}
	return nil
}

// yearOf is row i of src as a YEAR; ok is false where no YEAR holds it.
func yearOf(src *columnar.Column, i int) (int32, bool) {
	iv, fv, sv := rawValue(src, i)
	st := src.Type
	if st.IsWide() {
		// A DECIMAL of over 18 digits holds no int64: its value rounded
		// to an integer, or none for a value past any YEAR.
		x, inRange := wideValue(src, i, 0)
		var fits bool
		if iv, fits = decimal.Int64(x); !inRange || !fits {
			return 0, false
		}
		st = columnar.TInt64
	}
	return sql.YearValue(iv, fv, sv, st)
}

// timesInto stores computed values into a TIME column, converting each as
// a cast does (sql.TimeValue: '10:20:30', 102030, a DATETIME's time of
// day); a value that is no TIME fails the statement, naming its row
// (strict mode), rather than becoming NULL.
func timesInto(out *columnar.Column, m int, src *columnar.Column, n int) error {
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		iv, fv, sv := rawValue(src, i)
		st := src.Type
		if st.IsWide() {
			// A DECIMAL of over 18 digits read at TIME's finest scale
			// (microseconds): one past int64 there is past any TIME.
			x, inRange := wideValue(src, i, 6)
			var fits bool
			if iv, fits = decimal.Int64(x); !inRange || !fits {
				return &rowError{row: i, value: exec.FormatValue(src, i), typ: out.Type}
			}
			st = columnar.TDecimal(18, 6)
		}
		us, ok := sql.TimeValue(iv, fv, sv, st, out.Type)
		if !ok {
			return &rowError{row: i, value: exec.FormatValue(src, i), typ: out.Type}
		}
		out.I64[m+i] = us
	}
	return nil
}

// rawValue is row i of src as the one Go value its storage holds: a string,
// a float64, or an integer (int32 and int64 widened).
func rawValue(src *columnar.Column, i int) (iv int64, fv float64, sv string) {
	switch st := src.Type; {
	case st.ID == columnar.String:
		sv = src.StringAt(i)
	case st.Physical() == columnar.PhysFloat64:
		fv = src.F64[i]
	case st.Physical() == columnar.PhysInt64:
		iv = src.I64[i]
	case st.Physical() == columnar.PhysInt32:
		iv = int64(src.I32[i])
	}
	return iv, fv, sv
}
