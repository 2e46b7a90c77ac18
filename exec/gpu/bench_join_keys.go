package gpu

// The host side of bench join's key sets, kept free of the cuda tag so
// that its rules are tested on any machine.

// intersectInputs returns the key vectors algo is given: "merge-sorted"
// measures the merge-path join alone on inputs that arrive sorted on the
// key (a load-time sort, a sorted projection), so both sets are sorted
// here, outside the timed region; every other algorithm takes them as
// drawn. The merge join trusts a side marked sorted, so unsorted keys
// given to merge-sorted produce garbage run bounds (the first H100 run
// reported a join of 3.5e15 rows).
func intersectInputs(r, s []int64, algo string) ([]int64, []int64) {
	if algo != "merge-sorted" {
		return r, s
	}
	return sortedKeyCopy(r), sortedKeyCopy(s)
}

// sortedKeyCopy is a sorted copy of keys by an LSD radix sort on 16-bit
// digits of the sign-flipped value, skipping the digits on which every
// key agrees (bench join's 64 M keys sort in well under a second, where
// a comparison sort takes several).
func sortedKeyCopy(keys []int64) []int64 {
	a := make([]uint64, len(keys))
	var and, or uint64 = ^uint64(0), 0
	for i, k := range keys {
		a[i] = uint64(k) ^ 1<<63
		and &= a[i]
		or |= a[i]
	}
	b := make([]uint64, len(a))
	count := make([]int, 1<<16)
	for shift := 0; shift < 64; shift += 16 {
		if ((and^or)>>shift)&0xffff == 0 {
			continue
		}
		clear(count)
		for _, v := range a {
			count[(v>>shift)&0xffff]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, v := range a {
			d := (v >> shift) & 0xffff
			b[count[d]] = v
			count[d]++
		}
		a, b = b, a
	}
	out := make([]int64, len(a))
	for i, v := range a {
		out[i] = int64(v ^ 1<<63)
	}
	return out
}
