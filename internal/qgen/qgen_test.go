package qgen

import (
	"strings"
	"testing"
)

// The same seed writes the same query, with every placeholder filled.
func TestGenerateDeterministic(t *testing.T) {
	for seed := int64(1); seed < 200; seed++ {
		a, b := Generate(seed), Generate(seed)
		if a.MySQL() != b.MySQL() || a.SQLite() != b.SQLite() {
			t.Fatalf("seed %d: two runs differ:\n%s\n%s", seed, a.MySQL(), b.MySQL())
		}
		if strings.Contains(a.MySQL()+a.SQLite(), placeholder) {
			t.Errorf("seed %d: a placeholder is left:\n%s", seed, a.MySQL())
		}
	}
}

// Parentheses follow precedence, also after shrinking puts a looser
// operator under a tighter one.
func TestRenderParentheses(t *testing.T) {
	a, b, c := colNode(column{ref: "a"}), colNode(column{ref: "b"}), colNode(column{ref: "c"})
	sum := mk(TInt, "@ + @", b, c)
	sum.Prec = precAdd
	diff := mk(TInt, "@ - @", a, sum)
	diff.Prec = precAdd
	if got := diff.SQL(MySQL); got != "a - (b + c)" {
		t.Errorf("got %s", got)
	}
	or := mk(TBool, "@ OR @", cmp(mk(TBool, "@ = @", a, b)), cmp(mk(TBool, "@ < @", b, c)))
	or.Prec = precOr
	not := mk(TBool, "NOT @", and(or, cmp(mk(TBool, "@ IS NULL", cmp(mk(TBool, "@ = @", a, c))))))
	not.Prec = precNot
	if got := not.SQL(MySQL); got != "NOT ((a = b OR b < c) AND (a = c) IS NULL)" {
		t.Errorf("got %s", got)
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
	if d := Diff(Rows{{NumValue(1.5)}}, Rows{{NumValue(1.5000000000001)}}, false); d != "" {
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

// Integers compare exactly, past float64's 2^53 too.
func TestIntValue(t *testing.T) {
	if Diff(Rows{{IntValue(1<<62 + 1)}}, Rows{{IntValue(1 << 62)}}, false) == "" {
		t.Error("2^62+1 agrees with 2^62")
	}
	if d := Diff(Rows{{NumValue(3)}}, Rows{{IntValue(3)}}, false); d != "" {
		t.Errorf("DECIMAL 3.00 and INTEGER 3 differ: %s", d)
	}
}
