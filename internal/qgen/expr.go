package qgen

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
)

// column is a column an expression may name.
type column struct {
	ref   string // qualified: alias.name
	typ   Type
	bound int64 // largest absolute value (integers)
	prec  int   // a GROUP BY expression's operator precedence (Node.Prec)
	scale int   // a TReal column's printed scale (derived_quotient.go)
}

// scope is what an expression may read.
type scope struct {
	cols []column // the row's columns (with outer ones, in a correlated subquery's WHERE)
	// agg: columns appear only inside aggregate calls, except keys (the
	// GROUP BY columns). No MySQL-only freedom of ONLY_FULL_GROUP_BY off is
	// used, so the answer never depends on which row of a group is read.
	agg  bool
	keys []column
	subq bool  // subqueries allowed
	rows int64 // most rows an aggregate may see (bounds SUM)
	// reals are quotient columns of derived tables, read by realExpr
	// only (derived_quotient.go).
	reals []column
}

// visible are the columns an expression may name outside aggregate calls:
// in an aggregate query the GROUP BY columns, which a correlated subquery
// there may name too.
func (sc *scope) visible() []column {
	if sc.agg {
		return sc.keys
	}
	return sc.cols
}

// Bounds keep every integer from BIGINT overflow (MySQL errors, SQLite
// turns to REAL), even summed over every row of a join: an expression
// stays within maxBound, a SUM within sumBound. Over wide data, whose INT
// values reach 2^31, one product of two columns fits: INT arithmetic must
// be done in BIGINT, as MySQL does.
const (
	maxBound     = 1_000_000_000
	sumBound     = 1_000_000_000_000
	wideBound    = 1 << 62
	wideValueMax = 1 << 31
)

// satMul and satAdd are a*b and a+b on bounds, saturating at MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

const maxDepth = 4

// Gen writes queries; its choices come from one seeded source.
type Gen struct {
	r      *rand.Rand
	nalias int
	nrowNo int      // ROW_NUMBER calls in the current query (at most one: see window.go)
	big    bool     // the data is bigData
	noDiv  bool     // no division: the TReal being written is summed (division.go)
	reals  []column // the TReal columns of the FROM clause written last
	ctes   *[]*cte  // the statement's WITH queries, which subqueries may read
	// exactScale: a dividend or AVG argument is being written, whose
	// scale MySQL prints the quotient with (scaleOf): no integer stands
	// in for a DECIMAL there (a CASE of integers typed TDec has scale 0).
	exactScale bool
	inCTE      bool // a WITH query's body is being written: it adds no WITH query

	maxBound, sumBound, valueBound int64 // see maxBound
}

// New returns a generator for one seed.
func New(seed int64) *Gen {
	g := &Gen{r: rand.New(rand.NewSource(seed)), big: bigData(DataSeed(seed)),
		maxBound: maxBound, sumBound: sumBound, valueBound: valueBound}
	if wideData(DataSeed(seed)) {
		g.maxBound, g.sumBound, g.valueBound = wideBound, wideBound, wideValueMax
	}
	return g
}

func (g *Gen) pct(p int) bool { return g.r.Intn(100) < p }

func (g *Gen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g *Gen) pick2(a, b Type) Type {
	if g.pct(50) {
		return a
	}
	return b
}

// alias is a fresh table alias, so no inner scope shadows an outer one.
func (g *Gen) alias() string {
	g.nalias++
	return "q" + strconv.Itoa(g.nalias)
}

func colsOf(cols []column, t Type) []column {
	var out []column
	for _, c := range cols {
		if c.typ == t {
			out = append(out, c)
		}
	}
	return out
}

func colNode(c column) *Node {
	n := mk(c.typ, c.ref)
	n.Bound, n.Prec = c.bound, c.prec
	return n
}

func intLit(v int64) *Node {
	n := lit(TInt, strconv.FormatInt(v, 10))
	n.Bound = max(v, -v)
	return n
}

// leaf is a column of type t from the scope or a literal.
func (g *Gen) leaf(sc *scope, t Type) *Node {
	cols := sc.cols
	if sc.agg {
		cols = sc.keys
	}
	cs := colsOf(cols, t)
	if len(cs) > 0 && g.pct(70) {
		return colNode(cs[g.r.Intn(len(cs))])
	}
	if g.pct(8) {
		n := lit(t, "NULL")
		return n
	}
	switch t {
	case TStr:
		return lit(t, strPool[1+g.r.Intn(len(strPool)-1)])
	case TDec:
		return lit(t, decPool[1+g.r.Intn(len(decPool)-1)])
	case TBool:
		return lit(t, g.pick("1", "0"))
	case TDate:
		return g.dateLeaf(sc)
	}
	return intLit(int64(g.r.Intn(21) - 5))
}

// intExpr is an integer expression.
func (g *Gen) intExpr(sc *scope, d int) *Node {
	if sc.agg && g.pct(45) {
		return g.aggregate(sc, TInt, d)
	}
	if d >= maxDepth || g.pct(30) {
		return g.leaf(sc, TInt)
	}
	if g.pct(3) {
		return g.roundWhole(sc, d)
	}
	if g.pct(3) {
		return g.dateInt(sc, d)
	}
	if g.pct(2) {
		return g.moreStringInt(sc, d)
	}
	if g.pct(2) {
		return g.multibyteInt(sc, d) // multibyte.go
	}
	if g.pct(2) {
		return g.bitInt(sc, d) // bits.go
	}
	if g.pct(2) {
		return g.listInt(sc, d) // strings_mysql.go
	}
	if g.pct(2) {
		return g.bigintEdge(sc, d) // overflow.go
	}
	e := func() *Node { return g.intExpr(sc, d+1) }
	switch c := g.r.Intn(100); {
	case c < 32:
		return g.arith(e(), e())
	case c < 37:
		n := mk(TInt, g.pick("- @", "- @", "+ @"), e())
		n.Prec, n.Bound = precUnary, n.Kids[0].Bound
		return n
	case c < 41 && g.pct(70):
		n := mk(TInt, "ABS(@)", e())
		n.Bound = n.Kids[0].Bound
		return n
	case c < 41:
		// NOT of an integer: 1 for 0, 0 for any other, NULL for NULL,
		// in both.
		n := mk(TInt, "(NOT @)", e())
		n.Bound = 1
		return n
	case c < 50:
		return g.caseExpr(sc, TInt, d)
	case c < 60:
		return g.coalesce(sc, TInt, d)
	case c < 64:
		n := mk(TInt, "LENGTH(@)", g.strExpr(sc, d+1))
		n.Bound = 64
		return n
	case c < 70:
		n := mk(TInt, "(@)", g.pred(sc, d+1))
		n.Bound = max(1, n.Kids[0].Bound) // 0 or 1, or an integer as a truth value
		return n
	case c < 78 && sc.subq:
		return g.scalarSubquery(sc, TInt, d)
	case c < 83:
		if g.pct(20) {
			return g.mixedNullif(sc, d) // mixed_greatest.go
		}
		return g.greatest(sc, TInt, d)
	case c < 86:
		n := mk(TInt, "SIGN(@)", e())
		n.Bound = 1
		return n
	case c < 87 && g.pct(50):
		return g.castWhole(sc, d)
	case c < 88:
		n := mk(TInt, g.pick("CAST(@ AS SIGNED)", "CAST(@ AS DECIMAL)"), e())
		if n.Kids[0].Bound >= 1e10 {
			n.Parts[1] = " AS SIGNED)" // MySQL's DECIMAL(10,0) clips past 10 digits
		}
		if n.Parts[0] == "CAST(" && n.Parts[1] == " AS SIGNED)" {
			n.lite("CAST(@ AS INTEGER)")
		}
		n.Bound = n.Kids[0].Bound
		return n
	case c < 91:
		// MySQL's IF is SQLite's iif.
		n := mk(TInt, "IF(@, @, @)", g.pred(sc, d+1), e(), e()).lite("iif(@, @, @)")
		n.Bound = boundOf(n)
		return n
	case c < 93:
		n := mk(TInt, "MOD(@, @)", e(), e()).lite("((@) % (@))")
		n.Bound = min(n.Kids[0].Bound, n.Kids[1].Bound)
		return n
	case c < 95:
		n := mk(TInt, "ISNULL(@)", g.typed(sc, g.pickType(sc), d+1)).lite("(@ IS NULL)")
		n.Bound = 1
		return n
	case c < 97:
		n := mk(TInt, "INSTR(@, '"+g.pick("a", "b", "ab", "")+"')", g.strExpr(sc, d+1))
		n.Bound = 64
		return n
	}
	return g.leaf(sc, TInt)
}

// greatest is GREATEST or LEAST of two or three values, SQLite's scalar MAX
// and MIN of several arguments; both are NULL when any argument is.
func (g *Gen) greatest(sc *scope, t Type, d int) *Node {
	fn, lite := "GREATEST", "MAX"
	if g.pct(50) {
		fn, lite = "LEAST", "MIN"
	}
	kids := []*Node{g.typed(sc, t, d+1), g.typed(sc, t, d+1)}
	format := "(@, @"
	if g.pct(30) {
		kids = append(kids, g.typed(sc, t, d+1))
		format += ", @"
	}
	n := mk(t, fn+format+")", kids...).lite(lite + format + ")")
	n.Bound = boundOf(n)
	return n
}

// arith is a binary arithmetic operator on a and b; * falls back to + where
// the product could pass maxBound. '/' is left out: MySQL's is DECIMAL
// division, SQLite's truncates integers. DIV and % truncate toward zero in
// both (the sign of % is the dividend's) and give NULL for a zero divisor.
func (g *Gen) arith(a, b *Node) *Node {
	op := g.pick("+", "-", "*", "*", "DIV", "%")
	if op == "*" && (a.Bound == 0 || b.Bound == 0 || a.Bound > g.maxBound/max(b.Bound, 1)) {
		op = "+"
	}
	n := mk(TInt, "@ "+op+" @", a, b)
	switch op {
	case "+", "-":
		n.Prec, n.Bound = precAdd, satAdd(a.Bound, b.Bound)
	case "*":
		n.Prec, n.Bound = precMul, a.Bound*b.Bound
	case "DIV":
		n.Prec, n.Bound = precMul, a.Bound
		n.lite("@ / @")
	case "%":
		n.Prec, n.Bound = precMul, min(a.Bound, b.Bound)
	}
	if n.Bound > g.maxBound {
		// Too big even for +: keep a alone, in a form that still tests
		// something (unary minus binds tighter than any operator).
		n = mk(TInt, "- @", a)
		n.Prec, n.Bound = precUnary, a.Bound
	}
	return n
}

// typed is an expression of type t.
func (g *Gen) typed(sc *scope, t Type, d int) *Node {
	switch t {
	case TStr:
		return g.strExpr(sc, d)
	case TDec:
		if g.valueBound == valueBound && !g.exactScale && g.pct(8) {
			// An integer where a DECIMAL goes: MySQL compares, unites
			// (CASE, COALESCE, IN, GREATEST) and computes the two
			// exactly, SQLite an INTEGER with a REAL exactly too. It
			// stays a TInt node, so its scale is 0 (division.go).
			return g.intExpr(sc, d)
		}
		return g.decExpr(sc, d)
	case TBool:
		return g.pred(sc, d)
	case TReal:
		return g.realExpr(sc, d)
	case TDate:
		return g.dateExpr(sc, d)
	}
	return g.intExpr(sc, d)
}

// realExpr is DECIMAL arithmetic (a TReal).
func (g *Gen) realExpr(sc *scope, d int) *Node {
	if sc.agg {
		return g.aggregate(sc, TReal, d)
	}
	if divisions && !g.noDiv && g.pct(35) {
		if sc.subq && g.pct(15) {
			return g.quotientSubquery(sc, d)
		}
		return g.quotientExpr(sc, d)
	}
	if d < maxDepth && g.pct(10) {
		return g.roundFraction(sc, d)
	}
	if len(sc.reals) > 0 && !g.noDiv && g.pct(50) {
		return g.realColumn(sc, d)
	}
	var n *Node
	k := g.r.Intn(4)
	if g.valueBound > valueBound && (k == 1 || k == 2) {
		// Not with wide integers: SQLite's doubles lose the cents of
		// sums of such values (-0.01 - 2147483647 ... summed to -0.06).
		k = 0
	}
	switch k {
	case 0:
		n = mk(TReal, "@ + @", g.decExpr(sc, d+1), g.decExpr(sc, d+1))
		n.Prec, n.Op = precAdd, "add"
	case 1:
		n = mk(TReal, "@ - @", g.decExpr(sc, d+1), g.intExpr(sc, d+1))
		n.Prec, n.Op = precAdd, "add"
	case 2:
		n = mk(TReal, "@ * @", g.decExpr(sc, d+1), g.intExpr(sc, d+1))
		n.Prec, n.Op = precMul, "mul"
	default:
		n = mk(TReal, "@ * @", g.decExpr(sc, d+1), g.decExpr(sc, d+1))
		n.Prec, n.Op = precMul, "mul"
	}
	return n
}

// caseExpr is a searched or simple CASE of result type t.
func (g *Gen) caseExpr(sc *scope, t Type, d int) *Node {
	// The parts before END are TNone: no expression on their own.
	var n *Node
	if g.pct(60) {
		n = mk(TNone, "CASE WHEN @ THEN @", g.pred(sc, d+1), g.typed(sc, t, d+1))
	} else {
		ot := g.pickType(sc)
		n = mk(TNone, "CASE @ WHEN @ THEN @", g.typed(sc, ot, d+1), g.typed(sc, ot, d+1), g.typed(sc, t, d+1))
	}
	if g.pct(30) {
		n = mk(TNone, "@ WHEN @ THEN @", n, g.pred(sc, d+1), g.typed(sc, t, d+1))
		if n.Kids[0].Parts[0] == "CASE " {
			// A simple CASE's WHEN takes a value, not a predicate.
			n.Kids[1] = g.typed(sc, n.Kids[0].Kids[0].Type, d+1)
		}
	}
	if g.pct(70) {
		n = mk(TNone, "@ ELSE @", n, g.typed(sc, t, d+1))
	}
	n = mk(t, "@ END", n)
	n.Bound = boundOf(n)
	return n
}

// boundOf is the largest bound of the integer nodes that may be the value
// of n (its kids of n's type, looking through TNone wrappers).
func boundOf(n *Node) int64 { return boundOfType(n, n.Type) }

func boundOfType(n *Node, t Type) int64 {
	var b int64
	for _, k := range n.Kids {
		if k.Type == TNone {
			b = max(b, boundOfType(k, t))
		} else if k.Type == t {
			b = max(b, k.Bound)
		}
	}
	return b
}

func (g *Gen) coalesce(sc *scope, t Type, d int) *Node {
	var n *Node
	switch g.r.Intn(4) {
	case 0:
		n = mk(t, "COALESCE(@, @, @)", g.typed(sc, t, d+1), g.typed(sc, t, d+1), g.typed(sc, t, d+1))
	case 1:
		n = mk(t, "IFNULL(@, @)", g.typed(sc, t, d+1), g.typed(sc, t, d+1))
	case 2:
		n = mk(t, "NULLIF(@, @)", g.typed(sc, t, d+1), g.typed(sc, t, d+1))
	default:
		n = mk(t, "COALESCE(@, @)", g.typed(sc, t, d+1), g.typed(sc, t, d+1))
	}
	n.Bound = boundOf(n)
	return n
}

// pickType is the type of a comparison's operands.
func (g *Gen) pickType(sc *scope) Type {
	switch c := g.r.Intn(100); {
	case c < 20:
		return TStr
	case c < 28 && len(colsOf(sc.cols, TDec)) > 0:
		return TDec
	case c < 36 && len(colsOf(sc.cols, TDate)) > 0:
		return TDate
	}
	return TInt
}

// strExpr is a string expression. SUBSTR starts at 1..3 and takes 1..3
// characters (MySQL and SQLite differ at position 0 and for negative
// lengths); CONCAT is SQLite's || (both NULL when an operand is).
// UPPER is left out but under LOWER (upper-case strings compare
// differently, see schema.go); TRIM, LTRIM, RTRIM and LOWER: cast.go.
func (g *Gen) strExpr(sc *scope, d int) *Node {
	if sc.agg && g.pct(30) {
		return g.aggregate(sc, TStr, d)
	}
	if d >= maxDepth || g.pct(45) {
		return g.leaf(sc, TStr)
	}
	if g.pct(8) {
		return g.moreString(sc, d)
	}
	if g.pct(5) {
		return g.mysqlString(sc, d) // strings_mysql.go
	}
	if g.pct(4) {
		return g.emptyString(sc, d) // strings_empty.go
	}
	if g.pct(4) {
		return g.mixedStringResult(sc, d) // mixed_string.go
	}
	if g.pct(3) {
		return g.dateOrString(sc, d) // date_string.go
	}
	e := func() *Node { return g.strExpr(sc, d+1) }
	switch c := g.r.Intn(100); {
	case c < 20:
		return mk(TStr, fmt.Sprintf("SUBSTR(@, %d, %d)", 1+g.r.Intn(3), 1+g.r.Intn(3)), e())
	case c < 35:
		return mk(TStr, "CONCAT(@, @)", e(), e()).lite("(@ || @)")
	case c < 45:
		return mk(TStr, fmt.Sprintf("REPLACE(@, '%s', '%s')", g.pick("a", "b", "ab"), g.pick("", "z", "b")), e())
	case c < 65:
		return g.caseExpr(sc, TStr, d)
	case c < 85:
		return g.coalesce(sc, TStr, d)
	case c < 90:
		return mk(TStr, "CAST(@ AS CHAR)", g.intExpr(sc, d+1)).lite("CAST(@ AS TEXT)")
	case c < 94:
		if g.pct(40) {
			return g.mixedGreatest(sc, d) // mixed_greatest.go
		}
		return g.greatest(sc, TStr, d)
	case c < 97 && sc.subq:
		return g.scalarSubquery(sc, TStr, d)
	case c < 99:
		return g.trimmed(e())
	}
	if g.pct(50) {
		return g.dateText(sc, d)
	}
	return g.leaf(sc, TStr)
}

// decExpr is an exact DECIMAL expression. Arithmetic on decimals is left
// out: SQLite computes it in binary floating point, so equalities and
// DISTINCT may differ from MySQL's exact decimals.
func (g *Gen) decExpr(sc *scope, d int) *Node {
	if sc.agg && g.pct(40) {
		return g.aggregate(sc, TDec, d)
	}
	if d >= maxDepth || g.pct(50) {
		return g.leaf(sc, TDec)
	}
	switch c := g.r.Intn(100); {
	case c < 20:
		return mk(TDec, "ABS(@)", g.decExpr(sc, d+1))
	case c < 35:
		n := mk(TDec, "- @", g.decExpr(sc, d+1))
		n.Prec = precUnary
		return n
	case c < 65:
		return g.caseExpr(sc, TDec, d)
	case c < 72 && sc.subq:
		return g.scalarSubquery(sc, TDec, d)
	case c < 80:
		return g.castDecimal(sc, d)
	}
	return g.coalesce(sc, TDec, d)
}
