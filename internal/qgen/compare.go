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
// sequences when ordered, as multisets otherwise.
func Diff(got, want Rows, ordered bool) string {
	g, w := got.lines(), want.lines()
	if !ordered {
		sort.Strings(g)
		sort.Strings(w)
	}
	for i := 0; i < max(len(g), len(w)); i++ {
		switch {
		case i >= len(w):
			return fmt.Sprintf("%d rows, want %d; extra row %d: %s", len(g), len(w), i+1, g[i])
		case i >= len(g):
			return fmt.Sprintf("%d rows, want %d; missing row %d: %s", len(g), len(w), i+1, w[i])
		case g[i] != w[i]:
			return fmt.Sprintf("row %d: got %s, want %s", i+1, g[i], w[i])
		}
	}
	return ""
}

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
