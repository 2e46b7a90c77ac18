package planner

import (
	"fmt"
	"math"

	"gpusql/storage/columnar"
)

// GPUBuild is a star dimension's join table: a direct array indexed by
// key - KeyMin when the key range is dense enough, else an open-addressing
// hash table of Capacity slots (a power of two at least twice the rows).
type GPUBuild struct {
	Direct bool
	// KeyMin and Span: the array covers keys KeyMin..KeyMin+Span-1.
	KeyMin, Span int64
	Capacity     int64
	// Bitmap: a direct array's bitmap of the keys with a surviving row is
	// tested first (kernels/dim_bits.cu), and the array read only for rows
	// that pass; BitsOnly: never read (the dimension has no group column,
	// so every payload is 0).
	Bitmap, BitsOnly bool
}

func (b GPUBuild) String() string {
	if b.Direct {
		s := fmt.Sprintf("direct array [%d..%d]", b.KeyMin, b.KeyMin+b.Span-1)
		switch {
		case b.BitsOnly:
			s = fmt.Sprintf("bitmap [%d..%d] (%s; no payload to read)", b.KeyMin, b.KeyMin+b.Span-1, fmtBytes((b.Span+31)/32*4))
		case b.Bitmap:
			s += fmt.Sprintf(", probed through its bitmap (%s) first", fmtBytes((b.Span+31)/32*4))
		}
		return s
	}
	return fmt.Sprintf("hash table (%d slots)", b.Capacity)
}

// A direct table gets a bitmap in front of its payloads when its filters
// keep at most bitmapMaxSel of its rows and its payloads take at least
// bitmapMinBytes. Measured on the H100 (SSB SF 10, every direct table with
// a bitmap when its dimension had no group column or kept at most half
// its rows): Q2.x's part tables (3.2 MB, 4 % of rows or fewer) ran 15-40 %
// faster, while the small or unselective ones (date 244 KB, supplier
// 80 KB, customer 1.2 MB at 20 %) ran 10-28 % slower: one more dependent
// load per probe costs more than the L1/L2-resident payload load it saves.
const (
	bitmapMaxSel   = 0.1
	bitmapMinBytes = 2 << 20
)

// planDimBuild picks the dimension's join table: a direct array when the
// key span is at most 4× the dimension's rows (or 1M entries, 4 MiB, which
// any GPU holds): one load per probe instead of a probe sequence. A large,
// selective direct array gets a bitmap (Kruliš & Yaghob), and a dimension
// with no group column then reads only the bit.
func planDimBuild(d *GPUStarDim, prof *GPUProfile) GPUBuild {
	rows := int64(d.Scan.Table.Rows)
	lo, hi, ok := intRange(d.Scan.Table, d.Key)
	if !ok {
		lo, hi = 0, 0
	}
	if span := hi - lo + 1; span <= max(4*rows, 1<<20) {
		b := GPUBuild{Direct: true, KeyMin: lo, Span: span}
		b.Bitmap = prof.ForceDimBitmap || d.Sel <= bitmapMaxSel && 4*span >= bitmapMinBytes
		b.BitsOnly = b.Bitmap && len(d.GroupCols) == 0
		return b
	}
	capacity := int64(1)
	for capacity < 2*max(rows, 1) {
		capacity <<= 1
	}
	return GPUBuild{Capacity: capacity}
}

// intRange is the exact range of column c's non-NULL values (ok=false when
// it has none).
func intRange(t *columnar.Table, c int) (lo, hi int64, ok bool) {
	s := tableColumnStat(t, c)
	if !s.HasRange || t.Rows == 0 || s.NullFrac >= 1 {
		return 0, 0, false
	}
	return int64(s.Min), int64(s.Max), true
}

// GPUGroupLayout is where a dense group table lives while the kernel
// aggregates into it.
type GPUGroupLayout string

const (
	// GroupRegisters: no groups (one output row): per-thread
	// accumulators, reduced per block, one atomic per block.
	GroupRegisters GPUGroupLayout = "registers"
	// GroupSharedReplicated: R copies of the table in each block's shared
	// memory, thread t updating copy t mod R, so that threads of a warp
	// hitting one group do not serialize on one word.
	GroupSharedReplicated GPUGroupLayout = "replicated shared memory"
	// GroupShared: one copy per block in shared memory.
	GroupShared GPUGroupLayout = "shared memory"
	// GroupGlobal: atomics straight into the global table.
	GroupGlobal GPUGroupLayout = "global memory"
)

// GPUGroupTable is the star's dense group table: group index = mixed-radix
// digits of each dimension's rank among its surviving group values and
// each fact group column's offset.
type GPUGroupTable struct {
	// EstGroups is the estimated number of slots; the dimension ranks are
	// counted when the dimensions are built, and GroupLayoutFor chooses
	// again on the true count.
	EstGroups int64
	// Width is the 8-byte words per group: a row count and one per
	// kernel aggregate.
	Width int64
	// Layout and Replicas are the choice for EstGroups; EstRounds the
	// serialization rounds per warp its atomics are estimated to take.
	Layout    GPUGroupLayout
	Replicas  int
	EstRounds float64
	// Remap and RemapCol: the fact group column whose remap lays the
	// table out (GroupSharedRemapped, gpu_group_remap.go); PlainRounds
	// the rounds estimated without it; RemapWhy why a candidate column
	// did not (else "").
	Remap       *columnar.ColumnRemap
	RemapCol    int
	PlainRounds float64
	RemapWhy    string
	// Compact: the table is compacted on the device before it is copied
	// back (gpu_group_compact.go), chosen on EstGroups and EstRowsIn, the
	// estimated rows reaching the aggregate (EstNonEmpty the non-empty
	// groups they fill), and again on the true group count.
	Compact     bool
	EstRowsIn   float64
	EstNonEmpty int64
}

// Limits of the dense star group table.
const (
	// GPUMaxGroupTable bounds the global group table's bytes.
	GPUMaxGroupTable = 512 << 20
	// GPUMaxDimGroupDomain bounds one dimension's combined group domain.
	GPUMaxDimGroupDomain = 1 << 24
	// replicaBudget is the shared memory the replicated layout may take
	// per block (more would cut the blocks per SM, hiding less latency);
	// sharedGroupMax bounds a single shared copy.
	replicaBudget  = 32 << 10
	maxReplicas    = 32
	sharedGroupMax = 96 << 10
)

// GroupLayoutFor chooses the group table's layout for groups groups of
// width words on prof: replicated in shared memory while the copies fit
// 32 KiB, one shared copy up to 96 KiB (or what a block may have), else
// global memory. The replica stride is odd (width·groups | 1) so that
// replicas start in different banks.
func GroupLayoutFor(prof *GPUProfile, groups, width int64) (GPUGroupLayout, int) {
	if groups == 1 {
		return GroupRegisters, 0
	}
	rb := (groups*width | 1) * 8
	switch {
	case rb <= replicaBudget:
		r := int(min(maxReplicas, replicaBudget/rb))
		if r == 1 {
			return GroupShared, 1
		}
		return GroupSharedReplicated, r
	case rb <= min(prof.SharedPerBlock, sharedGroupMax):
		return GroupShared, 1
	}
	return GroupGlobal, 0
}

// planGroupTable estimates the star's group count: per dimension the
// distinct combinations of its group columns among its surviving rows,
// bounded by their domain; per fact group column its domain.
func planGroupTable(q *GPUStar, prof *GPUProfile) GPUGroupTable {
	groups := 1.0
	for _, d := range q.Dims {
		if len(d.GroupCols) == 0 {
			continue
		}
		domain, distinct := 1.0, 1.0
		for _, c := range d.GroupCols {
			domain *= float64(groupDomain(d.Scan.Table, c))
			distinct *= tableColumnStat(d.Scan.Table, c).Distinct
		}
		rows := max(d.Sel*float64(d.Scan.Table.Rows), 1)
		// Distinct values among rows drawn from distinct (Cardenas).
		k := distinct * (1 - math.Pow(1-1/distinct, rows))
		groups *= math.Max(1, math.Ceil(math.Min(k, domain)))
	}
	for _, c := range q.FactGroupCols {
		groups *= float64(groupDomain(q.Fact.Table, c))
	}
	g := GPUGroupTable{EstGroups: int64(math.Min(groups, math.MaxInt64/2)), Width: int64(1 + len(q.Aggs))}
	g.Layout, g.Replicas = GroupLayoutFor(prof, g.EstGroups, g.Width)
	g.EstRounds = estRounds(prof, g.EstGroups, g.Width, g.Layout, g.Replicas)
	planGroupCompaction(&g, prof, q.Aggregate.Input.Props().EstRows)
	return g
}

// groupDomain is the dense domain of a group column: its value range plus
// a slot for NULL.
func groupDomain(t *columnar.Table, c int) int64 {
	lo, hi, ok := intRange(t, c)
	size := int64(0)
	if ok {
		size = hi - lo + 1
	}
	if t.Columns[c].Valid != nil {
		size++
	}
	return max(size, 1)
}

// checkStarDomains refuses stars the dense kernels cannot hold: DOUBLE
// join or group keys, a dimension whose group columns span more than
// GPUMaxDimGroupDomain values, a fact group domain past the group table.
func checkStarDomains(q *GPUStar) error {
	isFloat := func(t *columnar.Table, c int) bool { return t.Fields[c].Type.Physical() == columnar.PhysFloat64 }
	for _, d := range q.Dims {
		t := d.Scan.Table
		if isFloat(t, d.Key) || isFloat(q.Fact.Table, d.Probe.Col) {
			return notStar(d.Join, "DOUBLE join key")
		}
		domain := int64(1)
		for _, c := range d.GroupCols {
			if isFloat(t, c) {
				return notStar(q.Aggregate, fmt.Sprintf("DOUBLE group key %s.%s", t.Name, t.Fields[c].Name))
			}
			domain *= groupDomain(t, c)
			if domain > GPUMaxDimGroupDomain {
				return notStar(q.Aggregate, fmt.Sprintf("group keys of %s span more than %d values", t.Name, GPUMaxDimGroupDomain))
			}
		}
	}
	fact := int64(1)
	for _, c := range q.FactGroupCols {
		if isFloat(q.Fact.Table, c) {
			return notStar(q.Aggregate, fmt.Sprintf("DOUBLE group key %s.%s", q.Fact.Table.Name, q.Fact.Table.Fields[c].Name))
		}
		size := groupDomain(q.Fact.Table, c)
		if size > GPUMaxGroupTable || fact > GPUMaxGroupTable/size {
			return notStar(q.Aggregate, "fact group keys span more values than the dense group table holds")
		}
		fact *= size
	}
	return nil
}
