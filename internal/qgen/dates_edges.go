package qgen

import "fmt"

// Date arithmetic at the edges of years, months and MySQL's DATE range,
// in SQLite's words:
//
//	DATE_ADD(e, INTERVAL n DAY)    date(e, '+n days'), e one of the edge
//	                               dates below
//	DATE_ADD(x, INTERVAL n MONTH)  the smaller of x's day in the month n
//	(or n YEAR: 12n months)        months on and that month's last day:
//	                               MySQL clamps 2024-01-31 + 1 month to
//	                               2024-02-29 and 2024-02-29 + 1 year to
//	                               2025-02-28, where SQLite's date()
//	                               alone would carry into March
//
// The edge dates are year ends and starts and the last days of February
// in leap and common centuries (2000 is a leap year, 1900 and 2100 are
// not). The ends of DATE's range are left out, as any date a step can
// carry out of 0001..9998: whatever takes the result may step again, and
// there SQLite and MySQL part (SQLite's date() runs into year 10000 where
// MySQL's LAST_DAY('9999-12-31') does not; a DAY step into year 0 is
// 0000-00-00 in MySQL, a value gpusql's DATE does not hold, and MySQL
// counts year 0 as a common year where SQLite has a 0000-02-29).
var edgeDates = []struct {
	date        string
	least, most int // the DAY steps to take
}{
	{"'1999-12-31'", -3, 3}, {"'2000-01-01'", -3, 3}, {"'2000-02-28'", -3, 3}, {"'2000-02-29'", -3, 3},
	{"'1900-02-28'", -3, 3}, {"'2100-02-28'", -3, 3}, {"'2023-12-31'", -400, 400}, {"'1600-03-01'", -3, 3},
}

// edgeDate is DATE_ADD of an edge date, or a month step of any date.
func (g *Gen) edgeDate(sc *scope, d int) *Node {
	if g.pct(50) {
		e := edgeDates[g.r.Intn(len(edgeDates))]
		n := e.least + g.r.Intn(e.most-e.least+1)
		x := lit(TDate, e.date)
		if g.pct(30) {
			x = lit(TDate, "DATE "+e.date).lite(e.date)
		}
		return mk(TDate, fmt.Sprintf("DATE_ADD(@, INTERVAL %d DAY)", n), x).lite(fmt.Sprintf("date(@, '%+d days')", n))
	}
	months, unit := g.r.Intn(27)-13, "MONTH"
	if g.pct(30) {
		months, unit = 12*(g.r.Intn(5)-2), "YEAR"
	}
	step := months
	if unit == "YEAR" {
		step = months / 12
	}
	n := mk(TDate, fmt.Sprintf("DATE_ADD(@, INTERVAL %d %s)", step, unit), g.dateExpr(sc, d+1)).
		lite(fmt.Sprintf("min(date(@, 'start of month', '%+d months', '+' || (CAST(strftime('%%d', @) AS INTEGER) - 1) || ' days'), "+
			"date(@, 'start of month', '%+d months', '-1 day'))", months, months+1))
	n.Op = "repeat"
	return n
}
