package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// MySQL's `a SOUNDS LIKE b` is SOUNDEX(a) = SOUNDEX(b). The TiDB parser has
// no such syntax, but it has ILIKE (which MySQL lacks) with the precedence
// of LIKE, so before parsing every SOUNDS LIKE outside literals and
// comments is rewritten to ILIKE, in place (padded with blanks, so every
// offset and line of the text stays), and the binder reads an ILIKE of
// such a script as SOUNDS LIKE. A script that writes ILIKE itself is left
// alone: its ILIKE stays refused and a SOUNDS LIKE in it a syntax error.

// markSoundsLike returns text with its SOUNDS LIKE rewritten and whether
// there was one.
func markSoundsLike(text string) (string, bool) {
	sc := wordScanner{s: text}
	var spans [][2]int // SOUNDS start, LIKE end
	sounds := -1
	for {
		start, w := sc.next()
		if w == "" {
			break
		}
		switch {
		case strings.EqualFold(w, "ILIKE"):
			return text, false
		case strings.EqualFold(w, "SOUNDS"):
			sounds = start
			continue
		case strings.EqualFold(w, "LIKE") && sounds >= 0:
			spans = append(spans, [2]int{sounds, sc.pos})
		}
		sounds = -1
	}
	if len(spans) == 0 {
		return text, false
	}
	b := []byte(text)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
		// ILIKE ends where LIKE did; the blank before LIKE takes the I
		// (a line break there stays, and the I goes before it).
		at := sp[1] - 5
		if b[at] == '\n' {
			at = sp[0]
			copy(b[at:], "ILIKE")
			continue
		}
		copy(b[at:], "ILIKE")
	}
	return string(b), true
}

// withSoundsLike marks the statements of a script whose SOUNDS LIKE were
// rewritten and gives them their text as written: Text, and src (unmarked,
// the text the other passes left, at the same offsets) for the column
// names and views the binder cuts from it.
func withSoundsLike(stmts []Parsed, text, unmarked string, marked bool) []Parsed {
	if !marked {
		return stmts
	}
	for i := range stmts {
		p := &stmts[i]
		p.soundsLike = true
		p.src = unmarked
		p.retext(text)
	}
	return stmts
}

// bindSoundsLike binds a SOUNDS LIKE b: SOUNDEX(a) = SOUNDEX(b).
func (b *binder) bindSoundsLike(n *ast.PatternLikeOrIlikeExpr, sc *scope, pos int) (Expr, error) {
	var sx [2]Expr
	for i, x := range []ast.ExprNode{n.Expr, n.Pattern} {
		e, err := b.expr(x, sc)
		if err != nil {
			return nil, err
		}
		if sx[i], _, err = b.moreFunc("soundex", []Expr{e}, pos); err != nil {
			return nil, err
		}
	}
	eq, err := b.compare(OpEQ, sx[0], sx[1], pos)
	if err != nil {
		return nil, err
	}
	if n.Not {
		return &Not{E: eq}, nil
	}
	return eq, nil
}

// unmarkSoundsLike writes the ILIKE words of restored SQL (a view's text)
// back as SOUNDS LIKE, outside literals.
func unmarkSoundsLike(text string) string {
	sc := wordScanner{s: text}
	var sb strings.Builder
	last := 0
	for {
		start, w := sc.next()
		if w == "" {
			break
		}
		if strings.EqualFold(w, "ILIKE") {
			sb.WriteString(text[last:start])
			sb.WriteString("SOUNDS LIKE")
			last = sc.pos
		}
	}
	sb.WriteString(text[last:])
	return sb.String()
}

// unmarkedText is t, a node's text as the parser saw it, as written: a
// SOUNDS LIKE where the parser saw ILIKE. The rewrite keeps lengths, so t
// written is the slice of the statement that rewrites to t.
func (b *binder) unmarkedText(t string) string {
	t = b.unmarkedEscapes(t)
	if !b.soundsLike || !strings.Contains(strings.ToUpper(t), "ILIKE") {
		return t
	}
	for i := b.start; i+len(t) <= len(b.src) && i < b.end; i++ {
		if c := b.src[i : i+len(t)]; c[0] == t[0] {
			if m, _ := markSoundsLike(c); m == t {
				return c
			}
		}
	}
	return t
}
