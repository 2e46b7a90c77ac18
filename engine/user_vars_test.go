package engine

import (
	"context"
	"testing"
)

// TestUserVariablesPerConnection: SET @x on one connection is invisible on
// another (each reads NULL until it sets its own).
func TestUserVariablesPerConnection(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, b := db.Conn(), db.Conn()
	get := func(c *Conn) string {
		t.Helper()
		res, err := c.Exec(ctx, "SELECT @x", "")
		if err != nil {
			t.Fatal(err)
		}
		col := res[0].Result.Columns[0]
		if col.IsNull(0) {
			return "NULL"
		}
		return col.StringAt(0)
	}
	if _, err := a.Exec(ctx, "SET @x = 'from a'", ""); err != nil {
		t.Fatal(err)
	}
	if got := get(a); got != "from a" {
		t.Errorf("a: @x = %s, want 'from a'", got)
	}
	if got := get(b); got != "NULL" {
		t.Errorf("b: @x = %s, want NULL (user variables are per connection)", got)
	}
	if _, err := b.Exec(ctx, "SET @X = 'from b'", ""); err != nil {
		t.Fatal(err)
	}
	if got, got2 := get(a), get(b); got != "from a" || got2 != "from b" {
		t.Errorf("after b's SET: a sees %s, b sees %s", got, got2)
	}
}
