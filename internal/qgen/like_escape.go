package qgen

import "fmt"

// likeEscapes are LIKE patterns with an ESCAPE character, one of them
// multibyte (gpusql marks it before TiDB's parser, which takes one byte:
// sql/like_escape_multibyte.go). In both engines the escape makes the
// next character literal, a wildcard or not.
var likeEscapes = [][2]string{{"|a%", "|"}, {"%b|%", "|"}, {"h|_llo", "|"}, {"éh_llo", "é"}, {"%éa", "é"},
	{"a%é_", "é"}, {"#%", "#"}, {"%#b%", "#"}}

// likeEscape is x [NOT] LIKE pattern ESCAPE c.
func (g *Gen) likeEscape(sc *scope, d int) *Node {
	p := likeEscapes[g.r.Intn(len(likeEscapes))]
	return cmp(mk(TBool, fmt.Sprintf("@ %sLIKE '%s' ESCAPE '%s'", g.pick("", "NOT "), p[0], p[1]), g.strExpr(sc, d+1)))
}
