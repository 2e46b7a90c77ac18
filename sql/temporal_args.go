package sql

import (
	"gpusql/storage/columnar"
)

// Date and time functions read their arguments as MySQL does ("Date and
// Time Functions", "Conversion Between Date and Time Types" in the MySQL
// 8.0 manual):
//
//   - a number is a date written as YYYYMMDD, YYMMDD or YYYYMMDDHHMMSS:
//     MONTH(20240506) is 5, TO_DAYS(950501) is 728779;
//   - a string that is no valid date (LAST_DAY('2003-03-32'),
//     DAYNAME('2023-02-29')) makes the function NULL with warning 1292
//     (Incorrect datetime value: '2003-03-32'), as any other string read
//     per row does: the cast is left to the executor, which notes it.
//
// Literals (DATE '2003-03-32') and comparisons keep failing at once.

// lenientDateArg converts a function argument to DATE; ok is false for a
// type no date is read from.
func lenientDateArg(e Expr) (Expr, bool) {
	switch t := e.Type(); {
	case isNullConst(e):
		return nullConst(columnar.TDate), true
	case t.ID == columnar.Date:
		return e, true
	case t.ID == columnar.Datetime:
		return datePartOf(e), true
	case t.ID == columnar.String && !t.JSON:
		return castTo(e, columnar.TDate), true
	case isDateNumber(t):
		return castTo(e, columnar.TDate), true
	}
	return nil, false
}

// isDateNumber reports a number type a date may be written in.
func isDateNumber(t columnar.Type) bool {
	switch t.ID {
	case columnar.Int32, columnar.Int64, columnar.Decimal, columnar.Float64:
		return !t.Year && !t.IsBigUnsigned()
	}
	return false
}
