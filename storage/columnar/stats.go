package columnar

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// ComputeStats fills t.Stats: for every column and every chunk of
// ChunkRows rows, the minimum and maximum in the physical domain (MinF and
// MaxF for doubles), the NULL count and the distinct count.
//
// Distinct counts are exact for dictionary codes and for integer chunks
// whose values span fewer than 2^21 (a bitset over the span), and a
// HyperLogLog estimate (2^12 registers, about 1.6% standard error)
// otherwise: exact counting by sorting or hashing costs several times the
// load itself, and the planner needs magnitudes.
//
// Entries already in t.Stats are kept for every chunk but the last one
// listed: tables only grow by appending, only a table's last chunk can be
// partial, and so a snapshot built by appending may carry its
// predecessor's entries (with string codes remapped) and pay only for the
// chunks the append touched. Set t.Stats to nil to recompute everything.
// Chunks are computed in parallel.
func ComputeStats(t *Table) {
	t.summaries = &summaryMemo{byCol: map[int]summaryEntry{}}
	nch := t.NumChunks()
	if len(t.Stats) != len(t.Columns) {
		t.Stats = make([][]ChunkStats, len(t.Columns))
	}
	type task struct{ c, k int }
	var tasks []task
	for c := range t.Columns {
		keep := max(0, min(len(t.Stats[c])-1, nch))
		st := make([]ChunkStats, nch)
		copy(st, t.Stats[c][:keep])
		t.Stats[c] = st
		for k := keep; k < nch; k++ {
			tasks = append(tasks, task{c, k})
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := min(runtime.NumCPU(), len(tasks)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc statsScratch
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) {
					return
				}
				c, k := tasks[i].c, tasks[i].k
				lo := k * ChunkRows
				hi := min(lo+ChunkRows, t.Rows)
				t.Stats[c][k] = chunkStats(t.Columns[c], lo, hi, &sc)
			}
		}()
	}
	wg.Wait()
}

// bitsetSpan is the widest value span counted exactly with a bitset
// (256 KB, cache resident).
const bitsetSpan = 1 << 21

const hllBits = 12

type statsScratch struct {
	set []uint64
	hll [1 << hllBits]uint8
}

func chunkStats(col *Column, lo, hi int, sc *statsScratch) ChunkStats {
	var st ChunkStats
	valid := col.Valid
	if valid != nil {
		st.NullCount = (hi - lo) - countSet(valid, lo, hi)
		if st.NullCount == 0 {
			valid = nil
		}
	}
	switch {
	case col.I32 != nil:
		st.Runs = packChunkRuns(col.I32, col.Valid, lo, hi)
	case col.I64 != nil:
		st.Runs = packChunkRuns(col.I64, col.Valid, lo, hi)
	}
	if st.NullCount == hi-lo {
		return st
	}
	switch {
	case col.I32 != nil:
		st.Min, st.Max, st.Distinct = intStats(col.I32, valid, lo, hi, col.Type.ID == String, sc)
		st.Sorted = nonDecreasing(col.I32, valid, lo, hi)
	case col.I64 != nil:
		st.Min, st.Max, st.Distinct = intStats(col.I64, valid, lo, hi, false, sc)
		st.Sorted = nonDecreasing(col.I64, valid, lo, hi)
	case col.F64 != nil:
		st.MinF, st.MaxF, st.Distinct = floatStats(col.F64, valid, lo, hi, sc)
	case col.F32 != nil || col.W != nil:
		// Vectors have no order worth a min/max; wide decimals have no
		// int64 one. Count them as distinct.
		st.Distinct = (hi - lo) - st.NullCount
	}
	return st
}

// packChunkRuns counts the runs of rows [lo, hi) (lo a multiple of
// PackChunkRows), broken every PackChunkRows rows.
func packChunkRuns[T int32 | int64](v []T, valid []uint64, lo, hi int) int {
	runs := 0
	for k := lo; k < hi; k += PackChunkRows {
		runs += countRuns(v, valid, k, min(k+PackChunkRows, hi))
	}
	return runs
}

// nonDecreasing reports whether the valid values of v[lo:hi] never
// decrease. Unsorted data usually stops it within a few rows.
func nonDecreasing[T int32 | int64](v []T, valid []uint64, lo, hi int) bool {
	have := false
	var prev T
	for i := lo; i < hi; i++ {
		if valid != nil && !isValid(valid, i) {
			continue
		}
		if have && v[i] < prev {
			return false
		}
		prev, have = v[i], true
	}
	return true
}

func isValid(valid []uint64, i int) bool {
	return valid == nil || valid[i>>6]&(1<<(uint(i)&63)) != 0
}

func intStats[T int32 | int64](v []T, valid []uint64, lo, hi int, exact bool, sc *statsScratch) (mn, mx int64, distinct int) {
	first := true
	if valid == nil {
		mn, mx = minMax(v[lo:hi])
	} else {
		for i := lo; i < hi; i++ {
			if !isValid(valid, i) {
				continue
			}
			x := int64(v[i])
			if first {
				mn, mx, first = x, x, false
			}
			mn, mx = min(mn, x), max(mx, x)
		}
	}
	span := uint64(mx - mn) // wraps only for spans beyond 2^63, which are not small
	if exact || span < bitsetSpan {
		words := int(span>>6) + 1
		if cap(sc.set) < words {
			sc.set = make([]uint64, words)
		}
		set := sc.set[:words]
		clear(set)
		if valid == nil {
			for _, x := range v[lo:hi] {
				d := uint64(int64(x) - mn)
				set[d>>6] |= 1 << (d & 63)
			}
		} else {
			for i := lo; i < hi; i++ {
				if isValid(valid, i) {
					d := uint64(int64(v[i]) - mn)
					set[d>>6] |= 1 << (d & 63)
				}
			}
		}
		for _, w := range set {
			distinct += bits.OnesCount64(w)
		}
		return mn, mx, distinct
	}
	h := &sc.hll
	clear(h[:])
	if valid == nil {
		for _, x := range v[lo:hi] {
			hllAdd(h, uint64(x))
		}
	} else {
		for i := lo; i < hi; i++ {
			if isValid(valid, i) {
				hllAdd(h, uint64(v[i]))
			}
		}
	}
	return mn, mx, hllCount(h, hi-lo)
}

// minMax of a non-empty vector, with four independent accumulators so
// the compare chains overlap.
func minMax[T int32 | int64](v []T) (int64, int64) {
	a0, a1, a2, a3 := v[0], v[0], v[0], v[0]
	b0, b1, b2, b3 := v[0], v[0], v[0], v[0]
	i := 0
	for ; i+4 <= len(v); i += 4 {
		x := v[i : i+4 : i+4]
		a0, b0 = min(a0, x[0]), max(b0, x[0])
		a1, b1 = min(a1, x[1]), max(b1, x[1])
		a2, b2 = min(a2, x[2]), max(b2, x[2])
		a3, b3 = min(a3, x[3]), max(b3, x[3])
	}
	for ; i < len(v); i++ {
		a0, b0 = min(a0, v[i]), max(b0, v[i])
	}
	return int64(min(a0, a1, a2, a3)), int64(max(b0, b1, b2, b3))
}

func floatStats(v []float64, valid []uint64, lo, hi int, sc *statsScratch) (mn, mx float64, distinct int) {
	mn, mx = math.Inf(1), math.Inf(-1)
	h := &sc.hll
	clear(h[:])
	n := 0
	for i := lo; i < hi; i++ {
		if !isValid(valid, i) {
			continue
		}
		x := v[i]
		n++
		if x < mn {
			mn = x
		}
		if x > mx {
			mx = x
		}
		if x == 0 {
			x = 0 // -0 and 0 are one value
		}
		hllAdd(h, math.Float64bits(x))
	}
	if mn > mx { // only NaNs
		mn, mx = math.NaN(), math.NaN()
	}
	return mn, mx, hllCount(h, n)
}

func hllAdd(h *[1 << hllBits]uint8, x uint64) {
	// splitmix64 finalizer: consecutive keys must land in unrelated registers.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	idx := x >> (64 - hllBits)
	rank := uint8(bits.LeadingZeros64(x<<hllBits|1<<(hllBits-1))) + 1
	if rank > h[idx] {
		h[idx] = rank
	}
}

// hllCount is the HyperLogLog estimate with the linear-counting correction
// for small cardinalities (Flajolet et al. 2007), clamped to [1, n].
func hllCount(h *[1 << hllBits]uint8, n int) int {
	const m = 1 << hllBits
	sum, zeros := 0.0, 0
	for _, r := range h {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(float64(m)/float64(zeros))
	}
	return int(min(max(math.Round(e), 1), float64(n)))
}
