package qgen

// GREATEST, LEAST and NULLIF over an integer and a string.
//
// MySQL compares a mix of numbers and strings in GREATEST and LEAST as
// strings and gives a string (the manual's rules for the two functions):
// GREATEST(5, '10') is '5', LEAST(12, '9') is '12'. SQLite's scalar MAX
// and MIN put any text above any integer, so its side casts the integers
// to TEXT first. The strings are digits only, which binary order and
// utf8mb4_0900_ai_ci order alike (a '-' sorts before every digit in both).
//
// NULLIF(i, s) compares as i = s does, a string against a number as two
// DOUBLEs (mixed_string.go), and gives i: NULLIF(5, '05') is NULL. SQLite
// compares an integer and a text unequal, so its side casts s to REAL.

var digitTexts = []string{"'10'", "'7'", "'007'", "'42'", "'5'", "'123'", "'0'", "'9'"}

// mixedGreatest is GREATEST or LEAST of an integer expression and a
// string of digits, and now and then a second integer.
func (g *Gen) mixedGreatest(sc *scope, d int) *Node {
	fn, lite := "GREATEST", "MAX"
	if g.pct(50) {
		fn, lite = "LEAST", "MIN"
	}
	i, s := g.intExpr(sc, d+1), lit(TStr, g.pick(digitTexts...))
	kids, format, liteFormat := []*Node{i, s}, "(@, @", "(CAST(@ AS TEXT), @"
	if g.pct(50) {
		kids, format, liteFormat = []*Node{s, i}, "(@, @", "(@, CAST(@ AS TEXT)"
	}
	if g.pct(30) {
		kids = append(kids, g.intExpr(sc, d+1))
		format += ", @"
		liteFormat += ", CAST(@ AS TEXT)"
	}
	return mk(TStr, fn+format+")", kids...).lite(lite + liteFormat + ")")
}

// mixedNullif is NULLIF of an integer expression and a string with a
// number, part of one or none in front (or NULL).
func (g *Gen) mixedNullif(sc *scope, d int) *Node {
	n := mk(TInt, "NULLIF(@, @)", g.intExpr(sc, d+1), lit(TStr, g.pick(numberedTexts...))).
		lite("NULLIF(@, CAST(@ AS REAL))")
	n.Bound = n.Kids[0].Bound
	return n
}
