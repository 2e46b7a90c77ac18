package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// twoPassBitmapBits: a bucket covers 2^twoPassBitmapBits key values, so its
// bitmap is 32 KiB and stays in a core's L1.
const twoPassBitmapBits = 18

// semiAntiBitmap reports whether a two-pass join can test bits instead of
// building tables: a semi or anti join without a residual over one integer
// key.
func semiAntiBitmap(n *planner.HashJoin, types []columnar.Type) bool {
	if n.Residual != nil || len(types) != 1 || (n.Kind != sql.JoinSemi && n.Kind != sql.JoinAnti) {
		return false
	}
	t := types[0]
	return t.ID != columnar.String && t.Physical() != columnar.PhysFloat64
}

// twoPassBitmap is the two-pass join of Kruliš & Yaghob with bitmaps for
// tables: both sides are scattered by range (bucket = (key - min) >>
// twoPassBitmapBits over the build keys' [min, max]) instead of by hash,
// so the worker owning a bucket sets the bits of its build keys in one
// L1-sized bitmap, tests its probe rows' bits, and clears the bits it set
// for its next bucket. It returns, per probe row, whether its key is among
// the build keys; ok is false when the build keys span more than a 32-bit
// domain (the hash tables then take the join).
func twoPassBitmap(lk, rk *relKeys, probeRows, buildRows, w int) (matched []bool, ok bool) {
	lo, hi, any := keyBounds(rk.words[0], rk.anyNull)
	matched = make([]bool, probeRows)
	if !any {
		return matched, true
	}
	span := uint64(hi-lo) + 1
	if span > maxBucketedSpan {
		return nil, false
	}
	nb := int(span>>twoPassBitmapBits) + 1
	bucketOf := func(k *relKeys) func(r int) int {
		return func(r int) int {
			if k.anyNull[r] {
				return -1
			}
			d := uint64(k.words[0][r] - lo)
			if d >= span {
				return -1 // a probe key outside the build's range never matches
			}
			return int(d >> twoPassBitmapBits)
		}
	}
	bp := bucketRows(buildRows, w, nb, bucketOf(rk))
	pp := bucketRows(probeRows, w, nb, bucketOf(lk))
	const mask = 1<<twoPassBitmapBits - 1
	parallelShares(w, w, func(i, _, _ int) {
		bits := make([]uint64, 1<<twoPassBitmapBits/64)
		for b := i; b < nb; b += w {
			brows := bp.rows[bp.start[b]:bp.start[b+1]]
			prows := pp.rows[pp.start[b]:pp.start[b+1]]
			if len(brows) == 0 || len(prows) == 0 {
				continue
			}
			for _, r := range brows {
				o := uint64(rk.words[0][r]-lo) & mask
				bits[o>>6] |= 1 << (o & 63)
			}
			for _, p := range prows {
				o := uint64(lk.words[0][p]-lo) & mask
				matched[p] = bits[o>>6]>>(o&63)&1 != 0
			}
			for _, r := range brows {
				o := uint64(rk.words[0][r]-lo) & mask
				bits[o>>6] = 0
			}
		}
	})
	return matched, true
}

// keepMatched is a semi join's (matched) or anti join's (unmatched) left
// rows; a NULL-aware anti join (NOT IN) drops the rows with a NULL key.
func (x *executor) keepMatched(n *planner.HashJoin, l *rel, lnull, matched []bool) (*rel, error) {
	want := n.Kind == sql.JoinSemi
	var keep []int32
	for p, m := range matched {
		if m == want && !(n.NullAware && lnull[p]) {
			keep = append(keep, int32(p))
		}
	}
	out := gatherRel(l, keep)
	x.free(l)
	if err := x.own(n, out); err != nil {
		return nil, err
	}
	return out, nil
}
