package qgen

import "fmt"

// MySQL's string functions that SQLite lacks, in SQLite's words. Each
// SQLite form reads its one kid several times (Op "repeat"):
//
//	LPAD(s, n, p)  CASE WHEN LENGTH(s) >= n THEN SUBSTR(s, 1, n) ELSE
//	               SUBSTR(REPLACE(HEX(ZEROBLOB(n)), '00', p), 1, n - LENGTH(s)) || s END
//	               (the pad repeated n times, cut to what is missing;
//	               a longer s is cut to n characters); RPAD mirrors it
//	INSERT(s, p, l, t)  s when p is past its end, else SUBSTR(s, 1, p - 1) || t || SUBSTR(s, p + l)
//	TRIM(LEADING c FROM s)   LTRIM(s, c), TRAILING RTRIM, BOTH TRIM (one
//	                         character c: MySQL removes repeats of the whole string)
//	SUBSTRING_INDEX(s, c, 1)   what precedes the first c, or s
//	SUBSTRING_INDEX(s, c, -1)  SUBSTR(s, LENGTH(RTRIM(s, REPLACE(s, c, ''))) + 1):
//	                           RTRIM stops at the last c
//
// The pads are lower case without spaces (strings with trailing spaces
// compare differently under MySQL's PAD SPACE collations).

// mysqlString is one of the string functions above.
func (g *Gen) mysqlString(sc *scope, d int) *Node {
	x := g.strExpr(sc, d+1)
	var n *Node
	switch g.r.Intn(5) {
	case 0, 1:
		w, p := g.r.Intn(7), g.pick("xy", "z", "abc")
		pad := fmt.Sprintf("SUBSTR(REPLACE(HEX(ZEROBLOB(%d)), '00', '%s'), 1, %d - LENGTH(@))", max(w, 1), p, w)
		if g.pct(50) {
			n = mk(TStr, fmt.Sprintf("LPAD(@, %d, '%s')", w, p), x).
				lite(fmt.Sprintf("(CASE WHEN LENGTH(@) >= %d THEN SUBSTR(@, 1, %d) ELSE %s || @ END)", w, w, pad))
		} else {
			n = mk(TStr, fmt.Sprintf("RPAD(@, %d, '%s')", w, p), x).
				lite(fmt.Sprintf("(CASE WHEN LENGTH(@) >= %d THEN SUBSTR(@, 1, %d) ELSE @ || %s END)", w, w, pad))
		}
	case 2:
		p, l, t := 1+g.r.Intn(4), g.r.Intn(4), g.pick("", "q", "zz")
		n = mk(TStr, fmt.Sprintf("INSERT(@, %d, %d, '%s')", p, l, t), x).
			lite(fmt.Sprintf("(CASE WHEN %d > LENGTH(@) THEN @ ELSE SUBSTR(@, 1, %d) || '%s' || SUBSTR(@, %d) END)", p, p-1, t, p+l))
	case 3:
		c := g.pick("a", "b", "x")
		switch g.r.Intn(3) {
		case 0:
			n = mk(TStr, "TRIM(LEADING '"+c+"' FROM @)", x).lite("LTRIM(@, '" + c + "')")
		case 1:
			n = mk(TStr, "TRIM(TRAILING '"+c+"' FROM @)", x).lite("RTRIM(@, '" + c + "')")
		default:
			n = mk(TStr, "TRIM(BOTH '"+c+"' FROM @)", x).lite("TRIM(@, '" + c + "')")
		}
	default:
		c := g.pick("a", "b")
		if g.pct(50) {
			n = mk(TStr, "SUBSTRING_INDEX(@, '"+c+"', 1)", x).
				lite("(CASE WHEN INSTR(@, '" + c + "') > 0 THEN SUBSTR(@, 1, INSTR(@, '" + c + "') - 1) ELSE @ END)")
		} else {
			n = mk(TStr, "SUBSTRING_INDEX(@, '"+c+"', -1)", x).
				lite("SUBSTR(@, LENGTH(RTRIM(@, REPLACE(@, '" + c + "', ''))) + 1)")
		}
	}
	n.Op = "repeat"
	return n
}

// listInt is FIELD, FIND_IN_SET or ELT's choice read back by LENGTH, an
// integer: FIELD(s, ...) is 0 for NULL (no argument equals it) where
// FIND_IN_SET(NULL, ...) is NULL; ELT past its list is NULL.
func (g *Gen) listInt(sc *scope, d int) *Node {
	var n *Node
	switch g.r.Intn(3) {
	case 0:
		n = mk(TInt, "FIELD(@, 'a', 'ab', 'b')", g.strExpr(sc, d+1)).
			lite("(CASE @ WHEN 'a' THEN 1 WHEN 'ab' THEN 2 WHEN 'b' THEN 3 ELSE 0 END)")
	case 1:
		n = mk(TInt, "FIND_IN_SET(@, 'a,ab,b')", g.strExpr(sc, d+1)).
			lite("(CASE WHEN @ IS NULL THEN NULL WHEN @ = 'a' THEN 1 WHEN @ = 'ab' THEN 2 WHEN @ = 'b' THEN 3 ELSE 0 END)")
		n.Op = "repeat"
	default:
		n = mk(TInt, "LENGTH(ELT(@, 'a', 'bb', 'ccc'))", g.intExpr(sc, d+1)).
			lite("LENGTH(CASE @ WHEN 1 THEN 'a' WHEN 2 THEN 'bb' WHEN 3 THEN 'ccc' END)")
	}
	n.Bound = 3
	return n
}
