package planner

import (
	"fmt"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// SortMergeJoin sorts both inputs on their keys (skipping inputs that arrive
// sorted) and merges them (merge-path partitioning on the GPU, Diamos et al.).
// It is chosen over HashJoin when both inputs are already sorted on the key,
// or when the build side would be very large with heavily duplicated keys, so
// that a hash table's random accesses cost more than two sorts. Same kinds and
// semantics as HashJoin; output left++right (Semi, Anti: left).
type SortMergeJoin struct {
	NodeProps
	Kind                sql.JoinKind
	Left, Right         Node
	LeftKeys, RightKeys []sql.Expr
	Residual            sql.Expr
	NullAware           bool
	// LeftSorted and RightSorted record inputs known to be ordered on the
	// keys already (sortedOn): executors need not sort them again, only
	// set their rows with a NULL key aside.
	LeftSorted, RightSorted bool
	// Why says why the planner chose a sort-merge join, for EXPLAIN.
	Why string
	Out sql.Schema
}

func (n *SortMergeJoin) Schema() sql.Schema { return n.Out }
func (n *SortMergeJoin) Children() []Node   { return []Node{n.Left, n.Right} }

// sortedOn reports whether n's rows arrive ordered ascending on keys, as a
// merge join compares them: n is a Sort or TopN whose leading keys are
// these columns, in this order, ascending; or a table scan of one key
// column whose statistics say its values never decrease in row order
// (tableSorted); or a Limit, Filter or Projection passing the keys through
// from such an input (both executors keep row order through them: the
// GPU's compaction writes surviving rows in order, the CPU collects
// morsels in order). Rows with a NULL key may sit anywhere (a Sort puts
// them first); executors set those aside. A key must be a plain column
// (and the caller checks sameKeyTypes), so that no expression or
// conversion can reorder its values.
func sortedOn(n Node, keys []sql.Expr) bool {
	cols := make([]int, len(keys))
	for i, k := range keys {
		c, ok := k.(*sql.ColRef)
		if !ok {
			return false
		}
		cols[i] = c.Index
	}
	for {
		switch x := n.(type) {
		case *Sort:
			return leadingKeys(x.Keys, cols)
		case *TopN:
			return leadingKeys(x.Keys, cols)
		case *TableScan:
			// Sorted on one column says nothing of the order within its
			// runs of equal values, so only a single key qualifies.
			return len(cols) == 1 && tableSorted(x.Table, x.Columns[cols[0]])
		case *Limit:
			n = x.Input
		case *Filter:
			n = x.Input
		case *Projection:
			for i, c := range cols {
				ref, ok := x.Exprs[c].(*sql.ColRef)
				if !ok {
					return false
				}
				cols[i] = ref.Index
			}
			n = x.Input
		default:
			return false
		}
	}
}

// tableSorted reports whether column c's non-NULL values never decrease
// in row order: every chunk is sorted and starts at or above where the
// previous non-empty chunk ended.
func tableSorted(t *columnar.Table, c int) bool {
	if c >= len(t.Stats) || len(t.Stats[c]) != t.NumChunks() || t.Rows == 0 {
		return false
	}
	first := true
	var prevMax int64
	for k, st := range t.Stats[c] {
		if st.NullCount == min(columnar.ChunkRows, t.Rows-k*columnar.ChunkRows) {
			continue // only NULLs: no order to keep
		}
		if !st.Sorted || (!first && st.Min < prevMax) {
			return false
		}
		first, prevMax = false, st.Max
	}
	return true
}

// leadingKeys reports whether the first sort keys are the columns cols,
// in order, ascending.
func leadingKeys(keys []sql.SortKey, cols []int) bool {
	if len(keys) < len(cols) {
		return false
	}
	for i, c := range cols {
		ref, ok := keys[i].Expr.(*sql.ColRef)
		if !ok || ref.Index != c || keys[i].Desc {
			return false
		}
	}
	return true
}

// sameKeyTypes reports whether every key pair has one integral type on
// both sides (signed integers, dates, decimals, times): only then is a
// side taken as sorted, since no conversion can reorder such keys and
// both executors' key encodings keep their order. (Strings are mapped
// between dictionaries or interned, doubles compared by bit pattern on the
// CPU: those inputs are sorted again.)
func sameKeyTypes(lk, rk []sql.Expr) bool {
	for i := range lk {
		lt, rt := lk[i].Type(), rk[i].Type()
		if lt.ID != rt.ID || lt.Unsigned || rt.Unsigned {
			return false
		}
		switch lt.ID {
		case columnar.Int32, columnar.Int64, columnar.Decimal, columnar.Date, columnar.Datetime, columnar.Time:
		default:
			return false
		}
	}
	return true
}

// describeSortMergeJoin is the EXPLAIN line: kind, keys, residual, why
// sort-merge was chosen and which inputs are not sorted again.
func describeSortMergeJoin(head string, n *SortMergeJoin) string {
	s := fmt.Sprintf("%s %s on %s", head, joinKindName(n.Kind, n.NullAware),
		keyPairs(n.LeftKeys, n.RightKeys, n.Left.Schema(), n.Right.Schema()))
	if n.Residual != nil {
		s += " residual " + exprString(n.Residual)
	}
	var notes []string
	if n.Why != "" {
		notes = append(notes, "sort-merge: "+n.Why)
	}
	for _, side := range []struct {
		name   string
		sorted bool
		keys   []sql.Expr
	}{{"left", n.LeftSorted, n.LeftKeys}, {"right", n.RightSorted, n.RightKeys}} {
		if side.sorted {
			notes = append(notes, fmt.Sprintf("%s input sorted on %s: not sorted again", side.name, exprList(side.keys)))
		}
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// sortMergeJoinHow is how the GPU runs n (exec/gpu/merge_path.go).
func sortMergeJoinHow(n *SortMergeJoin) string {
	var sort string
	switch {
	case n.LeftSorted && n.RightSorted:
		sort = "both inputs sorted already (NULL keys set aside)"
	case n.LeftSorted:
		sort = "radix sort the right input (left sorted already)"
	case n.RightSorted:
		sort = "radix sort the left input (right sorted already)"
	default:
		sort = "radix sort both inputs"
	}
	return sort + ", merge-path join (Diamos et al.): equal co-rank tiles merged in shared memory, device scan, load-balanced expansion of the pairs"
}
