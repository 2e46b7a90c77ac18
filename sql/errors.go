package sql

import (
	"fmt"
	"unicode/utf8"
)

// Error is a parse or bind error at a position of the text given to Parse.
// Line and Col are 1-based; Col counts characters (runes) from the start of
// the line, so an editor can jump to it.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg) }

// lineCol maps a byte offset of src to a 1-based line and column.
func lineCol(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCountInString(src[start:off]) + 1
}
