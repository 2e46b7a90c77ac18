package qgen

import (
	"strings"
	"testing"
)

// The same seed writes the same query; the dialects differ only where the
// generator means them to (DIV, CONCAT, scalar subqueries).
func TestGenerateDeterministic(t *testing.T) {
	for seed := int64(1); seed < 200; seed++ {
		a, b := Generate(seed), Generate(seed)
		if a.MySQL() != b.MySQL() {
			t.Fatalf("seed %d: two runs differ:\n%s\n%s", seed, a.MySQL(), b.MySQL())
		}
		if !strings.Contains(a.MySQL(), "DIV") && !strings.Contains(a.MySQL(), "CONCAT") && !strings.Contains(a.MySQL(), "(SELECT") && a.MySQL() != a.SQLite() {
			t.Errorf("seed %d: dialects differ without DIV or CONCAT:\n%s\n%s", seed, a.MySQL(), a.SQLite())
		}
	}
}

func TestDiff(t *testing.T) {
	one, two := Rows{{NumValue(1)}, {NumValue(2)}}, Rows{{NumValue(2)}, {NumValue(1)}}
	if d := Diff(one, two, false); d != "" {
		t.Errorf("multisets of the same rows differ: %s", d)
	}
	if Diff(one, two, true) == "" {
		t.Error("sequences in another order agree")
	}
	if Diff(one, Rows{{NumValue(1)}, {NumValue(1)}}, false) == "" {
		t.Error("a duplicate row in place of another agrees")
	}
	if Diff(Rows{{NullValue}}, Rows{{StrValue("NULL")}}, false) == "" {
		t.Error("NULL agrees with the string 'NULL'")
	}
	if d := Diff(Rows{{NumValue(1.5)}}, Rows{{NumValue(1.50000000001)}}, false); d != "" {
		t.Errorf("DECIMAL 1.50 and REAL 1.5 differ: %s", d)
	}
}

// Shrinking keeps the failure and drops what it does not need.
func TestShrink(t *testing.T) {
	for seed := int64(1); seed < 400; seed++ {
		q := Generate(seed)
		if !strings.Contains(q.MySQL(), " DIV ") {
			continue
		}
		small := Shrink(q, func(c *Query) bool { return strings.Contains(c.MySQL(), " DIV ") }, 5000)
		if !strings.Contains(small.MySQL(), " DIV ") || len(small.MySQL()) > len(q.MySQL()) {
			t.Fatalf("seed %d: shrunk to %s", seed, small.MySQL())
		}
		if strings.Contains(small.MySQL(), "WHERE") && !strings.Contains(small.MySQL(), "DIV") {
			t.Errorf("seed %d: kept a WHERE it needs not: %s", seed, small.MySQL())
		}
		return
	}
	t.Fatal("no query with DIV in 400 seeds")
}
