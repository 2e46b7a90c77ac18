package qgen

import (
	"fmt"
	"strings"
)

// More string functions, written in SQLite's words where it lacks them:
// LEFT(s, n) and CAST(s AS CHAR(n)) are SUBSTR(s, 1, n) (the CAST with a
// warning where it cuts: exec/cpu's cast_char); RIGHT(s, n) the last n characters,
// SUBSTR(s, MAX(LENGTH(s) - n + 1, 1)); CONCAT_WS skips NULL arguments in
// both (SQLite 3.44 and later); CHAR_LENGTH is LENGTH on this ASCII;
// LOCATE(x, s) is INSTR(s, x); STRCMP a CASE of the comparisons (NULL
// with a NULL argument in both). ASCII is left out: MySQL's ASCII('') is
// 0, SQLite's unicode('') NULL.

// moreString is one of the string functions above of string type.
func (g *Gen) moreString(sc *scope, d int) *Node {
	e := func() *Node { return g.strExpr(sc, d+1) }
	n := 1 + g.r.Intn(4)
	switch g.r.Intn(4) {
	case 0:
		return mk(TStr, fmt.Sprintf("LEFT(@, %d)", n-1), e()).lite(fmt.Sprintf("SUBSTR(@, 1, %d)", n-1))
	case 2:
		return mk(TStr, fmt.Sprintf("CAST(@ AS CHAR(%d))", n-1), e()).lite(fmt.Sprintf("SUBSTR(@, 1, %d)", n-1))
	case 1:
		r := mk(TStr, fmt.Sprintf("RIGHT(@, %d)", n), e()).lite(fmt.Sprintf("SUBSTR(@, MAX(LENGTH(@) - %d + 1, 1))", n))
		r.Op = "repeat"
		return r
	}
	if g.pct(50) {
		return mk(TStr, "CONCAT_WS(',', @, @)", e(), e()).lite("concat_ws(',', @, @)")
	}
	return mk(TStr, "CONCAT_WS('-', @, @, @)", e(), e(), e()).lite("concat_ws('-', @, @, @)")
}

// moreStringInt is CHAR_LENGTH, LOCATE, STRCMP or a string's CAST AS
// SIGNED, an integer.
func (g *Gen) moreStringInt(sc *scope, d int) *Node {
	var n *Node
	switch g.r.Intn(4) {
	case 3:
		n = g.castTextSigned(sc, d) // cast.go
	case 0:
		n = mk(TInt, "CHAR_LENGTH(@)", g.strExpr(sc, d+1)).lite("LENGTH(@)")
		n.Bound = 64
	case 1:
		sub := g.pick("a", "b", "ab", "l")
		n = mk(TInt, "LOCATE('"+sub+"', @)", g.strExpr(sc, d+1)).lite("INSTR(@, '" + sub + "')")
		if g.pct(30) {
			n = g.collatedLocate(sub, g.strExpr(sc, d+1))
		}
		n.Bound = 64
	default:
		n = mk(TInt, "STRCMP(@, @)", g.strExpr(sc, d+1), g.strExpr(sc, d+1)).
			lite("(CASE WHEN (@) < (@) THEN -1 WHEN (@) > (@) THEN 1 WHEN (@) = (@) THEN 0 END)")
		n.Op = "pair"
		n.Bound = 1
	}
	return n
}

// collatedLocates are the case-insensitive collations collatedLocate
// searches under.
var collatedLocates = []string{"utf8mb4_0900_ai_ci", "utf8mb4_general_ci", "utf8mb4_unicode_ci"}

// collatedLocate is INSTR, LOCATE or POSITION of sub written in upper case
// in a string under a case-insensitive collation, which finds it in the
// generator's lower-case strings as SQLite's INSTR finds sub itself. The
// string is CAST AS CHAR first: COLLATE of a NULL (NULLIF(NULL, 'abc'), or
// what shrinking leaves) is MySQL's error 1253, NULL being binary.
func (g *Gen) collatedLocate(sub string, s *Node) *Node {
	up := "'" + strings.ToUpper(sub) + "'"
	coll := collatedLocates[g.r.Intn(len(collatedLocates))]
	lite := "INSTR(@, '" + sub + "')"
	switch g.r.Intn(3) {
	case 0:
		return mk(TInt, "INSTR(CAST(@ AS CHAR) COLLATE "+coll+", "+up+")", s).lite(lite)
	case 1:
		return mk(TInt, "LOCATE("+up+", CAST(@ AS CHAR) COLLATE "+coll+")", s).lite(lite)
	}
	return mk(TInt, "POSITION("+up+" IN CAST(@ AS CHAR) COLLATE "+coll+")", s).lite(lite)
}
