package planner

import (
	"fmt"
	"math"

	"gpusql/sql"
)

// Partitioned GPU hash joins (issue 13 item 3). An operator-at-a-time
// hash join whose table over the whole build side does not fit what the
// device memory budget leaves runs in P passes, P a power of two: rows are
// split by a hash of their keys independent of the table's slot hash (so
// each pass's table still spreads its keys), and pass p builds a table over
// the build rows of partition p and probes it with the probe rows of
// partition p only. Equal keys share a partition, so the passes together
// find every pair exactly once, and a probe row unmatched in its own pass
// is unmatched (which left, semi and anti joins need).
//
// The partitions come either from one scatter of both sides' normalized
// keys and row numbers (histogram, offsets, scatter: the keys are read
// twice and written once, then each pass reads only its part), or from
// each pass re-reading both sides' keys and compacting its own rows
// ((P+1) reads of the keys, no copy held through the passes). The keys are
// vectors the expression VM wrote in device memory, so both move HBM
// bytes (PCIe is paid once, when the VM reads a zero-copy column); at the
// same P the scatter moves fewer, but its copies take memory, so the
// re-read may fit with fewer passes: each mode takes its smallest P that
// fits, and the lower estimated time wins (bytes at the profile's HBM
// rate, plus a fixed cost a pass). P is the smallest whose largest
// estimated partition — an average share with headroom for skew, plus
// every duplicate of one key (they cannot be split) — fits with its pair
// buffer; when even 4096 passes do not, because one key's duplicates
// alone pass the budget, the GPU plan is refused with the reason and the
// query runs on the CPU by plan, never into a device out-of-memory error.

// GPUJoinPasses is the plan of a partitioned GPU hash join.
type GPUJoinPasses struct {
	// Passes is P, a power of two ≥ 2.
	Passes int
	// TableBytes is the single-pass table over the whole build side that
	// did not fit; Left what the budget leaves for the join's tables.
	TableBytes, Left int64
	// PassBytes is one pass's tables (hash table and build keys of the
	// largest partition, its pair buffer); FixedBytes the scattered key
	// copies held through every pass (0 when passes re-read).
	PassBytes, FixedBytes int64
	// Scatter: both sides are partitioned once by a scatter; else each
	// pass compacts its partition's rows from both sides' keys.
	Scatter bool
	// LargestRows is the estimated build rows of the largest partition.
	LargestRows float64
	// EstSeconds is the estimated time of the partitioning (not of the
	// tables' build and probe, the same in every plan).
	EstSeconds float64
	// Consumer, when set, is the aggregate above the join (few groups;
	// COUNT, SUM, MIN, MAX, not DISTINCT; through filters and
	// projections) that folds each pass's rows when the pass ends, its
	// groups combined on the host, so the join's output is never whole on
	// the device and may pass 2^31 rows (each pass's must not).
	Consumer *HashAggregate
}

const (
	// gpuJoinMaxPasses bounds P: the partition histogram is per-block in
	// shared memory up to this many counters.
	gpuJoinMaxPasses = 4096
	// joinPassSkew is the headroom of the largest partition over an
	// average one (the hash spreads keys; rows per key vary).
	joinPassSkew = 1.5
	// joinTableBytesPerRow is a hash table's device bytes per build row,
	// as opsWorkingBytes charges them: slots at load ≤ 1/2 rounded to a
	// power of two (≤ 16 B) and the 8-byte normalized keys of both sides.
	joinTableBytesPerRow = 32
)

// GPUJoinMaxPairs bounds the pairs one join (or one pass of a join an
// aggregate folds pass by pass) may output on the GPU: pair row numbers
// are int32. A variable so that tests can lower it.
var GPUJoinMaxPairs float64 = 1 << 31

// planJoinPasses plans the partitioned joins of g's operator-at-a-time
// body and refuses g when a join cannot run on the device at all.
func planJoinPasses(g *GPUPlan, prof *GPUProfile) {
	left := prof.Budget()
	for _, c := range gpuColumns(g) {
		if c.Col.Valid != nil {
			left -= validityBytes(c.Col) // bitmaps stay on the device
		}
	}
	consumers := map[*HashJoin]*HashAggregate{}
	for _, op := range g.Ops {
		if agg, ok := op.Node.(*HashAggregate); ok {
			if j := passConsumed(agg); j != nil {
				consumers[j] = agg
			}
		}
	}
	for _, op := range g.Ops {
		j, ok := op.Node.(*HashJoin)
		if !ok || j.Strategy == Bitmap || j.Strategy == BucketedBitmap {
			continue
		}
		agg, least := consumers[j], 0
		if j.EstRows >= GPUJoinMaxPairs {
			if agg == nil {
				g.Refused = fmt.Sprintf("%s: est %.3g output pairs, more than the GPU's 2^31 (row numbers are 32-bit) and no aggregate above folds them pass by pass; the join runs on the CPU", opName(j), j.EstRows)
				return
			}
			// Enough passes that each outputs under half the limit.
			for least = 2; float64(least)*GPUJoinMaxPairs/2 < j.EstRows; least *= 2 {
			}
		}
		jp, why := joinPasses(j, left, least, prof.ForceJoinPasses, prof)
		if jp != nil && prof.ForceJoinPasses > 0 {
			// a test's forced P runs in the forced mode whatever the budget
			jp = planPasses(j, jp.Passes, !prof.ForceJoinReread, jp.TableBytes, left)
			jp.EstSeconds = passesTime(j, jp, prof)
		}
		if jp != nil {
			jp.Consumer = agg
		}
		if why != "" {
			g.Refused = why
			return
		}
		if jp != nil {
			if g.JoinPasses == nil {
				g.JoinPasses = map[Node]*GPUJoinPasses{}
			}
			g.JoinPasses[j] = jp
		}
	}
}

// joinPasses plans j's passes within left bytes, at least least of them
// (an output too large for one pass): nil when one pass does, else the
// passes, or why no P fits; force, for tests, sets the least P and runs
// it whatever the budget. Scattering once and re-reading per pass each get
// their smallest P that fits; the one with the lower estimated time wins
// (passOverhead per pass, the rest key bytes at the profile's HBM rate;
// the tables' own work is the same).
func joinPasses(j *HashJoin, left int64, least, force int, prof *GPUProfile) (*GPUJoinPasses, string) {
	build := j.Build().Props().EstRows
	table := int64(min(joinTableBytesPerRow*build, math.MaxInt64/4))
	if table <= left && force == 0 && least == 0 {
		return nil, ""
	}
	dup := math.Max(j.BuildKeyDup, 1)
	var best *GPUJoinPasses
	for _, scatter := range []bool{true, false} {
		for p := max(2, least, force); p <= gpuJoinMaxPasses; p *= 2 {
			jp := planPasses(j, p, scatter, table, left)
			if jp.FixedBytes+jp.PassBytes > left && force == 0 {
				continue
			}
			jp.EstSeconds = passesTime(j, jp, prof)
			if best == nil || jp.EstSeconds < best.EstSeconds {
				best = jp
			}
			break
		}
	}
	switch {
	case best != nil:
		return best, ""
	case joinTableBytesPerRow*dup > float64(left):
		return nil, fmt.Sprintf("%s: one build key's est %.0f duplicate rows alone need %s of device memory in one pass, more than the %s the GPU memory budget leaves (raise --gpu-memory or SET gpu_memory); the join runs on the CPU",
			opName(j), dup, fmtBytes(int64(joinTableBytesPerRow*dup)), fmtBytes(left))
	}
	return nil, fmt.Sprintf("%s: the hash table over est %.0f build rows needs %s, more than %d passes can split into the %s the GPU memory budget leaves (raise --gpu-memory or SET gpu_memory); the join runs on the CPU",
		opName(j), build, fmtBytes(table), gpuJoinMaxPasses, fmtBytes(left))
}

// planPasses sizes j's join in p passes: the largest partition an average
// share with headroom for skew plus one key's duplicates (they cannot be
// split), its table and pair buffer, and the scattered keys (held through
// every pass) or the pass's own compacted keys.
func planPasses(j *HashJoin, p int, scatter bool, table, left int64) *GPUJoinPasses {
	build, probe := j.Build().Props().EstRows, j.Probe().Props().EstRows
	row := scatteredRowBytes(j)
	largest := math.Min(build, build/float64(p)*joinPassSkew+math.Max(j.BuildKeyDup, 1))
	jp := &GPUJoinPasses{Passes: p, TableBytes: table, Left: left, LargestRows: largest, Scatter: scatter,
		PassBytes: int64(joinTableBytesPerRow*largest + 8*math.Max(j.EstRows, 0)/float64(p)*joinPassSkew)}
	if scatter {
		jp.FixedBytes = int64(row * (build + probe))
	} else {
		jp.PassBytes += int64(row * (largest + probe/float64(p)*joinPassSkew))
	}
	return jp
}

// scatteredRowBytes is a row's 8-byte keys and 4-byte row number.
func scatteredRowBytes(j *HashJoin) float64 { return float64(8*len(j.BuildKeys()) + 4) }

// passOverhead is one pass's fixed cost: a handful of launches and the
// synchronizing read of its pair count.
const passOverhead = 30e-6

// passesTime estimates the partitioning's time: the histogram reads both
// sides' keys; a scatter reads them again and writes them with row
// numbers, which the passes read once; re-reading passes each read both
// sides' keys and write and read their partition.
func passesTime(j *HashJoin, jp *GPUJoinPasses, prof *GPUProfile) float64 {
	rows := j.Build().Props().EstRows + j.Probe().Props().EstRows
	key, row := 8*float64(len(j.BuildKeys())), scatteredRowBytes(j)
	bytes := key*rows + key*rows + 2*row*rows
	if !jp.Scatter {
		bytes = key*rows + float64(jp.Passes)*key*rows + 2*row*rows
	}
	return bytes/(prof.HBMGBs*1e9) + float64(jp.Passes)*passOverhead
}

// passConsumed is the inner hash join below agg, through filters and
// projections, when agg can fold its input pass by pass: few groups (the
// host combines the passes' groups: at most HostTailLimit estimated), and
// only COUNT, SUM, MIN and MAX without DISTINCT, whose per-pass results
// combine by addition or comparison (AVG and DISTINCT would need their
// parts, not their results).
func passConsumed(agg *HashAggregate) *HashJoin {
	if len(agg.GroupBy) > 0 && agg.EstRows > HostTailLimit {
		return nil
	}
	for _, a := range agg.Aggs {
		switch a.Func {
		case sql.AggCountStar, sql.AggCount, sql.AggSum, sql.AggMin, sql.AggMax:
		default:
			return nil
		}
		if a.Distinct {
			return nil
		}
	}
	for n := agg.Input; ; {
		switch x := n.(type) {
		case *Filter:
			n = x.Input
		case *Projection:
			n = x.Input
		case *HashJoin:
			if x.Kind != sql.JoinInner || x.Strategy == Bitmap || x.Strategy == BucketedBitmap {
				return nil
			}
			return x
		default:
			return nil
		}
	}
}

// explainJoinPasses is EXPLAIN's line for a partitioned join.
func explainJoinPasses(jp *GPUJoinPasses) string {
	how := "both sides' keys scattered once by key hash"
	if !jp.Scatter {
		how = "each pass re-reads both sides' keys and compacts its partition"
	}
	why := fmt.Sprintf("build table est %s > %s left of the budget", fmtBytes(jp.TableBytes), fmtBytes(jp.Left))
	if jp.TableBytes <= jp.Left {
		why = "output est over 2^31 rows"
	}
	line := fmt.Sprintf("hash join in %d passes: %s; %s, %s a pass (largest partition est %.0f build rows), est %.3g ms of partitioning",
		jp.Passes, why, how, fmtBytes(jp.PassBytes), jp.LargestRows, jp.EstSeconds*1e3)
	if jp.Consumer != nil {
		line += fmt.Sprintf("; each pass's rows folded into %s as it ends", opName(jp.Consumer))
	}
	return line
}
