package qgen

import "fmt"

// LIKE over multibyte text. MySQL's _ matches one character, however many
// bytes it takes, and so does SQLite's LIKE (it reads UTF-8); an engine
// that matches bytes finds '日本語' LIKE '___' false. The patterns' letters
// have no accented form in the texts (multibytePool), and the texts no
// upper case, so neither utf8mb4_0900_ai_ci's accent folding ('é' LIKE
// 'e' is 1 in MySQL) nor its case folding can part the two.

var multibytePatterns = []string{"_", "__", "___", "____", "%_", "_%_", "日%", "%語", "_本_",
	"%€%", "_€_", "😀_", "%😀%", "_x", "%b", "h__", "h%", "%d_", "%x%"}

// likeMultibyte is multibyte text [NOT] LIKE one of multibytePatterns.
func (g *Gen) likeMultibyte(sc *scope, d int) *Node {
	p := g.pick(multibytePatterns...)
	return cmp(mk(TBool, fmt.Sprintf("@ %sLIKE '%s'", g.pick("", "NOT "), p), g.multibyteText(sc, d+1)))
}
