package planner

import "gpusql/sql"

// BuildSide says which input of a HashJoin is loaded into the hash table; the
// other input streams through the probe in the pipeline of the join's
// parent.
type BuildSide uint8

const (
	BuildRight BuildSide = iota // probe Left, build Right (the usual case)
	BuildLeft                   // probe Right, build Left (inner joins only)
)

func (s BuildSide) String() string {
	if s == BuildLeft {
		return "left"
	}
	return "right"
}

// BuildStrategy is how the build side is indexed.
type BuildStrategy uint8

const (
	// HashTable: open addressing on the key hash, at least twice the build
	// rows, with a chain for duplicate keys.
	HashTable BuildStrategy = iota
	// DirectArray: one integer key whose build values lie in
	// [KeyMin, KeyMax] with a range that is small or at most ~4× the build
	// rows: the key minus KeyMin indexes an array of build rows (a perfect
	// hash), so a probe is one bounds check and one load. Dimension keys of a
	// star schema (dense surrogate keys) take this path.
	DirectArray
	// Bitmap: one integer key whose build values lie in [KeyMin, KeyMax]:
	// the build side is one bit per value of the domain (Kruliš & Yaghob,
	// "Revision of relational joins for multi-core and many-core
	// architectures"), so a semi or anti join probes with one bit test and
	// the table is 1/32 of a direct array. Inner and left joins, which need
	// the build row, add a direct array behind the bitmap: the bit test
	// rejects the probe rows without a match from a table small enough to
	// stay in cache, and only the matches load the array.
	Bitmap
	// BucketedBitmap: semi and anti joins whose key domain is too large for
	// one bitmap: keys are split into buckets of 2^BucketBits values by their
	// top bits, each bucket's bitmap small enough for a GPU block's shared
	// memory (or a CPU core's L1/L2). The GPU histograms and scatters both
	// sides by bucket and fills then probes each bucket's bitmap in one
	// block; the CPU keeps one bitmap per bucket that holds a build key, so
	// a sparse 32-bit domain costs only the buckets it touches.
	BucketedBitmap
)

func (s BuildStrategy) String() string {
	switch s {
	case DirectArray:
		return "DirectArray"
	case Bitmap:
		return "Bitmap"
	case BucketedBitmap:
		return "BucketedBitmap"
	}
	return "HashTable"
}

// HashJoin joins Left and Right on LeftKeys[i] = RightKeys[i] (NULL keys never
// match) and Residual (over left++right). Output: left++right, except Semi
// and Anti: left. Kind Left, Semi and Anti always build Right and stream
// Left. NullAware (NOT IN): when the build side is not empty, a probe row with
// a NULL key, or any probe row when the build side has a NULL key, is not
// returned.
type HashJoin struct {
	NodeProps
	Kind                sql.JoinKind
	Left, Right         Node
	LeftKeys, RightKeys []sql.Expr
	Residual            sql.Expr
	NullAware           bool
	BuildSide           BuildSide
	Strategy            BuildStrategy
	// KeyMin and KeyMax bound the build key for DirectArray, Bitmap and
	// BucketedBitmap (from the build column's statistics; the executors
	// check each key and fall back to a hash table if the data disagrees).
	KeyMin, KeyMax int64
	// BucketBits is log2 of the values one bucket of a BucketedBitmap
	// covers (its bitmap is 2^BucketBits bits).
	BucketBits int
	// TwoPass makes the CPU executor run the join as a blocking operator by
	// two-pass bucketing (Kruliš & Yaghob): both inputs are scattered by key
	// hash into a workers × buckets matrix, then each worker builds and
	// probes the small tables of its own buckets, with no locks or atomics.
	// The join is then not a streaming probe but the source of the
	// pipeline above it. (The GPU executor runs it as a materializing
	// hash join.)
	TwoPass bool
	// Fallback, when set, says why the algorithm a test forced (--join,
	// SET join_algorithm) does not apply to this join, which then uses
	// Strategy; EXPLAIN shows it.
	Fallback string
	// UniqueBuild is true when the build keys are expected to be unique (a
	// dimension's primary key), so that a probe row meets at most one build
	// row and the join never multiplies rows.
	UniqueBuild bool
	// BuildKeyDup is the estimated build rows per distinct key (at least
	// 1): a partitioned GPU join (gpu_join_passes.go) puts all rows of one
	// key in one pass, so they bound how small a pass can be.
	BuildKeyDup float64
	// Needed[i] is true when output column i is read above the join; build
	// columns that are not needed are never gathered. The needed build
	// columns are the join's payload.
	Needed []bool
	Out    sql.Schema
}

func (n *HashJoin) Schema() sql.Schema { return n.Out }
func (n *HashJoin) Children() []Node   { return []Node{n.Left, n.Right} }

// Probe returns the streaming input; Build the indexed one.
func (n *HashJoin) Probe() Node {
	if n.BuildSide == BuildLeft {
		return n.Right
	}
	return n.Left
}

// Build returns the input loaded into the hash table.
func (n *HashJoin) Build() Node {
	if n.BuildSide == BuildLeft {
		return n.Left
	}
	return n.Right
}

// BuildKeys returns the key expressions over the build input's schema.
func (n *HashJoin) BuildKeys() []sql.Expr {
	if n.BuildSide == BuildLeft {
		return n.LeftKeys
	}
	return n.RightKeys
}

// ProbeKeys returns the key expressions over the probe input's schema.
func (n *HashJoin) ProbeKeys() []sql.Expr {
	if n.BuildSide == BuildLeft {
		return n.RightKeys
	}
	return n.LeftKeys
}

// Payload returns the build input's columns that are read above the join
// (indexes into the build input's schema).
func (n *HashJoin) Payload() []int {
	off, w := 0, len(n.Right.Schema())
	if n.BuildSide == BuildLeft {
		w = len(n.Left.Schema())
	} else {
		off = len(n.Left.Schema())
	}
	if n.Kind == sql.JoinSemi || n.Kind == sql.JoinAnti {
		return nil
	}
	var out []int
	for i := 0; i < w; i++ {
		if n.Needed == nil || n.Needed[off+i] {
			out = append(out, i)
		}
	}
	return out
}
