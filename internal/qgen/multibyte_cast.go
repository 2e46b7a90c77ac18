package qgen

import "fmt"

// CAST(x AS CHAR(n)) of multibyte text keeps its first n characters (with
// a warning), as SQLite's SUBSTR(x, 1, n) does; an engine that cuts n
// bytes splits a character (LENGTH then counts fewer bytes, or the text
// is no longer UTF-8). Read through multibyteInt's lengths.
func (g *Gen) multibyteCast(sc *scope, d int) *Node {
	n := 1 + g.r.Intn(4)
	return mk(TStr, fmt.Sprintf("CAST(@ AS CHAR(%d))", n), g.multibyteText(sc, d+1)).lite(fmt.Sprintf("SUBSTR(@, 1, %d)", n))
}
