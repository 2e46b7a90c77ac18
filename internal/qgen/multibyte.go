package qgen

import "fmt"

// Multibyte text. The tables' strings are ASCII, so a function that counts
// characters where it should count bytes (or cuts a character in two)
// goes unseen there; these shapes feed UTF-8 literals of two-, three- and
// four-byte characters through SUBSTR, LEFT, RIGHT, REPLACE and CONCAT and
// read the result as a number, in SQLite's words:
//
//	CHAR_LENGTH(x)              LENGTH(x) (SQLite counts a text's characters)
//	LENGTH(x), OCTET_LENGTH(x)  LENGTH(CAST(x AS BLOB)) (its UTF-8 bytes)
//
// The text itself is never compared, sorted or printed: MySQL's default
// collation is accent-insensitive ('é' = 'e') where SQLite compares bytes,
// and UPPER and LOWER change non-ASCII letters only in MySQL. REPLACE
// matches bytes in both (MySQL's REPLACE is case-sensitive).

// multibytePool are the literals, 'héé' of 5 bytes, '日本語' of 9, an
// emoji of 4.
var multibytePool = []string{"'héé'", "'ñandú'", "'日本語'", "'a€b'", "'😀x'", "'ÅÄÖ'", "'é'"}

// multibyteInt is a length of multibyte text, an integer.
func (g *Gen) multibyteInt(sc *scope, d int) *Node {
	x := g.multibyteText(sc, d+1)
	var n *Node
	switch g.r.Intn(3) {
	case 0:
		n = mk(TInt, "CHAR_LENGTH(@)", x).lite("LENGTH(@)")
	case 1:
		n = mk(TInt, "LENGTH(@)", x).lite("LENGTH(CAST(@ AS BLOB))")
	default:
		n = mk(TInt, "OCTET_LENGTH(@)", x).lite("LENGTH(CAST(@ AS BLOB))")
	}
	n.Bound = 512
	return n
}

// multibyteText is a string holding multibyte characters (NULL where an
// ASCII operand of CONCAT is).
func (g *Gen) multibyteText(sc *scope, d int) *Node {
	if d >= maxDepth || g.pct(35) {
		return lit(TStr, multibytePool[g.r.Intn(len(multibytePool))])
	}
	if g.pct(10) {
		return g.multibyteCast(sc, d) // multibyte_cast.go
	}
	e := func() *Node { return g.multibyteText(sc, d+1) }
	k := 1 + g.r.Intn(3)
	switch g.r.Intn(6) {
	case 0:
		return mk(TStr, fmt.Sprintf("SUBSTR(@, %d, %d)", 1+g.r.Intn(4), k), e())
	case 1:
		return mk(TStr, fmt.Sprintf("LEFT(@, %d)", k), e()).lite(fmt.Sprintf("SUBSTR(@, 1, %d)", k))
	case 2:
		r := mk(TStr, fmt.Sprintf("RIGHT(@, %d)", k), e()).lite(fmt.Sprintf("SUBSTR(@, MAX(LENGTH(@) - %d + 1, 1))", k))
		r.Op = "repeat"
		return r
	case 3:
		from := g.pick("é", "語", "€", "😀", "a")
		to := g.pick("", "e", "ü", "xx")
		return mk(TStr, fmt.Sprintf("REPLACE(@, '%s', '%s')", from, to), e())
	case 4:
		if g.pct(50) {
			return mk(TStr, "CONCAT(@, @)", e(), g.strExpr(sc, d+1)).lite("(@ || @)")
		}
		return mk(TStr, "CONCAT(@, @)", g.strExpr(sc, d+1), e()).lite("(@ || @)")
	}
	return mk(TStr, "CONCAT(@, @)", e(), e()).lite("(@ || @)")
}
