package qgen

import "fmt"

// String functions at their empty and NULL edges, where MySQL's rules
// are short-cuts in its Item code rather than the general case, in
// SQLite's words (a NULL argument gives NULL in both unless said):
//
//	REPLACE(s, '', t)            s (Item_func_replace: an empty from is no match)
//	TRIM(BOTH '' FROM s)         s (Item_func_trim: nothing to remove)
//	SUBSTRING_INDEX(s, '', n),   '' for any s that is not NULL (an empty
//	SUBSTRING_INDEX(s, c, 0)     delimiter or a count of 0)
//	SUBSTR(s, 0), RIGHT(s, 0)    '' (SQLite's SUBSTR(s, 0) is all of s:
//	                             its positions start below 1)
//	REPEAT(s, n)                 '' for n <= 0, s for 1, s || s for 2
//	LPAD(s, n, ''), RPAD         s cut to n where it is that long, else
//	                             NULL (an empty pad cannot fill it)
//	CONCAT_WS('', s, t)          concat_ws('', s, t): NULLs skipped
//	CONCAT_WS(NULL, s, t)        NULL
//	NULLIF(s, '')                nullif(s, ''): the pool has no trailing
//	                             spaces, so PAD SPACE does not matter
//
// Each SQLite form that reads its kid more than once has Op "repeat".
func (g *Gen) emptyString(sc *scope, d int) *Node {
	x := g.strExpr(sc, d+1)
	const emptyOrNull = "(CASE WHEN @ IS NULL THEN NULL ELSE '' END)"
	var n *Node
	switch g.r.Intn(8) {
	case 0:
		return mk(TStr, fmt.Sprintf("REPLACE(@, '', '%s')", g.pick("z", "", "ab")), x).lite("@")
	case 1:
		return mk(TStr, "TRIM(BOTH '' FROM @)", x).lite("@")
	case 2:
		f := fmt.Sprintf("SUBSTRING_INDEX(@, '', %d)", g.r.Intn(5)-2)
		f = g.pick(f, "SUBSTRING_INDEX(@, 'a', 0)", "SUBSTR(@, 0)", "RIGHT(@, 0)")
		n = mk(TStr, f, x).lite(emptyOrNull)
	case 3:
		k := g.r.Intn(4) - 1
		lite := map[int]string{-1: emptyOrNull, 0: emptyOrNull, 1: "@", 2: "(@ || @)"}[k]
		n = mk(TStr, fmt.Sprintf("REPEAT(@, %d)", k), x).lite(lite)
	case 4:
		w := g.r.Intn(4)
		fn := g.pick("LPAD", "RPAD")
		n = mk(TStr, fmt.Sprintf("%s(@, %d, '')", fn, w), x).
			lite(fmt.Sprintf("(CASE WHEN LENGTH(@) >= %d THEN SUBSTR(@, 1, %d) END)", w, w))
	case 5:
		return mk(TStr, "CONCAT_WS('', @, @)", x, g.strExpr(sc, d+1)).lite("concat_ws('', @, @)")
	case 6:
		return mk(TStr, "CONCAT_WS(NULL, @, @)", x, g.strExpr(sc, d+1)).lite("concat_ws(NULL, @, @)")
	default:
		return mk(TStr, "NULLIF(@, '')", x).lite("nullif(@, '')")
	}
	n.Op = "repeat"
	return n
}
