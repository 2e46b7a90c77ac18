package qgen

import "fmt"

// Bit operators on integers of either sign. MySQL works on the unsigned
// 64-bit two's complement and answers BIGINT UNSIGNED, so a negative
// operand's high bits would print as 18446744073709551615-ish numbers
// SQLite cannot hold; masking the result to its low bits keeps it the
// same in both. BIT_COUNT of the masked value is SQLite's sum of its bits.

// bitInt is a masked bit operation or BIT_COUNT of one.
func (g *Gen) bitInt(sc *scope, d int) *Node {
	e := func() *Node { return g.intExpr(sc, d+1) }
	var n *Node
	switch g.r.Intn(5) {
	case 0:
		n = mk(TInt, "(((@) | (@)) & 1023)", e(), e())
	case 1:
		n = mk(TInt, "((~(@)) & 255)", e())
	case 2:
		k := g.r.Intn(4)
		n = mk(TInt, fmt.Sprintf("(((@) >> %d) & 255)", k), e())
	case 3:
		k := g.r.Intn(4)
		n = mk(TInt, fmt.Sprintf("(((@) << %d) & 1023)", k), e())
	default:
		n = mk(TInt, "BIT_COUNT((@) & 255)", e()).lite(bitSum(8))
		n.Op = "repeat"
		n.Bound = 8
		return castSigned(n)
	}
	n.Bound = 1023
	return castSigned(n)
}

// castSigned reads an unsigned result as SIGNED in MySQL: BIGINT UNSIGNED
// times a negative number is error 1690 there, not a negative number.
func castSigned(n *Node) *Node {
	c := mk(TInt, "CAST(@ AS SIGNED)", n).lite("@")
	c.Bound = n.Bound
	return c
}

// bitSum is SQLite's count of the low k bits of its kid.
func bitSum(k int) string {
	s := "("
	for i := range k {
		if i > 0 {
			s += " + "
		}
		s += fmt.Sprintf("(((@) >> %d) & 1)", i)
	}
	return s + ")"
}

// unsignedOr is, now and then for an integer, a masked bit operation left
// BIGINT UNSIGNED in MySQL (no castSigned), so that IN and ANY/ALL
// subqueries compare an unsigned side with a signed one; the mask keeps
// the value small and the same in SQLite.
func (g *Gen) unsignedOr(sc *scope, t Type, d int) *Node {
	if t != TInt || !g.pct(20) {
		return g.typed(sc, t, d)
	}
	n := mk(TInt, "((@) & 1023)", g.intExpr(sc, d+1))
	n.Bound = 1023
	return n
}
