package sql

import (
	"errors"
	"testing"
)

// TestMarkSoundsLike: the rewrite keeps every offset and leaves literals,
// comments and a script with its own ILIKE alone.
func TestMarkSoundsLike(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"select a sounds like b", "select a       ILIKE b"},
		{"select a SOUNDS  LIKE b, 'sounds like' c", "select a        ILIKE b, 'sounds like' c"},
		{"select a sounds\nlike b", "select a ILIKE \n     b"},
		{"select 'x sounds like y' /* sounds like */", "select 'x sounds like y' /* sounds like */"},
		{"select a ilike b, c sounds like d", "select a ilike b, c sounds like d"},
	} {
		got, _ := markSoundsLike(c.in)
		if got != c.want || len(got) != len(c.in) {
			t.Errorf("markSoundsLike(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A syntax error after a SOUNDS LIKE is reported at its place in the
	// text as written.
	_, err := Parse("select 'a' sounds like 'b' frm t")
	var se *Error
	if !errors.As(err, &se) || se.Line != 1 || se.Col != 32 {
		t.Errorf("syntax error after SOUNDS LIKE: %v, want line 1 column 32", err)
	}
}
