// Package qgen writes random SQL queries, deterministic in a seed, over a
// few small integer tables (with NULLs, duplicates, negatives and zero, a
// short lower-case string column and a DECIMAL(6,2) column), for a
// differential test that runs each one on gpusql and on SQLite and compares
// the rows.
//
// A query is kept as a tree of Nodes, so that it renders in two dialects
// (MySQL's `a DIV b` is SQLite's `a / b` on integers) and so that a failing
// query can be shrunk by dropping clauses and replacing subexpressions
// (Shrink). The generator keeps to SQL on which MySQL 8.0, which gpusql
// follows, and SQLite agree; each construct it leaves out is named with the
// reason where the generator would otherwise make it.
package qgen

import (
	"strconv"
	"strings"
)

// Type is the SQL type of an expression node; it says which nodes may take
// a node's place when a query is shrunk.
type Type uint8

const (
	TNone Type = iota // clauses, lists, keys: never replaced, maybe dropped
	TInt              // integers (and comparisons used as 0/1)
	TStr              // lower-case ASCII strings
	TBool             // predicates
	TDec              // exact DECIMAL(6,2) values (columns, literals, MIN, MAX)
	// TReal is DECIMAL arithmetic and sums: exact in MySQL, binary floating
	// point in SQLite, so equal only to a tolerance. Such a value is only
	// ever a top level output column, of a query without DISTINCT, ORDER
	// BY or set operation: never compared, grouped or deduplicated.
	TReal
	TDate // DATE values, 'YYYY-MM-DD' text to SQLite (dates.go)
)

// Dialect picks how a node renders.
type Dialect uint8

const (
	MySQL  Dialect = iota // gpusql's (and MySQL's) SQL
	SQLite                // the oracle's SQL
)

// Operator precedences, loosest first, where MySQL and SQLite agree: OR,
// AND, NOT, comparisons (=, <, IS NULL, BETWEEN, IN, LIKE: SQLite binds <
// tighter than =, MySQL does not, so a comparison inside another is always
// parenthesized), + and -, * DIV and %, unary minus and plus.
const (
	precSame = -1
	precOr   = iota + 9
	precAnd
	precNot
	precCmp
	precAdd
	precMul
	precUnary
)

// placeholder marks where a kid goes in a node's text.
const placeholder = "@"

// Node is one piece of a query: text parts with kids between them
// (Parts[0] Kids[0] Parts[1] ... Kids[n-1] Parts[n]).
type Node struct {
	Parts []string
	Lite  []string // SQLite's parts where they differ from Parts
	Kids  []*Node
	Type  Type
	// Prec is the binding strength of an operator written without
	// parentheses of its own (prec* below), 0 for anything that brings its
	// own delimiters, precSame for a node that is its one kid's text.
	// Parentheses are decided when rendering, because shrinking can put a
	// looser operator where a tighter one was.
	Prec int
	// Optional nodes (WHERE, HAVING, ORDER BY, DISTINCT, ...) may be dropped.
	Optional bool
	// Frozen nodes' kids live in another scope or aggregation level
	// (subqueries, aggregate and window calls): none may take the node's
	// place, though the node may become a literal.
	Frozen bool
	// Pinned nodes are never replaced (a scalar subquery's aggregate, which
	// keeps it to one row); their kids may be.
	Pinned bool
	// Literal nodes are the smallest replacements.
	Literal bool
	// Tag "order" marks the top level ORDER BY, whose presence makes the
	// row order part of the answer.
	Tag string
	// Bound is the largest absolute value an integer node can take.
	Bound int64
	// Op names a TReal operator whose MySQL scale follows from its kids'
	// (scaleOf in division.go): div, avg, mul, add, same (a TReal with
	// none has scale 2), and round, the top level item that SQLite
	// rounds to that scale.
	Op string
	// repeat: SQLite's parts all take the one kid (rounding.go); scale1:
	// that too, for a TReal of one decimal.
	// Divides marks a TReal computed from a division (division.go).
	Divides bool
	// LiteRepeat: SQLite's parts all take the one kid, as Op "repeat",
	// for a node whose Op gives its scale (window_avg.go).
	LiteRepeat bool
	// Rollup, for a GROUP BY ... WITH ROLLUP query, is its GROUP BY
	// columns: SQLite has no ROLLUP, so its rendering is the UNION ALL of
	// the groupings (renderRollup).
	Rollup []string
	// Groupings, of such a query, are its GROUPING(...) items after the
	// keys, each the positions of the keys it names (rollup.go).
	Groupings [][]int
	// WantErr, on a statement MySQL refuses and SQLite runs, is the text
	// of MySQL's error: only that is compared (refused.go).
	WantErr string

	dropped bool
}

// mk makes a node of type t from a format whose placeholders take kids.
func mk(t Type, format string, kids ...*Node) *Node {
	parts := strings.Split(format, placeholder)
	if len(parts) != len(kids)+1 {
		panic("qgen: format " + format + " does not match its kids")
	}
	return &Node{Parts: parts, Kids: kids, Type: t}
}

// lite sets the SQLite rendering of n's parts.
func (n *Node) lite(format string) *Node {
	n.Lite = strings.Split(format, placeholder)
	return n
}

func (n *Node) optional() *Node { n.Optional = true; return n }
func (n *Node) frozen() *Node   { n.Frozen = true; return n }

// lit is a literal of type t.
func lit(t Type, text string) *Node {
	return &Node{Parts: []string{text}, Type: t, Literal: true}
}

// txt is fixed text.
func txt(s string) *Node { return &Node{Parts: []string{s}} }

// SQL renders n in dialect d.
func (n *Node) SQL(d Dialect) string {
	var b strings.Builder
	n.render(&b, d)
	return b.String()
}

func (n *Node) render(b *strings.Builder, d Dialect) {
	if n.dropped {
		return
	}
	if d == SQLite && n.Rollup != nil {
		n.renderRollup(b, d)
		return
	}
	if d == SQLite && (n.Op == "repeat" || n.Op == "scale1" || n.Op == "pair" || n.LiteRepeat) {
		n.renderRepeated(b, d)
		return
	}
	parts := n.Parts
	if d == SQLite && n.Lite != nil {
		parts = n.Lite
	}
	if d == SQLite && n.Op == "round" {
		// Nudged away from zero by far less than a printed digit: a
		// value MySQL holds exactly at a half (99.99 / -32 is
		// -3.1246875) may be a double just short of it.
		b.WriteString("ROUND((")
		n.Kids[0].render(b, d)
		b.WriteString(") + 1e-11 * SIGN(")
		n.Kids[0].render(b, d)
		b.WriteString("), " + strconv.Itoa(max(scaleOf(n.Kids[0]), 2)) + ")")
		return
	}
	for i, p := range parts {
		b.WriteString(p)
		if i < len(n.Kids) {
			k := n.Kids[i]
			paren := needsParens(n.Prec, k.prec(), i)
			if paren {
				b.WriteString("(")
			}
			k.render(b, d)
			if paren {
				b.WriteString(")")
			}
		}
	}
}

// prec is n's precedence as its parent sees it.
func (n *Node) prec() int {
	if n.Prec == precSame {
		return n.Kids[0].prec()
	}
	return n.Prec
}

// needsParens says whether kid i of precedence k needs parentheses under an
// operator of precedence p: a looser kid does, so does a kid as loose on
// the right of a left-associative operator, and any comparison under a
// comparison.
func needsParens(p, k, i int) bool {
	switch {
	case p <= 0 || k <= 0:
		return false
	case p == precCmp:
		return k <= precCmp
	case p == precNot || p == precUnary:
		return k < p
	}
	return k < p || (i > 0 && k == p)
}

// clone copies the tree under n.
func (n *Node) clone() *Node {
	c := *n
	c.Kids = make([]*Node, len(n.Kids))
	for i, k := range n.Kids {
		c.Kids[i] = k.clone()
	}
	return &c
}

// walk visits the nodes under n in pre-order, skipping dropped ones, until
// visit returns false.
func (n *Node) walk(visit func(*Node) bool) bool {
	if n.dropped {
		return true
	}
	if !visit(n) {
		return false
	}
	for _, k := range n.Kids {
		if !k.walk(visit) {
			return false
		}
	}
	return true
}

// renderRollup writes SELECT keys, aggregates FROM ... GROUP BY keys WITH
// ROLLUP as MySQL computes it: the groups by every prefix of the keys, the
// keys past the prefix NULL, down to the grand total, which an input
// without rows does not have. Kids: the aggregates, FROM, WHERE.
func (n *Node) renderRollup(b *strings.Builder, d Dialect) {
	keys := n.Rollup
	for l := len(keys); l >= 0; l-- {
		if l < len(keys) {
			b.WriteString(" UNION ALL ")
		}
		b.WriteString("SELECT ")
		for i, k := range keys {
			if i >= l {
				k = "NULL"
			}
			b.WriteString(k + ", ")
		}
		for _, g := range n.Groupings {
			b.WriteString(strconv.Itoa(groupingValue(g, l)) + ", ")
		}
		n.Kids[0].render(b, d)
		b.WriteString(" FROM ")
		n.Kids[1].render(b, d)
		n.Kids[2].render(b, d)
		if l > 0 {
			b.WriteString(" GROUP BY " + strings.Join(keys[:l], ", "))
		} else {
			b.WriteString(" HAVING COUNT(*) > 0")
		}
	}
}
