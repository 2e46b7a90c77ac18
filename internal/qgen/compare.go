package qgen

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Value is one result cell as the comparison sees it.
type Value struct {
	Null  bool
	Num   bool // a number; Text then holds its canonical form
	Text  string
	Float float64
}

// NumValue is a number cell that is not an integer, or not exactly one
// (DECIMAL, REAL). Numbers print in the shortest form of their value to 12
// significant digits (MySQL prints a DECIMAL(6,2) column as 1.50, SUM of
// integers as a DECIMAL without decimals; SQLite's are 1.5 and an
// integer), so equal numbers, and sums that differ by binary rounding
// alone, have equal text; integral ones as IntValue prints them.
func NumValue(f float64) Value {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return IntValue(int64(f))
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
	if r == math.Trunc(r) && math.Abs(r) < 1<<53 {
		return IntValue(int64(r))
	}
	return Value{Num: true, Text: strconv.FormatFloat(r, 'g', -1, 64), Float: f}
}

// IntValue is an integer cell, compared exactly.
func IntValue(i int64) Value {
	return Value{Num: true, Text: strconv.FormatInt(i, 10), Float: float64(i)}
}

// StrValue is a string cell.
func StrValue(s string) Value { return Value{Text: s} }

// NullValue is NULL.
var NullValue = Value{Null: true}

func (v Value) String() string {
	switch {
	case v.Null:
		return "NULL"
	case v.Num:
		return v.Text
	}
	return strconv.Quote(v.Text)
}

// Rows is a result as lines of cells.
type Rows [][]Value

func (rs Rows) lines() []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		cells := make([]string, len(r))
		for j, v := range r {
			cells[j] = v.String()
		}
		out[i] = strings.Join(cells, " | ")
	}
	return out
}

// Diff describes how got differs from want ("" when they agree): as
// sequences when ordered, as multisets otherwise. Numbers that are not
// integers agree to 1e-9, relative past 1 (SQLite sums DECIMALs as doubles, in
// another order than MySQL's exact sum).
func Diff(got, want Rows, ordered bool) string {
	g, w := append(Rows{}, got...), append(Rows{}, want...)
	if !ordered {
		sortRows(g)
		sortRows(w)
	}
	gl, wl := g.lines(), w.lines()
	for i := 0; i < max(len(g), len(w)); i++ {
		switch {
		case i >= len(w):
			return fmt.Sprintf("%d rows, want %d; extra row %d: %s", len(g), len(w), i+1, gl[i])
		case i >= len(g):
			return fmt.Sprintf("%d rows, want %d; missing row %d: %s", len(g), len(w), i+1, wl[i])
		case !rowsAgree(g[i], w[i]):
			return fmt.Sprintf("row %d: got %s, want %s", i+1, gl[i], wl[i])
		}
	}
	return ""
}

// sortRows orders rows cell by cell, numbers by value, so that rows that
// agree within the tolerance sort alike in both results.
func sortRows(rs Rows) {
	sort.SliceStable(rs, func(a, b int) bool {
		x, y := rs[a], rs[b]
		for j := 0; j < min(len(x), len(y)); j++ {
			if c := cmpValue(x[j], y[j]); c != 0 {
				return c < 0
			}
		}
		return len(x) < len(y)
	})
}

// cmpValue orders NULL first, then numbers by value, then strings.
func cmpValue(x, y Value) int {
	rank := func(v Value) int {
		switch {
		case v.Null:
			return 0
		case v.Num:
			return 1
		}
		return 2
	}
	if c := rank(x) - rank(y); c != 0 {
		return c
	}
	if x.Num && x.Float != y.Float {
		if x.Float < y.Float {
			return -1
		}
		return 1
	}
	return strings.Compare(x.Text, y.Text)
}

func rowsAgree(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for j := range a {
		x, y := a[j], b[j]
		switch {
		case x.Null || y.Null:
			if x.Null != y.Null {
				return false
			}
		case x.Num != y.Num:
			return false
		case x.Text == y.Text:
		case !x.Num || isIntText(x.Text) && isIntText(y.Text):
			return false
		case math.Abs(x.Float-y.Float) > 1e-9*math.Max(1, math.Max(math.Abs(x.Float), math.Abs(y.Float))):
			return false
		}
	}
	return true
}

func isIntText(s string) bool { return !strings.ContainsAny(s, ".e") }

// Show prints rows for a report, at most limit of them.
func Show(rs Rows, limit int) string {
	ls := rs.lines()
	more := ""
	if len(ls) > limit {
		more = fmt.Sprintf("\n  ... %d rows in all", len(ls))
		ls = ls[:limit]
	}
	if len(ls) == 0 {
		return "  (no rows)"
	}
	return "  " + strings.Join(ls, "\n  ") + more
}
