package qgen

import "fmt"

// More date functions, in SQLite's words (dates.go has the first ones):
//
//	DATE_ADD(x, INTERVAL n WEEK)     date(x, '+7n days')
//	MAKEDATE(YEAR(x), n)             date(strftime('%Y', x) || '-01-01', '+n-1 days')
//	                                 (the pool's years are 1600-2999: no
//	                                 two-digit year, no year past 9999)
//	STR_TO_DATE(DATE_FORMAT(x, f), f) x itself, for a format f of %Y, %m
//	                                 and %d (or %j with %Y): a round trip
//	WEEK(x, 5)                       strftime('%W', x): weeks start on
//	                                 Monday, week 1 at the year's first
//	                                 Monday, days before it week 0
//	TIMESTAMPDIFF(DAY|WEEK, x, y)    julianday's difference y - x (over
//	                                 7), truncated toward zero as both do

// moreDate is a DATE from the functions above.
func (g *Gen) moreDate(sc *scope, d int) *Node {
	e := func() *Node { return g.dateExpr(sc, d+1) }
	switch g.r.Intn(3) {
	case 0:
		n := g.r.Intn(21) - 10
		return mk(TDate, fmt.Sprintf("DATE_ADD(@, INTERVAL %d WEEK)", n), e()).lite(fmt.Sprintf("date(@, '%+d days')", 7*n))
	case 1:
		n := 1 + g.r.Intn(400)
		return mk(TDate, fmt.Sprintf("MAKEDATE(YEAR(@), %d)", n), e()).
			lite(fmt.Sprintf("date(strftime('%%Y', @) || '-01-01', '+%d days')", n-1))
	}
	f := g.pick("%d/%m/%Y", "%Y%m%d", "%Y-%j", "%m.%d.%Y")
	n := mk(TDate, "STR_TO_DATE(DATE_FORMAT(@, '"+f+"'), '"+f+"')", e()).lite("date(@)")
	return n
}

// moreDateInt is WEEK(x, 5) or TIMESTAMPDIFF in days or weeks, an integer.
func (g *Gen) moreDateInt(sc *scope, d int) *Node {
	x := g.dateExpr(sc, d+1)
	if g.pct(40) {
		n := mk(TInt, "WEEK(@, 5)", x).lite("CAST(strftime('%W', @) AS INTEGER)")
		n.Bound = 53
		return n
	}
	y := g.dateExpr(sc, d+1)
	if g.pct(50) {
		// y - x, written -(x - y): the kids come in one order for both.
		n := mk(TInt, "TIMESTAMPDIFF(DAY, @, @)", x, y).lite("CAST(0 - (julianday(@) - julianday(@)) AS INTEGER)")
		n.Bound = 3_000_000
		return n
	}
	n := mk(TInt, "TIMESTAMPDIFF(WEEK, @, @)", x, y).lite("CAST((julianday(@) - julianday(@)) / -7 AS INTEGER)")
	n.Bound = 500_000
	return n
}
