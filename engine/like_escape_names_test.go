package engine

import (
	"context"
	"testing"
)

// A LIKE's multibyte ESCAPE is marked before parsing
// (sql/like_escape_multibyte.go); the select item is still named as
// written, as MySQL names it.
func TestLikeEscapeMultibyteName(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(context.Background(), `SELECT 'a%' LIKE 'aé%' ESCAPE 'é', 'x' LIKE 'x' ESCAPE '€'`, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`'a%' LIKE 'aé%' ESCAPE 'é'`, `'x' LIKE 'x' ESCAPE '€'`}
	got := res[0].Result.Names
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("names %q, want %q", got, want)
	}
}
