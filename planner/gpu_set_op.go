package planner

import (
	"fmt"
	"math"
	"math/bits"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The GPU runs DISTINCT and UNION / INTERSECT / EXCEPT [ALL] by hashing or
// by sorting (Diamos et al.'s skeletons), chosen here per operator:
//
//   - hash (kernels/group_by.cu): every row probes a global open-addressing
//     table of representative rows sized for the input; INTERSECT and
//     EXCEPT then count each group's rows per side with atomics and decide
//     the copies on the host (O(groups) over PCIe).
//   - sort (kernels/set_op_sort.cu): a stable radix sort of the rows by
//     every column, run heads by adjacent difference, and for INTERSECT /
//     EXCEPT one pass that counts each run's left and right rows and flags
//     the copies to keep; compaction and a gather finish on the device.
//
// Hashing wins while the table and the groups' rows stay in the L2 cache
// (few distinct rows) and the operator needs no per-group counts; sorting
// wins when the input already arrives sorted on its rows (only the heads
// pass is left), and for INTERSECT / EXCEPT with many distinct rows, whose
// hash form pays random probes into a table far larger than L2, atomics
// per row and a copy of every group's counts to the host.

// SetAlgorithm is how the GPU runs a DISTINCT or a set operation.
type SetAlgorithm string

const (
	SetAuto SetAlgorithm = ""
	SetHash SetAlgorithm = "hash"
	SetSort SetAlgorithm = "sort"
)

// GPUSetChoice is the GPU plan's choice for one Distinct or SetOp.
type GPUSetChoice struct {
	Algorithm SetAlgorithm
	// InputSorted: a DISTINCT's input arrives sorted on every column, so
	// the sort-based form skips its sort.
	InputSorted bool
	// Why says what decided it.
	Why string
	// Orders, when set, is the Sort or TopN above whose order the sorted
	// rows come out in, so that it does not sort again.
	Orders Node
}

// RowKeyStats is what the choice knows of the rows a DISTINCT or set
// operation compares (filled by the builder from its statistics).
type RowKeyStats struct {
	// Rows are the input rows (both sides of a set operation); Groups the
	// estimated distinct rows among them.
	Rows, Groups float64
	// SortBytes per column: the bytes of its order-preserving 8-byte
	// encoding on which rows can differ (the radix sort skips the others);
	// Nullable: whether it may hold NULLs (one more pass).
	SortBytes []int
	Nullable  []bool
}

// rowKeyStats summarizes the columns of schema (statistics cols) for the
// set operation choice; rows and groups are the input's.
func rowKeyStats(cols []colStat, schema sql.Schema, rows, groups float64) RowKeyStats {
	k := RowKeyStats{Rows: rows, Groups: groups}
	for i, col := range schema {
		c := unknownCol(col.Type, rows)
		if i < len(cols) {
			c = cols[i]
		}
		k.SortBytes = append(k.SortBytes, sortBytes(c, col.Type))
		k.Nullable = append(k.Nullable, c.NullFrac > 0)
	}
	return k
}

// setOpKeyStats is rowKeyStats of a set operation's two inputs together:
// each column's range spans both sides', its distinct values are at most
// both sides' together.
func setOpKeyStats(ls, rs *relStats, out sql.Schema) RowKeyStats {
	both := &relStats{Rows: ls.Rows + rs.Rows}
	for i, col := range out {
		c := unknownCol(col.Type, both.Rows)
		if i < len(ls.Cols) && i < len(rs.Cols) {
			l, r := ls.Cols[i], rs.Cols[i]
			c.Distinct = l.Distinct + r.Distinct
			c.NullFrac = math.Max(l.NullFrac, r.NullFrac)
			if l.HasRange && r.HasRange {
				c.Min, c.Max, c.HasRange = math.Min(l.Min, r.Min), math.Max(l.Max, r.Max), true
			}
		}
		both.Cols = append(both.Cols, c)
	}
	both.capDistinct()
	return rowKeyStats(both.Cols, out, both.Rows, groupCount(both, allCols(len(out))))
}

// sortBytes is how many 8-bit radix digits of a column's encoding vary:
// those of min XOR max when the range is known and of one sign, else the
// type's width.
func sortBytes(c colStat, t columnar.Type) int {
	if t.Physical() == columnar.PhysFloat64 {
		return 8
	}
	if c.HasRange && c.Min >= math.MinInt64/2 && c.Max <= math.MaxInt64/2 && (c.Min >= 0) == (c.Max >= 0) {
		return max(1, (bits.Len64(uint64(int64(c.Min))^uint64(int64(c.Max)))+7)/8)
	}
	if t.Physical() == columnar.PhysInt32 {
		return 4
	}
	return 8
}

// Cost model. Times are bytes over the profile's HBM read rate, with
// random accesses priced as the bytes of reading time they take:
//
//   - a random access that misses L2: 350 B. The H100's hash join
//     (README, bench join: 64 M uniform keys, 15.5 ms for 128 M table
//     operations) does one per 0.12 ns, 350 B at 2.9 TB/s;
//   - one that hits L2 (both built-in profiles have 50 MB): 32 B;
//   - a radix sort pass (kernels/radix_sort.cu): 18.5-30.5 B a row moved
//     (histogram read, key and row id read and written, the per-tile
//     digit counts scanned on the device), taking the time of 66 B: the
//     H100 sorted 64 M 32-bit keys (four passes and the encoder's 16 B)
//     in 6.18 ms, 280 B a row at 2.9 TB/s (exec/gpu BenchmarkRadixSort,
//     README);
//   - a kernel launch ~5 µs of dispatch, a host synchronization (the sort
//     reads each key's digit mask back) ~15 µs.
const (
	setL2Bytes      = 50 << 20
	missBytes       = 350
	hitBytes        = 32
	radixPassBytes  = 66
	oneBlockScanGBs = 100
	setLaunchSec    = 5e-6
	setSyncSec      = 15e-6
)

// planGPUSetOps chooses the algorithm of every DISTINCT and set operation
// (UNION ALL only concatenates) among g's operators and says so in their
// EXPLAIN lines. A sort-based one whose rows come out in the order a Sort
// or TopN above asks for spares that sort (gpu_set_op_order.go).
func planGPUSetOps(g *GPUPlan, prof *GPUProfile) {
	parents := parentsOf(g.Body)
	for i := range g.Ops {
		op := &g.Ops[i]
		if x, ok := op.Node.(*SetOp); ok && x.Kind == sql.SetUnion && x.All {
			op.How = "both inputs concatenated (concat_cols)"
			continue
		}
		c, ok := chooseSetAlgorithm(op.Node, orderAbove(parents, op.Node), prof)
		if !ok {
			continue
		}
		if g.SetOps == nil {
			g.SetOps = map[Node]GPUSetChoice{}
		}
		g.SetOps[op.Node] = c
		op.How = setOpHow(op.Node, c)
		if c.Orders != nil {
			if g.Presorted == nil {
				g.Presorted = map[Node]Node{}
			}
			g.Presorted[c.Orders] = op.Node
		}
	}
	explainPresorted(g)
}

// chooseSetAlgorithm picks n's algorithm (ok false: n is no DISTINCT or
// set operation that compares rows); above is a Sort or TopN whose order
// the sorted rows would have (nil: none).
func chooseSetAlgorithm(n Node, above Node, prof *GPUProfile) (c GPUSetChoice, ok bool) {
	var ks RowKeyStats
	counts := false
	switch x := n.(type) {
	case *Distinct:
		ks = x.RowKeys
		c.InputSorted = sortedOnEveryColumn(x.Input)
	case *SetOp:
		if x.Kind == sql.SetUnion && x.All {
			return c, false
		}
		ks = x.RowKeys
		counts = x.Kind != sql.SetUnion
	default:
		return c, false
	}
	if c.InputSorted {
		above = nil // the rows keep the input's order, not the sort's
	}
	if prof.ForceSetOp != SetAuto {
		c.Algorithm, c.Why = prof.ForceSetOp, "forced (--setop, GPUProfile.ForceSetOp)"
	} else {
		hash := hashSetSeconds(ks, counts, prof)
		sorting := sortSetSeconds(ks, counts, c.InputSorted, c.InputSorted || above != nil, prof)
		ordering := ""
		if above != nil {
			// Hashing leaves the ORDER BY its own sort of the distinct rows.
			hash += orderSeconds(ks, above, prof)
			ordering = " + " + opName(above) + "'s sort"
		}
		c.Algorithm = SetHash
		if sorting < hash {
			c.Algorithm = SetSort
		}
		c.Why = fmt.Sprintf("estimated sort %s vs hash%s %s for %.0f rows, %.0f distinct", fmtSeconds(sorting), ordering, fmtSeconds(hash), ks.Rows, ks.Groups)
	}
	if c.Algorithm == SetSort {
		c.Orders = above
	}
	return c, true
}

// hashSetSeconds estimates the hash form: normalize every key to 8 bytes,
// probe one slot and compare one representative row per key (random
// accesses that hit L2 while the groups' slots and rows fit in it), number
// the groups; with counts, two atomics per row into the groups' counters,
// the counts copied to the host and the kept rows' numbers back.
func hashSetSeconds(ks RowKeyStats, counts bool, prof *GPUProfile) float64 {
	n, g, k := ks.Rows, ks.Groups, float64(len(ks.SortBytes))
	random := float64(missBytes)
	if g*hitBytes*(1+k) < setL2Bytes {
		random = hitBytes
	}
	bytes := n*k*24 + 12*n + n*(1+k)*random
	launches := 2*k + 8
	sec := 0.0
	if counts {
		bytes += 2*n*8 + 2*n*random
		launches += 6
		sec += (g*16 + n*4) / (prof.PinnedCopyGBs * 1e9)
	}
	return sec + bytes/(prof.HBMGBs*1e9) + launches*setLaunchSec + 2*setSyncSec
}

// sortSetSeconds estimates the sort form: the radix sort (unless sorted),
// the heads (each position reads its row's columns through the
// permutation: random unless sorted; its neighbour's row is the previous
// thread's), the keep pass with counts (binary searches whose paths
// neighbouring positions share), compaction, unless the rows may stay in
// sorted order a flag per kept row (scattered) compacted back into input
// order, and a gather.
func sortSetSeconds(ks RowKeyStats, counts, sorted, sortedOut bool, prof *GPUProfile) float64 {
	n, k := ks.Rows, float64(len(ks.SortBytes))
	sec, launches, syncs := 0.0, 6.0, 2.0
	heads := n * (5 + 2*k*8)
	if !sorted {
		// One digit-mask read back for all keys (exec/gpu/set_op_sort_perm.go).
		s, l, _ := radixSortCost(n, ks.SortBytes, ks.Nullable, prof)
		sec, launches, syncs = s, launches+l+1, syncs+1
		heads = n * (5 + k*missBytes)
	}
	bytes := heads + 2*n
	if counts {
		bytes += n * (5 + 2*hitBytes)
		launches += 2
	}
	if !sortedOut {
		bytes += ks.Groups*(4+missBytes) + 3*n
		launches += 4
		syncs++
	}
	return sec + bytes/(prof.HBMGBs*1e9) + launches*setLaunchSec + syncs*setSyncSec
}

// radixSortCost is exec/gpu's radix sort of rows by the columns of
// sortBytes, least significant first: per key (and NULL flag) an encode
// pass reading the key through the permutation (sequential for the first,
// random after) and one pass per varying byte; a launch per encode and
// five per pass (histogram, three for the device-wide scan, scatter), a
// host synchronization per key (its digit mask).
func radixSortCost(rows float64, sortBytes []int, nullable []bool, prof *GPUProfile) (sec, launches, syncs float64) {
	bytes, passes := 0.0, 0.0
	for i, b := range sortBytes {
		keys := 1.0
		if nullable[i] {
			keys, b = 2, b+1
		}
		bytes += keys * rows * (12 + missBytes)
		passes += float64(b)
		launches += keys + 5*float64(b)
		syncs += keys
	}
	if len(sortBytes) > 0 {
		bytes -= rows * (missBytes - 8) // the first encode reads in row order
	}
	bytes += passes * rows * radixPassBytes
	sec = bytes / (prof.HBMGBs * 1e9)
	return sec, launches, syncs
}

// sortedOnEveryColumn reports whether n's rows arrive with equal rows
// adjacent: below filters, limits and column-reference projections (which
// keep the order) a Sort or TopN whose first keys are column references to exactly
// n's columns, in any order and direction. DOUBLE columns do not count:
// the sort orders NaNs of either sign apart, which DISTINCT calls equal.
func sortedOnEveryColumn(n Node) bool {
	for _, c := range n.Schema() {
		if c.Type.Physical() == columnar.PhysFloat64 {
			return false
		}
	}
	src := identity(len(n.Schema())) // n's columns as columns of the node reached
	for {
		switch x := n.(type) {
		case *Filter:
			n = x.Input
			continue
		case *Limit:
			n = x.Input
			continue
		case *Projection:
			if !x.IsPassThrough() {
				return false
			}
			for i, c := range src {
				src[i] = x.Exprs[c].(*sql.ColRef).Index
			}
			n = x.Input
			continue
		case *Sort:
			return keysArePrefixOf(x.Keys, src)
		case *TopN:
			return keysArePrefixOf(x.Keys, src)
		}
		return false
	}
}

// keysArePrefixOf reports whether the first keys are column references to
// exactly the columns cols (each column once).
func keysArePrefixOf(keys []sql.SortKey, cols []int) bool {
	want := map[int]bool{}
	for _, c := range cols {
		want[c] = true
	}
	got := map[int]bool{}
	for _, k := range keys {
		if len(got) == len(want) {
			break
		}
		ref, ok := k.Expr.(*sql.ColRef)
		if !ok || !want[ref.Index] {
			return false
		}
		got[ref.Index] = true
	}
	return len(got) == len(want)
}

// setOpHow is the EXPLAIN line of a DISTINCT or set operation on the GPU.
func setOpHow(n Node, c GPUSetChoice) string {
	if c.Algorithm == SetHash {
		return "global hash table (group_by.cu); " + c.Why
	}
	how := "sort-based (Diamos et al.): radix sort by every column"
	if c.InputSorted {
		how = "sort-based (Diamos et al.): input sorted on every column, not sorted again"
	}
	if x, ok := n.(*SetOp); ok && x.Kind != sql.SetUnion {
		how += ", run heads by adjacent difference, each run's left and right rows counted, copies flagged, compacted"
	} else {
		how += ", run heads by adjacent difference, compacted"
	}
	return how + "; " + c.Why
}

func fmtSeconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.0f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.1f ms", s*1e3)
	}
	return fmt.Sprintf("%.2f s", s)
}
