package qgen

import "fmt"

// DATE values. SQLite has no DATE type: its column holds the same
// 'YYYY-MM-DD' text, which compares, sorts, groups and prints as MySQL's
// DATE does (canonical text orders as the dates do), and its date
// functions take that text: DATE_ADD(x, INTERVAL n DAY) is date(x, '+n
// days'), YEAR(x) strftime('%Y', x), DATEDIFF julianday's difference
// (both dates at midnight: a whole number of days). MONTH and YEAR
// intervals are left out: MySQL clamps 2024-01-31 + 1 month to
// 2024-02-29, SQLite's date() normalizes it to 2024-03-02. A date literal
// is a string in both ('2024-01-01'; MySQL compares a string with a DATE
// as a date, and CASE, COALESCE or GREATEST of both give the same text),
// or MySQL's DATE '...' literal. Dates past 2262 and before 1677 are in
// the pool (gpusql once read them through a time.Duration, which holds
// ±292 years from 1970: '2999-06-15' was 2262-04-11), as is 1600-02-29, a
// leap day of a year divisible by 400.

var datePool = []string{"NULL", "'2024-01-01'", "'2024-01-31'", "'2024-02-29'", "'2023-12-31'", "'2024-03-01'",
	"'2000-01-01'", "'2024-01-01'", "'1999-12-31'", "'2024-12-31'", "'2999-06-15'", "'1600-02-29'"}

// dateLeaf is a DATE column of the scope or a literal.
func (g *Gen) dateLeaf(sc *scope) *Node {
	cs := colsOf(sc.visible(), TDate)
	if len(cs) > 0 && g.pct(70) {
		return colNode(cs[g.r.Intn(len(cs))])
	}
	if g.pct(5) {
		return g.invalidDate() // dates_invalid.go
	}
	v := datePool[1+g.r.Intn(len(datePool)-1)]
	if g.pct(30) {
		return lit(TDate, "DATE "+v).lite(v)
	}
	return lit(TDate, v)
}

// dateExpr is a DATE expression.
func (g *Gen) dateExpr(sc *scope, d int) *Node {
	if sc.agg && g.pct(40) {
		return g.aggregate(sc, TDate, d)
	}
	if d >= maxDepth || g.pct(45) {
		return g.dateLeaf(sc)
	}
	e := func() *Node { return g.dateExpr(sc, d+1) }
	switch c := g.r.Intn(100); {
	case c < 8:
		return g.moreDate(sc, d) // dates_more.go
	case c < 12:
		return g.edgeDate(sc, d) // dates_edges.go
	case c < 30:
		n := int64(g.r.Intn(61) - 20)
		fn, days := g.pick("DATE_ADD", "DATE_SUB"), n
		if fn == "DATE_SUB" {
			days = -n
		}
		return mk(TDate, fmt.Sprintf("%s(@, INTERVAL %d DAY)", fn, n), e()).lite(fmt.Sprintf("date(@, '%+d days')", days))
	case c < 40:
		return mk(TDate, "LAST_DAY(@)", e()).lite("date(@, 'start of month', '+1 month', '-1 day')")
	case c < 60:
		return g.caseExpr(sc, TDate, d)
	case c < 75:
		return g.coalesce(sc, TDate, d)
	case c < 85:
		return g.greatest(sc, TDate, d)
	case c < 92 && sc.subq:
		return g.scalarSubquery(sc, TDate, d)
	}
	return g.dateLeaf(sc)
}

// dateInt is an integer computed from a date: a part of it, a difference
// in days, or its number YYYYMMDD (a DATE in a numeric context).
func (g *Gen) dateInt(sc *scope, d int) *Node {
	x := g.dateExpr(sc, d+1)
	var n *Node
	switch g.r.Intn(10) {
	case 8:
		return g.moreDateInt(sc, d) // dates_more.go
	case 9:
		if g.pct(50) {
			return g.invalidDateDiff(sc, d) // dates_invalid.go
		}
		return g.moreDateInt(sc, d)
	case 0:
		n = mk(TInt, "YEAR(@)", x).lite("CAST(strftime('%Y', @) AS INTEGER)")
		n.Bound = 9999
	case 1:
		n = mk(TInt, "MONTH(@)", x).lite("CAST(strftime('%m', @) AS INTEGER)")
		n.Bound = 12
	case 2:
		n = mk(TInt, g.pick("DAY(@)", "DAYOFMONTH(@)"), x).lite("CAST(strftime('%d', @) AS INTEGER)")
		n.Bound = 31
	case 3:
		n = mk(TInt, "DAYOFWEEK(@)", x).lite("(CAST(strftime('%w', @) AS INTEGER) + 1)")
		n.Bound = 7
	case 4:
		n = mk(TInt, "DAYOFYEAR(@)", x).lite("CAST(strftime('%j', @) AS INTEGER)")
		n.Bound = 366
	case 5:
		n = mk(TInt, "QUARTER(@)", x).lite("((CAST(strftime('%m', @) AS INTEGER) + 2) / 3)")
		n.Bound = 4
	case 6:
		n = mk(TInt, "DATEDIFF(@, @)", x, g.dateExpr(sc, d+1)).lite("CAST(julianday(@) - julianday(@) AS INTEGER)")
		n.Bound = 3_000_000
	default:
		// Of a DATE: a string's + 0 is its leading number.
		n = mk(TInt, "CAST(@ AS DATE) + 0", x).lite("CAST(strftime('%Y%m%d', @) AS INTEGER)")
		n.Prec, n.Bound = precAdd, 99_991_231
	}
	return n
}

// dateText is a date as text: CAST AS CHAR, or DATE_FORMAT of year,
// month and day (strftime's same letters).
func (g *Gen) dateText(sc *scope, d int) *Node {
	x := g.dateExpr(sc, d+1)
	if g.pct(50) {
		return mk(TStr, "CAST(@ AS CHAR)", x).lite("CAST(@ AS TEXT)")
	}
	f := g.pick("%Y-%m", "%d/%m/%Y", "%Y%m%d", "%m")
	return mk(TStr, "DATE_FORMAT(@, '"+f+"')", x).lite("strftime('" + f + "', @)")
}
