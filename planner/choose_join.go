package planner

import (
	"fmt"
	"math"

	"gpusql/sql"
)

// Build strategy and algorithm limits.
const (
	// A direct array may span up to directArrayRatio× the build rows, or up
	// to directArraySmall entries whatever the build size (4 MiB of int32
	// row numbers: cache-resident on a CPU, one global-memory array on a
	// GPU, and still cheaper than hashing).
	directArrayRatio = 4
	directArraySmall = 1 << 20
	// Sort-merge wins over a hash join when the build side is too large for
	// its table to stay in cache and its keys repeat heavily (long chains).
	mergeMinBuildRows = 1 << 22
	mergeMinDupFactor = 8
	// Inputs that both arrive sorted on the keys are merged in one pass
	// each when the hash table would hold at least this many rows (past a
	// GPU's L2 and a CPU's caches: its probes become memory-latency bound).
	sortedMergeMinBuildRows = 1 << 20
)

// joinStats combines the statistics of the two inputs of a join with rows
// output rows.
func joinStats(kind sql.JoinKind, ls, rs *relStats, rows float64) *relStats {
	s := &relStats{Rows: rows}
	s.Cols = append(s.Cols, ls.Cols...)
	if kind != sql.JoinSemi && kind != sql.JoinAnti {
		for _, c := range rs.Cols {
			if kind == sql.JoinLeft {
				c.NullFrac = math.Max(c.NullFrac, 1-math.Min(1, rows/math.Max(ls.Rows, 1)))
			}
			s.Cols = append(s.Cols, c)
		}
	}
	return s
}

// keyDistinct is the distinct count of a key expression.
func keyDistinct(e sql.Expr, s *relStats) float64 {
	if c, ok := e.(*sql.ColRef); ok && c.Index < len(s.Cols) {
		return math.Max(s.Cols[c.Index].Distinct, 1)
	}
	if c, ok := e.(*sql.Cast); ok {
		return keyDistinct(c.E, s)
	}
	return math.Max(s.Rows, 1)
}

// equiJoinRows is |L|·|R| / Π max(distinct(lk_i), distinct(rk_i)).
func equiJoinRows(ls, rs *relStats, lk, rk []sql.Expr) float64 {
	rows := ls.Rows * rs.Rows
	div := 1.0
	for i := range lk {
		div *= math.Max(keyDistinct(lk[i], ls), keyDistinct(rk[i], rs))
	}
	div = math.Min(div, math.Max(math.Max(ls.Rows, rs.Rows), 1))
	return rows / math.Max(div, 1)
}

// makeJoin builds the physical join of l and r (output l++r, or l for semi
// and anti joins) with rows estimated output rows: a HashJoin building r,
// a SortMergeJoin when forced or cheaper, or a NestedLoopJoin without keys.
func (b *builder) makeJoin(kind sql.JoinKind, l, r Node, lk, rk []sql.Expr, residual sql.Expr,
	nullAware bool, rows float64) Node {
	ls, rs := b.stats[l], b.stats[r]
	out := joinSchema(kind, l.Schema(), r.Schema())
	st := joinStats(kind, ls, rs, rows)
	base := b.cost(l) + b.cost(r) + rows
	if len(lk) == 0 {
		if kind == sql.JoinInner && residual == nil {
			kind = sql.JoinCross
		}
		if ej, ok := b.epsilonJoin(kind, l, r, residual, out); ok {
			// Grid build and sort, then per left row 3^k lookups and the
			// candidates: charged as a few passes over each input.
			return b.set(ej, st, base+8*(ls.Rows+rs.Rows))
		}
		nl := &NestedLoopJoin{Kind: kind, Left: l, Right: r, Cond: residual, NullAware: nullAware, Out: out}
		return b.set(nl, st, base+ls.Rows*rs.Rows)
	}
	hj := &HashJoin{Kind: kind, Left: l, Right: r, LeftKeys: lk, RightKeys: rk,
		Residual: residual, NullAware: nullAware, BuildSide: BuildRight, Out: out}
	b.chooseBuild(hj, rs, rows/math.Max(ls.Rows, 1))
	hj.BuildKeyDup = buildKeyDup(rk, rs)
	lSorted, rSorted := false, false
	if sameKeyTypes(lk, rk) {
		lSorted, rSorted = sortedOn(l, lk), sortedOn(r, rk)
	}
	// Sorted inputs favour the merge only over a hash table past the
	// caches: a direct array or bitmap build is cheaper than any merge, and
	// on the GPU it fuses into a star pipeline, which a merge join breaks.
	sortedWins := lSorted && rSorted && hj.Strategy == HashTable && rs.Rows >= sortedMergeMinBuildRows
	if why := b.useMerge(ls, rs, rk, sortedWins); why != "" {
		smj := &SortMergeJoin{Kind: kind, Left: l, Right: r, LeftKeys: lk, RightKeys: rk,
			Residual: residual, NullAware: nullAware, LeftSorted: lSorted, RightSorted: rSorted, Why: why, Out: out}
		// A sorted input costs one pass; the merge one pass over both.
		sortCost := ls.Rows + rs.Rows
		if !lSorted {
			sortCost += ls.Rows * math.Log2(ls.Rows+2)
		}
		if !rSorted {
			sortCost += rs.Rows * math.Log2(rs.Rows+2)
		}
		return b.set(smj, st, base+sortCost)
	}
	hj.TwoPass = b.useTwoPass(hj, ls, rs)
	return b.set(hj, st, base+2*rs.Rows)
}

// buildKeyDup is the build rows per distinct key combination, at least 1.
func buildKeyDup(keys []sql.Expr, s *relStats) float64 {
	d := 1.0
	for _, k := range keys {
		d *= keyDistinct(k, s)
	}
	return math.Max(s.Rows/math.Max(math.Min(d, s.Rows), 1), 1)
}

// useMerge decides between hash and sort-merge join for an equi-join that
// builds on the right input, and says why it picks sort-merge ("" for the
// hash join). sortedWins: both inputs arrive sorted on the keys and the
// hash table would leave the caches, so one pass over each input beats
// building and probing it.
func (b *builder) useMerge(ls, rs *relStats, rk []sql.Expr, sortedWins bool) string {
	switch b.opts.Join {
	case "merge":
		return "join_algorithm = merge"
	case "hash", "bitmap", "twopass":
		return ""
	}
	if sortedWins {
		return fmt.Sprintf("both inputs arrive sorted on the keys (a hash table of %.3gM rows would be built otherwise)", rs.Rows/(1<<20))
	}
	if rs.Rows < mergeMinBuildRows || ls.Rows < mergeMinBuildRows {
		return ""
	}
	d := 1.0
	for _, k := range rk {
		d *= keyDistinct(k, rs)
	}
	if dup := rs.Rows / math.Max(d, 1); dup >= mergeMinDupFactor {
		return fmt.Sprintf("both inputs over %dM rows, build keys repeated ~%.0f times: two sorts beat a hash table's chains", mergeMinBuildRows>>20, dup)
	}
	return ""
}

// twoPassMinBuildRows: below this the build's hash table stays in the
// caches and the streaming probe needs no partitioning.
const twoPassMinBuildRows = 1 << 22

// useTwoPass decides whether the CPU runs hj by two-pass bucketing: when
// forced, or when the hash table (not a direct array or bitmap, whose
// probes are cheap anyway) would leave the caches and the probe side is at
// least as large, so that partitioning both sides into cache-sized buckets
// pays for writing them once more.
func (b *builder) useTwoPass(hj *HashJoin, ls, rs *relStats) bool {
	switch b.opts.Join {
	case "twopass":
		hj.Strategy = HashTable // each bucket gets its own small table
		return true
	case "":
		return hj.Strategy == HashTable && rs.Rows >= twoPassMinBuildRows && ls.Rows >= rs.Rows
	}
	return false
}
