package gpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A line-by-line Go model of kernels/merge_path_join.cu (blocks and
// threads run one after another, each __syncthreads a phase boundary),
// checked against brute force without a GPU: the tile and co-rank
// arithmetic (ties, runs spanning tiles, empty tiles, one key repeated
// across many tiles) is where a merge-path join goes wrong, and this runs
// in CI. The GPU tests (merge_path_test.go) check the kernels themselves.

const (
	modelThreads = 128 // MP_THREADS
	modelItems   = 8   // MP_ITEMS
	modelNV      = modelThreads * modelItems
)

// modelTakesA mirrors takes_a / tile_takes_a: A's element comes first.
func modelTakesA(a, b []uint64, upper bool) bool {
	for k := range a {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return !upper
}

func keyAt(cols [][]uint64, i int) []uint64 {
	out := make([]uint64, len(cols))
	for k := range cols {
		out[k] = cols[k][i]
	}
	return out
}

// modelPartition mirrors mpj_partition.
func modelPartition(a, b [][]uint64, na, nb int, upper bool) []int {
	total := na + nb
	cuts := (total+modelNV-1)/modelNV + 1
	cor := make([]int, cuts)
	for c := range cor {
		d := min(c*modelNV, total)
		lo, hi := max(0, d-nb), min(d, na)
		for lo < hi {
			mid := (lo + hi) >> 1
			if modelTakesA(keyAt(a, mid), keyAt(b, d-1-mid), upper) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		cor[c] = lo
	}
	return cor
}

// modelSearch mirrors mpj_search: the lower pass fills lo, the upper pass
// counts.
func modelSearch(a, b [][]uint64, na, nb int, upper, first bool, cor, lo []int, counts []int64) {
	total := na + nb
	tiles := (total + modelNV - 1) / modelNV
	for blk := 0; blk < tiles; blk++ {
		d0 := blk * modelNV
		d1 := min(d0+modelNV, total)
		a0, a1 := cor[blk], cor[blk+1]
		b0, b1 := d0-a0, d1-a1
		ta, tb := a1-a0, b1-b0
		n := ta + tb
		sh := make([][]uint64, modelNV) // sh[x] = the tile's x-th key tuple
		for x := 0; x < n; x++ {
			if x < ta {
				sh[x] = keyAt(a, a0+x)
			} else {
				sh[x] = keyAt(b, b0+x-ta)
			}
		}
		for t := 0; t < modelThreads; t++ {
			d := min(t*modelItems, n)
			l, h := max(0, d-tb), min(d, ta)
			for l < h {
				mid := (l + h) >> 1
				if modelTakesA(sh[mid], sh[ta+d-1-mid], upper) {
					l = mid + 1
				} else {
					h = mid
				}
			}
			i, j := l, d-l
			for s := 0; s < modelItems && d+s < n; s++ {
				if !(j >= tb || (i < ta && modelTakesA(sh[i], sh[ta+j], upper))) {
					j++
					continue
				}
				row, bound := a0+i, b0+j
				if !upper {
					lo[row] = bound
				} else {
					c := int64(bound - lo[row])
					if first {
						c = min(c, 1)
					}
					counts[row] = c
				}
				i++
			}
		}
	}
}

// modelExpand mirrors mpj_expand_partition and mpj_expand.
func modelExpand(m int64, offsets []int64, lo, lperm, rperm []int) (outL, outR []int) {
	na := len(offsets)
	total := int(m) + na
	cuts := (total+modelNV-1)/modelNV + 1
	cor := make([]int, cuts)
	for c := range cor {
		d := min(c*modelNV, total)
		l, h := max(0, d-na), min(d, int(m))
		for l < h {
			mid := (l + h) >> 1
			if int64(mid) < offsets[d-1-mid] {
				l = mid + 1
			} else {
				h = mid
			}
		}
		cor[c] = l
	}
	outL, outR = make([]int, m), make([]int, m)
	for blk := 0; blk < cuts-1; blk++ {
		d0 := blk * modelNV
		d1 := min(d0+modelNV, total)
		a0, a1 := cor[blk], cor[blk+1]
		b0, b1 := d0-a0, d1-a1
		ta, tb := a1-a0, b1-b0
		n := ta + tb
		off := make([]int64, modelNV+1)
		for x := 0; x <= tb; x++ {
			if b0-1+x >= 0 {
				off[x] = offsets[b0-1+x]
			}
		}
		rowOf := make([]int, modelNV)
		for t := 0; t < modelThreads; t++ {
			d := min(t*modelItems, n)
			l, h := max(0, d-tb), min(d, ta)
			for l < h {
				mid := (l + h) >> 1
				if int64(a0+mid) < off[d-mid] {
					l = mid + 1
				} else {
					h = mid
				}
			}
			i, j := l, d-l
			for s := 0; s < modelItems && d+s < n; s++ {
				if j >= tb || (i < ta && int64(a0+i) < off[j+1]) {
					rowOf[i] = j
					i++
				} else {
					j++
				}
			}
		}
		for x := 0; x < ta; x++ {
			jr := rowOf[x]
			row, k := b0-1+jr, a0+x
			outL[k] = lperm[row]
			outR[k] = rperm[lo[row]+k-int(off[jr])]
		}
	}
	return outL, outR
}

// modelJoin runs the model end to end on sorted key columns (with row ids
// lperm, rperm) and returns the pairs as "l,r" strings, sorted.
func modelJoin(a, b [][]uint64, lperm, rperm []int, first bool) []string {
	na, nb := len(lperm), len(rperm)
	if na == 0 || nb == 0 {
		return nil
	}
	lo, counts := make([]int, na), make([]int64, na)
	for _, upper := range []bool{false, true} {
		cor := modelPartition(a, b, na, nb, upper)
		modelSearch(a, b, na, nb, upper, first, cor, lo, counts)
	}
	var m int64
	for i, c := range counts {
		counts[i] = m
		m += c
	}
	if m == 0 {
		return nil
	}
	outL, outR := modelExpand(m, counts, lo, lperm, rperm)
	out := make([]string, m)
	for k := range out {
		out[k] = fmt.Sprint(outL[k], ",", outR[k])
	}
	slices.Sort(out)
	return out
}

// bruteMergeJoin is every (l, r) pair of equal key tuples (the first r of the
// sorted order only, when first is set).
func bruteMergeJoin(a, b [][]uint64, lperm, rperm []int, first bool) []string {
	var out []string
	for i := range lperm {
		for j := range rperm {
			eq := true
			for k := range a {
				eq = eq && a[k][i] == b[k][j]
			}
			if eq {
				out = append(out, fmt.Sprint(lperm[i], ",", rperm[j]))
				if first {
					break
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// sortedKeys draws n key tuples of nkeys columns from gen, sorts them and
// returns the columns and a shuffled row id per sorted position.
func sortedKeys(rng *rand.Rand, n, nkeys int, gen func(int) uint64) ([][]uint64, []int) {
	rows := make([][]uint64, n)
	for i := range rows {
		rows[i] = make([]uint64, nkeys)
		for k := range rows[i] {
			rows[i][k] = gen(k)
		}
	}
	slices.SortFunc(rows, slices.Compare)
	cols := make([][]uint64, nkeys)
	for k := range cols {
		cols[k] = make([]uint64, n)
		for i := range rows {
			cols[k][i] = rows[i][k]
		}
	}
	return cols, rng.Perm(n)
}

func TestMergePathModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 3))
	type dist struct {
		name string
		gen  func(n int) func(int) uint64
	}
	dists := []dist{
		{"unique-ish", func(n int) func(int) uint64 { return func(int) uint64 { return rng.Uint64N(uint64(4*n + 1)) } }},
		{"few values", func(int) func(int) uint64 { return func(int) uint64 { return rng.Uint64N(5) } }},
		{"all equal", func(int) func(int) uint64 { return func(int) uint64 { return 7 } }},
		{"one heavy key", func(n int) func(int) uint64 {
			return func(int) uint64 {
				if rng.IntN(3) == 0 {
					return 1 << 40
				}
				return rng.Uint64N(uint64(n + 1))
			}
		}},
	}
	sizes := [][2]int{{0, 5}, {5, 0}, {1, 1}, {1, 3000}, {3000, 1}, {1023, 1}, {1024, 1024}, {1025, 2047}, {2500, 700}, {700, 2500}, {5000, 5000}, {2, 100000}}
	for _, sz := range sizes {
		for _, d := range dists {
			for _, nkeys := range []int{1, 2} {
				for _, first := range []bool{false, true} {
					if !first && d.name != "unique-ish" && sz[0]*sz[1] > 1e6 && sz[1] != 100000 {
						continue // millions of pairs: the brute force is the slow part
					}
					if sz[1] == 100000 && d.name != "all equal" {
						continue // the case is two left rows with 100000 partners each
					}
					a, lperm := sortedKeys(rng, sz[0], nkeys, d.gen(sz[0]))
					b, rperm := sortedKeys(rng, sz[1], nkeys, d.gen(sz[1]))
					got, want := modelJoin(a, b, lperm, rperm, first), bruteMergeJoin(a, b, lperm, rperm, first)
					if !slices.Equal(got, want) {
						t.Fatalf("%v %s keys=%d first=%v: %d pairs, want %d", sz, d.name, nkeys, first, len(got), len(want))
					}
				}
			}
		}
	}
}

// The co-ranks are cuts of the merge: every A row before a cut comes
// before every B row after it and the other way round, so each block's
// MP_NV elements are exactly the next MP_NV of the merged order. With every
// key equal the cuts fall where the tie rule says: all of A before B in
// the lower pass, all of B before A in the upper.
func TestMergePathModelCuts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for gi, gen := range []func(int) uint64{
		func(int) uint64 { return 9 },
		func(int) uint64 { return rng.Uint64N(3) },
		func(int) uint64 { return rng.Uint64N(1 << 20) },
	} {
		a, _ := sortedKeys(rng, 3000, 1, gen)
		b, _ := sortedKeys(rng, 2000, 1, gen)
		for _, upper := range []bool{false, true} {
			cor := modelPartition(a, b, 3000, 2000, upper)
			for c, ac := range cor {
				d := min(c*modelNV, 5000)
				bc := d - ac
				if ac < 0 || ac > 3000 || bc < 0 || bc > 2000 || (c > 0 && ac < cor[c-1]) {
					t.Fatalf("upper=%v cut %d: co-rank %d (b %d) out of range", upper, c, ac, bc)
				}
				if ac > 0 && bc < 2000 && !modelTakesA(keyAt(a, ac-1), keyAt(b, bc), upper) {
					t.Fatalf("upper=%v cut %d: A row %d should come after B row %d", upper, c, ac-1, bc)
				}
				if bc > 0 && ac < 3000 && modelTakesA(keyAt(a, ac), keyAt(b, bc-1), upper) {
					t.Fatalf("upper=%v cut %d: B row %d should come after A row %d", upper, c, bc-1, ac)
				}
			}
			if gi == 0 { // every key equal
				want := min(modelNV, 3000)
				if upper {
					want = 0
				}
				if cor[1] != want {
					t.Fatalf("all keys equal, upper=%v: first cut takes %d A rows, want %d", upper, cor[1], want)
				}
			}
		}
	}
}
