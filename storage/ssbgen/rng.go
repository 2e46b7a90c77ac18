package ssbgen

import "math/bits"

// rng is a SplitMix64 generator (Steele, Lea & Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014). Every row, or every order
// of lineorder, gets its own generator seeded from (seed, stream, index), so
// any worker can produce any block of rows and the output does not depend on
// how the rows were split among workers. The start states are mix64 of
// distinct inputs and each row draws a few dozen numbers at most, so the
// sequences of different rows do not overlap in practice.
type rng struct{ s uint64 }

const golden = 0x9e3779b97f4a7c15

// Streams keep the tables' random numbers independent of each other.
const (
	streamCustomer uint64 = iota + 1
	streamSupplier
	streamPart
	streamLineorder
	streamLineCount
	streamZipf
)

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// streamBase is the seed of a stream, from which its rows' seeds derive.
func streamBase(seed, stream uint64) uint64 { return mix64(seed ^ stream*golden) }

func newRNG(seed, stream uint64, index int64) rng {
	return rng{s: mix64(streamBase(seed, stream) + uint64(index))}
}

func (r *rng) next() uint64 {
	r.s += golden
	return mix64(r.s)
}

// intn returns a number in [0, n) by Lemire's multiply-shift; the bias,
// below n/2^64, is far under anything a benchmark can see.
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// between returns a number in [lo, hi], as dbgen's RANDOM(lo, hi).
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// lineCount is the number of lines (1..7) of order i. It depends on i alone,
// not on the seed, so RowCounts knows lineorder's size for every seed.
func lineCount(i int64) int {
	hi, _ := bits.Mul64(mix64(lineCountBase+uint64(i)), 7)
	return 1 + int(hi)
}

var lineCountBase = streamBase(0, streamLineCount)
