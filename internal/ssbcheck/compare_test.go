package ssbcheck

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// cell is one value of a result in a form both engines map to: the SSB
// queries return integers (keys, years, sums of integer columns) and
// strings, which must agree exactly. Doubles never appear in a correct
// answer; they are kept so that a wrong type shows up as a difference.
type cell struct {
	kind kind
	i    int64
	f    float64
	s    string
}

type kind uint8

const (
	kindNull kind = iota
	kindInt
	kindFloat
	kindString
)

func (c cell) String() string {
	switch c.kind {
	case kindNull:
		return "NULL"
	case kindInt:
		return strconv.FormatInt(c.i, 10)
	case kindFloat:
		return strconv.FormatFloat(c.f, 'g', -1, 64) + "(double)"
	}
	return strconv.Quote(c.s)
}

// key is the cell's text for sorting rows into a canonical order; doubles
// are rounded so that near-equal sums sort alike.
func (c cell) key() string {
	switch c.kind {
	case kindFloat:
		return "f" + strconv.FormatFloat(c.f, 'g', 8, 64)
	case kindInt:
		return "i" + strconv.FormatInt(c.i, 10)
	case kindString:
		return "s" + c.s
	}
	return "n"
}

func (c cell) equal(d cell) bool {
	if c.kind != d.kind {
		return false
	}
	switch c.kind {
	case kindInt:
		return c.i == d.i
	case kindString:
		return c.s == d.s
	case kindFloat:
		return c.f == d.f || math.Abs(c.f-d.f) <= 1e-9*math.Max(math.Abs(c.f), math.Abs(d.f))
	}
	return true
}

// compare orders two cells as ORDER BY does: NULL first, numbers by value,
// strings byte-wise (gpusql's sorted dictionaries and SQLite's BINARY
// collation both order by bytes).
func (c cell) compare(d cell) int {
	if c.kind == kindNull || d.kind == kindNull {
		switch {
		case c.kind == d.kind:
			return 0
		case c.kind == kindNull:
			return -1
		}
		return 1
	}
	if c.kind == kindString || d.kind == kindString {
		return strings.Compare(c.s, d.s)
	}
	a, b := c.f, d.f
	if c.kind == kindInt && d.kind == kindInt {
		switch {
		case c.i < d.i:
			return -1
		case c.i > d.i:
			return 1
		}
		return 0
	}
	if c.kind == kindInt {
		a = float64(c.i)
	}
	if d.kind == kindInt {
		b = float64(d.i)
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// resultCells converts gpusql's column vectors into rows of cells. DECIMAL
// of scale 0 (MySQL's type of SUM over integers) is an integer.
func resultCells(r *exec.Result) ([][]cell, error) {
	rows := make([][]cell, r.Rows)
	for i := range rows {
		rows[i] = make([]cell, len(r.Columns))
	}
	for j, c := range r.Columns {
		if c.Len < r.Rows {
			return nil, fmt.Errorf("column %d has %d values for %d rows", j+1, c.Len, r.Rows)
		}
		for i := range r.Rows {
			v := cell{}
			switch {
			case c.IsNull(i):
			case c.Type.ID == columnar.Int32 || c.Type.ID == columnar.Bool:
				v = cell{kind: kindInt, i: int64(c.I32[i])}
			case c.Type.ID == columnar.Int64 || c.Type.ID == columnar.Decimal && c.Type.Scale == 0:
				v = cell{kind: kindInt, i: c.I64[i]}
			case c.Type.ID == columnar.Decimal:
				v = cell{kind: kindFloat, f: float64(c.I64[i]) / math.Pow10(c.Type.Scale)}
			case c.Type.ID == columnar.Float64:
				v = cell{kind: kindFloat, f: c.F64[i]}
			default: // strings, and dates as text
				v = cell{kind: kindString, s: exec.FormatValue(c, i)}
			}
			rows[i][j] = v
		}
	}
	return rows, nil
}

func rowString(row []cell) string {
	s := make([]string, len(row))
	for i, c := range row {
		s[i] = c.String()
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// sortKeyColumns maps ORDER BY keys to column positions of names.
func sortKeyColumns(names []string, order []sortKey) ([]int, error) {
	idx := make([]int, len(order))
	for k, o := range order {
		idx[k] = -1
		for j, n := range names {
			if strings.EqualFold(n, o.Name) {
				idx[k] = j
			}
		}
		if idx[k] < 0 {
			return nil, fmt.Errorf("ORDER BY %s is not an output column of %v", o.Name, names)
		}
	}
	return idx, nil
}

// checkOrder reports the first pair of adjacent rows that breaks the ORDER
// BY keys.
func checkOrder(names []string, rows [][]cell, order []sortKey) error {
	cols, err := sortKeyColumns(names, order)
	if err != nil {
		return err
	}
	for i := 1; i < len(rows); i++ {
		for k, j := range cols {
			c := rows[i-1][j].compare(rows[i][j])
			if order[k].Desc {
				c = -c
			}
			if c < 0 {
				break
			}
			if c > 0 {
				return fmt.Errorf("rows %d and %d are out of ORDER BY order: %s then %s", i, i+1,
					rowString(rows[i-1]), rowString(rows[i]))
			}
		}
	}
	return nil
}

// diffRows compares gpusql's rows with the oracle's as multisets and says
// how they differ: the first row (in the query's order) that is not the
// same in both, and up to five rows only one side has.
func diffRows(got, want [][]cell) string {
	same := len(got) == len(want)
	first := -1
	for i := 0; i < max(len(got), len(want)); i++ {
		if i >= len(got) || i >= len(want) || !rowsEqual(got[i], want[i]) {
			first = i
			break
		}
	}
	gs, ws := sortedRows(got), sortedRows(want)
	var onlyGot, onlyWant []string
	i, j := 0, 0
	for i < len(gs) || j < len(ws) {
		switch {
		case i < len(gs) && j < len(ws) && rowsEqual(gs[i], ws[j]):
			i++
			j++
			continue
		case j >= len(ws) || i < len(gs) && rowKey(gs[i]) < rowKey(ws[j]):
			onlyGot = append(onlyGot, rowString(gs[i]))
			i++
		default:
			onlyWant = append(onlyWant, rowString(ws[j]))
			j++
		}
		same = false
	}
	if same {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows, SQLite %d", len(got), len(want))
	if first >= 0 {
		fmt.Fprintf(&b, "; first difference in order at row %d: gpusql %s, SQLite %s", first+1,
			rowAt(got, first), rowAt(want, first))
	}
	list := func(what string, rows []string) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n  %d rows only in %s:", len(rows), what)
		for k, r := range rows {
			if k == 5 {
				b.WriteString("\n    ...")
				break
			}
			b.WriteString("\n    " + r)
		}
	}
	list("gpusql", onlyGot)
	list("SQLite", onlyWant)
	return b.String()
}

func rowAt(rows [][]cell, i int) string {
	if i < len(rows) {
		return rowString(rows[i])
	}
	return "(none)"
}

func rowsEqual(a, b []cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].equal(b[i]) {
			return false
		}
	}
	return true
}

func rowKey(r []cell) string {
	var b strings.Builder
	for _, c := range r {
		b.WriteString(c.key())
		b.WriteByte(0)
	}
	return b.String()
}

func sortedRows(rows [][]cell) [][]cell {
	out := append([][]cell(nil), rows...)
	sort.SliceStable(out, func(a, b int) bool { return rowKey(out[a]) < rowKey(out[b]) })
	return out
}
