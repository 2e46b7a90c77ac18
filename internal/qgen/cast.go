package qgen

import "fmt"

// CAST(x AS DECIMAL(M,D)) as MySQL computes it: x rounded to D digits half
// away from zero, clipped to ±(10^M - 1) / 10^D where it needs more than
// M-D integer digits (with warning 1264). SQLite has no such type: its
// side is MIN(MAX(ROUND(x, D), -largest), largest), which ROUND does half
// away from zero on the exact doubles of these DECIMAL(6,2) values and
// integers; NULL stays NULL in both (SQLite's scalar MIN and MAX are NULL
// with a NULL argument).

// castDecimal is an exact DECIMAL(M,2) of a DECIMAL(6,2) or an integer:
// only its clipping differs from the value (no digits are rounded away).
func (g *Gen) castDecimal(sc *scope, d int) *Node {
	m := []int{3, 4, 5, 10}[g.r.Intn(4)]
	largest := fmt.Sprintf("%d.99", pow10(m-2)-1)
	var x *Node
	if g.pct(50) {
		x = g.decExpr(sc, d+1)
	} else {
		x = g.intExpr(sc, d+1)
	}
	n := mk(TDec, fmt.Sprintf("CAST(@ AS DECIMAL(%d,2))", m), x).
		lite(fmt.Sprintf("MIN(MAX(ROUND(@, 2), -%s), %s)", largest, largest))
	return n
}

// castWhole is CAST(x AS DECIMAL(M,0)) of a DECIMAL(6,2) or an integer,
// an integer node: rounded to a whole number, clipped to ±(10^M - 1).
// SQLite's ROUND gives a REAL; its CAST AS INTEGER keeps the integer
// arithmetic around it integral (SQLite's '/' is DIV on integers only).
func (g *Gen) castWhole(sc *scope, d int) *Node {
	m := []int{1, 2, 3, 10}[g.r.Intn(4)]
	largest := pow10(m) - 1
	x := g.intExpr(sc, d+1)
	if g.pct(50) {
		x = g.decExpr(sc, d+1)
	}
	if g.pct(25) {
		return castWideWhole(x, m, largest)
	}
	n := mk(TInt, fmt.Sprintf("CAST(@ AS DECIMAL(%d,0))", m), x).
		lite(fmt.Sprintf("CAST(MIN(MAX(ROUND(@), -%d), %d) AS INTEGER)", largest, largest))
	n.Bound = min(largest, max(x.Bound, valueBound))
	return n
}

// castWideWhole is castWhole of x times 10^20, a DECIMAL of more than 18
// digits in MySQL (the type whose stores and casts into narrower columns
// once gave NULL): every value but 0 is clipped to ±(10^M - 1). SQLite's
// side multiplies a REAL, exact enough for the clipping.
func castWideWhole(x *Node, m int, largest int64) *Node {
	n := mk(TInt, fmt.Sprintf("CAST(CAST(@ AS DECIMAL(30,2)) * 100000000000000000000 AS DECIMAL(%d,0))", m), x).
		lite(fmt.Sprintf("CAST(MIN(MAX(ROUND(@ * 1e20), -%d), %d) AS INTEGER)", largest, largest))
	n.Bound = largest
	return n
}

func pow10(n int) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// trimmed is TRIM, LTRIM or RTRIM of x padded with spaces on the sides it
// takes them off (a value with trailing spaces compares differently in
// MySQL's PAD SPACE collation, so none is left), or LOWER(x) (the strings
// are lower case already) or LOWER(UPPER(x)).
func (g *Gen) trimmed(x *Node) *Node {
	switch g.r.Intn(5) {
	case 0:
		return mk(TStr, "TRIM(CONCAT('  ', @, ' '))", x).lite("TRIM('  ' || @ || ' ')")
	case 1:
		return mk(TStr, "LTRIM(CONCAT(' ', @))", x).lite("LTRIM(' ' || @)")
	case 2:
		return mk(TStr, "RTRIM(CONCAT(@, '  '))", x).lite("RTRIM(@ || '  ')")
	case 3:
		return mk(TStr, "LOWER(@)", x)
	}
	return mk(TStr, "LOWER(UPPER(@))", x)
}

// numericTexts are strings a CAST AS SIGNED reads only in part or with
// spaces and signs, which MySQL's strtoll10 and SQLite's CAST AS INTEGER
// both read as their leading integer: '12abc' 12, ' 7' 7, '-3x' -3,
// '4.9' 4 (no rounding of a string), '1e3' 1, 'abc' and the empty string 0.
var numericTexts = []string{"'12abc'", "' 7'", "'-3x'", "'+5'", "'4.9'", "'1e3'", "'007'", "'abc'", "''", "'-0'"}

// castTextSigned is CAST(x AS SIGNED) of a string: a literal of
// numericTexts, or an integer followed by a string of strPool ('5ab' is
// 5), which reads back as the integer. Past BIGINT the two engines part (MySQL
// keeps strtoll10's bits: '99999999999999999999' is -1, SQLite clamps),
// so the values stay small.
func (g *Gen) castTextSigned(sc *scope, d int) *Node {
	var x *Node
	bound := int64(1000)
	if g.pct(50) {
		x = lit(TStr, numericTexts[g.r.Intn(len(numericTexts))])
	} else {
		i := g.intExpr(sc, d+1)
		tail := lit(TStr, strPool[g.r.Intn(len(strPool))]) // no digits: the integer stays the prefix
		x = mk(TStr, "CONCAT(@, @)", i, tail).lite("(CAST(@ AS TEXT) || @)")
		bound = max(i.Bound, 1)
	}
	n := mk(TInt, "CAST(@ AS SIGNED)", x).lite("CAST(@ AS INTEGER)")
	n.Bound = bound
	return n
}
