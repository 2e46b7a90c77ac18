package planner

import (
	"fmt"
	"math"
	"math/bits"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Bitmap join limits.
const (
	// One bitmap spans at most 2^27 key values: 16 MiB, which an H100's
	// 50 MiB L2 holds and a CPU streams through its caches.
	bitmapMaxBits = 1 << 27
	// Inner and left joins put a direct array of int32 build rows behind
	// the bitmap; it spans at most the executors' direct-array limit.
	bitmapPayloadMaxSpan = 1 << 24
	// A bucketed bitmap covers 32-bit key domains.
	bucketedMaxSpan = 1 << 32
	// A bitmap this small (1 MiB) stays in cache whatever the build size.
	bitmapCacheBytes = 1 << 20
	// hashBytesPerRow is what a hash table costs per build row (key word,
	// chain link, two head slots): a bitmap that is smaller wins.
	hashBytesPerRow = 20
	// cpuBucketBits sizes a bucket's bitmap for a CPU core's L1 (32 KiB).
	cpuBucketBits = 18
)

// chooseBuild picks how the build side of hj is indexed: DirectArray for one
// integer key with dense exact bounds, Bitmap or BucketedBitmap where a bit
// per key value is smaller than a hash table (semi and anti joins) or the
// probe mostly misses (inner and left joins: the bit test rejects misses
// from a table 1/32 the size of the direct array), HashTable otherwise.
// matchFrac is the estimated fraction of probe rows that find a match.
func (b *builder) chooseBuild(hj *HashJoin, bs *relStats, matchFrac float64) {
	keys := hj.BuildKeys()
	hj.Strategy = HashTable
	forced := b.opts.Join == "bitmap"
	if len(keys) != 1 {
		if forced {
			hj.Fallback = fmt.Sprintf("%d join keys", len(keys))
		}
		return
	}
	ks := exprStat(keys[0], bs, keys[0].Type())
	hj.UniqueBuild = ks.Distinct >= bs.Rows*0.99
	// A string's or wide DECIMAL's key words are interned ids and a
	// float's are its bits: neither is the value a bitmap or direct array
	// is indexed by (the executor would fall back to its hash table).
	t := keys[0].Type()
	if t.ID == columnar.String || t.Physical() == columnar.PhysFloat64 || t.IsWide() || !ks.Exact || !ks.HasRange {
		if forced {
			hj.Fallback = "the key is not an integer with known bounds"
		}
		return
	}
	span := ks.Max - ks.Min + 1
	lo, hi := int64(ks.Min), int64(ks.Max)
	if forced {
		if why := bitmapApplies(hj, span); why != "" {
			hj.Fallback = why
		} else {
			b.setBitmap(hj, span, lo, hi)
			return
		}
	}
	if span <= directArraySmall || span <= directArrayRatio*bs.Rows {
		hj.Strategy = DirectArray
		hj.KeyMin, hj.KeyMax = lo, hi
	}
	if !forced && bitmapApplies(hj, span) == "" && b.bitmapWins(hj, span, bs.Rows, matchFrac) {
		b.setBitmap(hj, span, lo, hi)
	}
}

// bitmapApplies says why a bitmap cannot index hj's build side of span key
// values ("" when it can).
func bitmapApplies(hj *HashJoin, span float64) string {
	semiAnti := hj.Kind == sql.JoinSemi || hj.Kind == sql.JoinAnti
	switch {
	case hj.Residual != nil:
		return "a residual condition needs every matching pair"
	case hj.Kind != sql.JoinInner && hj.Kind != sql.JoinLeft && !semiAnti:
		return "join kind " + joinKindName(hj.Kind, hj.NullAware)
	case semiAnti && span > bucketedMaxSpan:
		return fmt.Sprintf("the key spans %.0f values (a bucketed bitmap covers 2^32)", span)
	case !semiAnti && span > bitmapPayloadMaxSpan:
		return fmt.Sprintf("the key spans %.0f values, too many for the direct array behind the bitmap", span)
	}
	return ""
}

// bitmapWins is the cost rule for an unforced join: a semi or anti join's
// bitmap (or the buckets the build keys can touch) against the hash table's
// bytes; an inner or left join's bitmap filter when the direct array leaves
// the cache and most probe rows miss.
func (b *builder) bitmapWins(hj *HashJoin, span, rows, matchFrac float64) bool {
	if hj.Kind == sql.JoinSemi || hj.Kind == sql.JoinAnti {
		if span <= bitmapMaxBits {
			return span/8 <= math.Max(hashBytesPerRow*rows, bitmapCacheBytes)
		}
		bucket := math.Exp2(float64(b.bucketBits()))
		touched := math.Min(math.Ceil(span/bucket), math.Max(rows, 1))
		return touched*bucket/8 <= hashBytesPerRow*rows
	}
	return hj.Strategy == DirectArray && span*4 > 4*bitmapCacheBytes && matchFrac < 0.5
}

// setBitmap makes hj a bitmap join over [lo, hi]: one bitmap when the span
// fits, buckets otherwise.
func (b *builder) setBitmap(hj *HashJoin, span float64, lo, hi int64) {
	hj.Strategy, hj.KeyMin, hj.KeyMax = Bitmap, lo, hi
	if span > bitmapMaxBits {
		hj.Strategy, hj.BucketBits = BucketedBitmap, b.bucketBits()
	}
}

// bucketBits sizes a bucket's bitmap: a quarter of a GPU block's shared
// memory (so several blocks share an SM and results can be staged beside
// it), rounded down to a power of two; a CPU core's L1 without a GPU.
func (b *builder) bucketBits() int {
	if g := b.opts.GPU; g != nil && g.SharedPerBlock > 0 {
		return bits.Len64(uint64(g.SharedPerBlock/4)) - 1 + 3
	}
	return cpuBucketBits
}
