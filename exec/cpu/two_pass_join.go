package cpu

import (
	"math/bits"
	"sync"

	"gpusql/planner"
	"gpusql/sql"
)

// runTwoPassJoin runs a HashJoin marked TwoPass by the lock-free two-pass
// bucketing of Kruliš & Yaghob ("Revision of relational joins for
// multi-core and many-core architectures"): both inputs are materialized
// and their keys encoded; each of W workers takes a contiguous share of a
// side's rows and (pass 1) counts them per bucket (top bits of the key
// hash) into its own row of a W × B matrix, the matrix is scanned bucket
// by bucket, and (pass 2) each worker writes its rows into its own slots
// of every bucket. Then worker w owns buckets w, w+W, …: it builds a small
// chained table over the bucket's build rows (cache-resident: the bucket
// count targets ~4K build rows per bucket) and probes it with the bucket's
// probe rows. A probe row lies in exactly one bucket, so its matches are
// recorded without locks or atomics, as the run of build rows of that
// probe row (like the merge join's runs); the left rows then stream
// through pairJoin, which gives residuals and outer / semi / anti
// semantics as for the other joins.
func (x *executor) runTwoPassJoin(n *planner.HashJoin) (*rel, error) {
	// Key words, the bucketed row orders, the per-bucket tables and the
	// runs per left row (an estimate of one match per left row).
	l, r, lk, rk, release, err := x.keyedInputs(n, n.Left, n.Right, n.LeftKeys, n.RightKeys, 16, 16)
	if err != nil {
		return nil, err
	}
	defer release()
	w := max(1, min(x.workers, (l.rows+r.rows)/4096))
	rightHasNull := false
	for _, a := range rk.anyNull {
		rightHasNull = rightHasNull || a
	}
	if n.NullAware && n.Kind == sql.JoinAnti {
		switch {
		case r.rows == 0:
			return l, nil
		case rightHasNull:
			return gatherRel(l, nil), nil
		}
	}
	if semiAntiBitmap(n, keyTypes(n.LeftKeys, n.RightKeys)) {
		if matched, ok := twoPassBitmap(lk, rk, l.rows, r.rows, w); ok {
			x.free(r)
			return x.keepMatched(n, l, lk.anyNull, matched)
		}
	}
	nb := twoPassBuckets(r.rows, w)
	bp := hashBuckets(rk, r.rows, w, nb)
	pp := hashBuckets(lk, l.rows, w, nb)
	lo, hi, runs := twoPassMatch(lk, rk, bp, pp, l.rows, w, nb)
	return x.streamRuns(n.Kind, n.Residual, n.NullAware, n.Out, l, r, lk.anyNull, lo, hi, runs, n)
}

// twoPassBuckets is the bucket count: a power of two giving ~4K build rows
// per bucket (a table that stays in L1/L2), at least one per worker.
func twoPassBuckets(buildRows, workers int) int {
	nb := 1 << bits.Len(uint(max(buildRows/4096, workers, 1)-1))
	return min(nb, 1<<16)
}

// bucketed is one side's rows in bucket order: rows[start[b]:start[b+1]]
// are bucket b's rows (NULL keys never match and are left out).
type bucketed struct {
	rows  []int32
	start []int
	hash  []uint64 // per row of the side (hash buckets)
}

func keyHash(k *relKeys, r int) uint64 {
	h := uint64(0x243F6A8885A308D3)
	for _, w := range k.words {
		h = hashWords(h, w[r])
	}
	return h
}

// hashBuckets scatters one side's rows by the top bits of their key hash.
func hashBuckets(k *relKeys, rows, w, nb int) *bucketed {
	hash := make([]uint64, rows)
	parallelShares(rows, w, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			if !k.anyNull[r] {
				hash[r] = keyHash(k, r)
			}
		}
	})
	shift := uint(64 - bits.TrailingZeros(uint(nb))) // 64 for one bucket: h>>64 == 0
	out := bucketRows(rows, w, nb, func(r int) int {
		if k.anyNull[r] {
			return -1
		}
		return int(hash[r] >> shift)
	})
	out.hash = hash
	return out
}

// bucketRows is the two-pass scatter of one side's rows into buckets
// (bucketOf: a row's bucket, -1 for none): pass 1 counts into each
// worker's row of the W × B matrix, the matrix is scanned bucket-major,
// pass 2 writes each worker's rows at its own offsets. No two workers
// write the same slot.
func bucketRows(rows, w, nb int, bucketOf func(r int) int) *bucketed {
	out := &bucketed{start: make([]int, nb+1)}
	count := make([][]int, w)
	parallelShares(rows, w, func(i, lo, hi int) {
		c := make([]int, nb)
		for r := lo; r < hi; r++ {
			if b := bucketOf(r); b >= 0 {
				c[b]++
			}
		}
		count[i] = c
	})
	// offsets[i][b]: where worker i's rows of bucket b begin.
	total := 0
	for b := 0; b < nb; b++ {
		out.start[b] = total
		for i := 0; i < w; i++ {
			c := count[i][b]
			count[i][b] = total
			total += c
		}
	}
	out.start[nb] = total
	out.rows = make([]int32, total)
	parallelShares(rows, w, func(i, lo, hi int) {
		at := count[i]
		for r := lo; r < hi; r++ {
			if b := bucketOf(r); b >= 0 {
				out.rows[at[b]] = int32(r)
				at[b]++
			}
		}
	})
	return out
}

// parallelShares runs fn(i, lo, hi) for worker i's contiguous share of
// rows, all workers at once.
func parallelShares(rows, w int, fn func(i, lo, hi int)) {
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			fn(i, i*rows/w, (i+1)*rows/w)
		}(i)
	}
	wg.Wait()
}

// twoPassMatch builds and probes each bucket's table, worker i taking
// buckets i, i+w, …, and returns every probe row's run of matching build
// rows: runs[lo[p]:hi[p]].
func twoPassMatch(lk, rk *relKeys, bp, pp *bucketed, probeRows, w, nb int) (lo, hi, runs []int32) {
	cnt := make([]int32, probeRows)
	pairs := make([][2][]int32, w)
	parallelShares(w, w, func(i, _, _ int) {
		var heads, next []int32
		var pl, pb []int32
		for b := i; b < nb; b += w {
			brows := bp.rows[bp.start[b]:bp.start[b+1]]
			prows := pp.rows[pp.start[b]:pp.start[b+1]]
			if len(brows) == 0 || len(prows) == 0 {
				continue
			}
			size := 1 << bits.Len(uint(2*len(brows)-1))
			mask := uint64(size - 1)
			heads = growInt32(heads, size)
			clear(heads)
			next = growInt32(next, len(brows))
			for j := len(brows) - 1; j >= 0; j-- {
				s := bp.hash[brows[j]] & mask
				next[j] = heads[s]
				heads[s] = int32(j + 1)
			}
			for _, p := range prows {
				h := pp.hash[p]
				for j := heads[h&mask]; j != 0; j = next[j-1] {
					br := brows[j-1]
					if bp.hash[br] == h && sameKeys(lk, int(p), rk, int(br)) {
						pl, pb = append(pl, p), append(pb, br)
						cnt[p]++
					}
				}
			}
		}
		pairs[i] = [2][]int32{pl, pb}
	})
	lo, hi = make([]int32, probeRows), make([]int32, probeRows)
	total := int32(0)
	for p, c := range cnt {
		lo[p], hi[p] = total, total
		total += c
	}
	runs = make([]int32, total)
	parallelShares(w, w, func(i, _, _ int) {
		pl, pb := pairs[i][0], pairs[i][1]
		for k, p := range pl {
			runs[hi[p]] = pb[k]
			hi[p]++
		}
	})
	return lo, hi, runs
}

func growInt32(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	return buf[:n]
}

// sameKeys reports whether row a of ak and row b of bk have equal keys.
func sameKeys(ak *relKeys, a int, bk *relKeys, b int) bool {
	for c := range ak.words {
		if ak.words[c][a] != bk.words[c][b] {
			return false
		}
	}
	return true
}
