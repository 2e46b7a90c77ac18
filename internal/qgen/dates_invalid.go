package qgen

import "fmt"

// Invalid dates. MySQL reads a string that names no date ('2023-02-29', a
// day past its month's end, month 13) as NULL where a function wants a
// date, with warning 1292; SQLite's date functions normalize it instead
// (date('2024-02-30') is '2024-03-01'). So the shapes here take such a
// literal and are NULL in SQLite's words:
//
//	DATE_ADD(bad, INTERVAL n DAY), LAST_DAY(bad)   NULL
//	DATEDIFF(bad, x), DATEDIFF(x, bad)             NULL + julianday(x)
//
// Only functions whose NULL for an invalid date is certain are used: the
// part functions (YEAR, DAYOFMONTH) read their argument fuzzily.

var invalidDates = []string{"'2023-02-29'", "'2024-04-31'", "'2024-13-01'", "'2024-02-30'", "'1900-02-29'", "'2024-06-31'"}

// invalidDate is a DATE-valued call on an invalid date: NULL.
func (g *Gen) invalidDate() *Node {
	bad := invalidDates[g.r.Intn(len(invalidDates))]
	if g.pct(50) {
		return lit(TDate, "LAST_DAY("+bad+")").lite("NULL")
	}
	return lit(TDate, fmt.Sprintf("DATE_ADD(%s, INTERVAL %d DAY)", bad, g.r.Intn(5))).lite("NULL")
}

// invalidDateDiff is DATEDIFF with one invalid date: NULL, the other
// argument still evaluated.
func (g *Gen) invalidDateDiff(sc *scope, d int) *Node {
	bad := invalidDates[g.r.Intn(len(invalidDates))]
	form := "DATEDIFF(" + bad + ", @)"
	if g.pct(50) {
		form = "DATEDIFF(@, " + bad + ")"
	}
	n := mk(TInt, form, g.dateExpr(sc, d+1)).lite("(NULL + julianday(@))")
	n.Bound = 1
	return n
}
