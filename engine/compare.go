package engine

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// CompareResults checks that got has the same columns and rows as want and
// describes the first difference. With inOrder rows are compared position by
// position; otherwise as multisets (both sides sorted first). DOUBLE values
// may differ in the last digits (sums in a different order): they agree
// within a relative 1e-9. Strings compare by value, not by code.
func CompareResults(got, want *exec.Result, inOrder bool) error {
	if len(got.Columns) != len(want.Columns) {
		return fmt.Errorf("%d columns, want %d", len(got.Columns), len(want.Columns))
	}
	for j := range got.Columns {
		gt, wt := got.Columns[j].Type, want.Columns[j].Type
		if gt.ID != wt.ID || gt.Scale != wt.Scale {
			return fmt.Errorf("column %d (%s) is %s, want %s", j+1, colName(want, j), gt, wt)
		}
	}
	if got.Rows != want.Rows {
		return fmt.Errorf("%d rows, want %d", got.Rows, want.Rows)
	}
	gi, wi := rowOrder(got, inOrder), rowOrder(want, inOrder)
	for k := 0; k < got.Rows; k++ {
		for j := range got.Columns {
			if !sameValue(got.Columns[j], gi[k], want.Columns[j], wi[k]) {
				return fmt.Errorf("row %d differs at column %s: got (%s), want (%s)", k+1, colName(want, j),
					strings.Join(got.Row(gi[k]), ", "), strings.Join(want.Row(wi[k]), ", "))
			}
		}
	}
	return nil
}

func colName(r *exec.Result, j int) string {
	if j < len(r.Names) {
		return r.Names[j]
	}
	return strconv.Itoa(j + 1)
}

// rowOrder is the order to visit rows in: as they are, or sorted by a key in
// which doubles are rounded so that near-equal values sort alike.
func rowOrder(r *exec.Result, inOrder bool) []int {
	idx := make([]int, r.Rows)
	for i := range idx {
		idx[i] = i
	}
	if inOrder {
		return idx
	}
	keys := make([]string, r.Rows)
	for i := range keys {
		var b strings.Builder
		for _, c := range r.Columns {
			if c.Type.ID == columnar.Float64 && !c.IsNull(i) {
				b.WriteString(strconv.FormatFloat(c.F64[i], 'g', 8, 64))
			} else {
				b.WriteString(exec.FormatValue(c, i))
			}
			b.WriteByte(0)
		}
		keys[i] = b.String()
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	return idx
}

func sameValue(a *columnar.Column, i int, b *columnar.Column, j int) bool {
	an, bn := a.IsNull(i), b.IsNull(j)
	if an || bn {
		return an == bn
	}
	switch a.Type.ID {
	case columnar.Float64:
		x, y := a.F64[i], b.F64[j]
		if x == y || (math.IsNaN(x) && math.IsNaN(y)) {
			return true
		}
		return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
	case columnar.String:
		return a.StringAt(i) == b.StringAt(j)
	case columnar.Vector:
		return columnar.CompareVectors(a.VectorAt(i), b.VectorAt(j)) == 0
	default:
		return a.Int64At(i) == b.Int64At(j)
	}
}
