package columnar

import (
	"fmt"
	"math"
)

// The run-length form of an integer column: what a cold GPU load sends
// over the link for a column whose equal values come in runs (a fact
// table loaded in order of its orders: SSB's lo_orderdate and lo_custkey
// repeat over an order's one to seven lines), instead of its packed form
// (packed.go), which stores every row. The device expands it into the
// column's 4-byte form (kernels/column_cache.cu, unpack_runs): the link
// carries a bit a row and b bits a run instead of b bits a row.
//
// Runs break at every PackChunkRows rows, so each chunk decodes on its
// own, and wherever a row's validity changes (a run of NULLs is a run).
// The form is, in 32-bit words:
//
//	frames      [chunks]      each chunk's frame, as the packed form's
//	valueStart  [chunks + 1]  the word of values where each chunk's runs start
//	starts      [rows/32]     a bit a row, set where a run starts
//	values      [...]         per chunk, its runs' offsets from the frame in
//	                          b bits each, low bits first, from valueStart
//
// and one zero word after the values, so that a decoder may read the word
// after any value's first. A NULL run stores 0 (it reads as the frame, as
// in the packed form), so the expanded column equals the packed form's.

// RunForm describes a column's run-length form: its chunks' runs, from
// which the layout follows.
type RunForm struct {
	Rows, Bits int
	ChunkRuns  []int // runs in each chunk
}

// Chunks is the number of chunks (frames) of the form.
func (f *RunForm) Chunks() int { return PackedFrames(f.Rows) }

// Words is the form's size in 32-bit words.
func (f *RunForm) Words() int {
	return 2*f.Chunks() + 1 + startWords(f.Rows) + f.valueWords() + 1
}

func (f *RunForm) valueWords() int {
	n := 0
	for _, r := range f.ChunkRuns {
		n += runValueWords(r, f.Bits)
	}
	return n
}

func startWords(rows int) int { return (rows + 31) >> 5 }

func runValueWords(runs, b int) int { return (runs*b + 31) >> 5 }

// Offsets of the form's sections, in words.
func (f *RunForm) valueStartAt() int { return f.Chunks() }
func (f *RunForm) startsAt() int     { return 2*f.Chunks() + 1 }
func (f *RunForm) valuesAt() int     { return f.startsAt() + startWords(f.Rows) }

// RunBytesEstimate is the size of the run-length form of a column of rows
// rows and runs runs (statistics' Runs, summed) in b bits a value: what
// planning compares with the packed form's bytes.
func RunBytesEstimate(rows, runs, b int) int64 {
	chunks := PackedFrames(rows)
	return 4 * (int64(2*chunks+2+startWords(rows)) + (int64(runs)*int64(b)+31)/32 + int64(chunks))
}

// CountRuns returns col's run-length form in b bits a value: the runs of
// each chunk, counted in parallel.
func CountRuns(col *Column, b int) (*RunForm, error) {
	if col.I32 == nil && col.I64 == nil && col.Len > 0 {
		return nil, fmt.Errorf("runs: %s column: only integer columns run-length encode", col.Type)
	}
	if b < 0 || b > 32 {
		return nil, fmt.Errorf("runs: %d bits a value (want 0 to 32)", b)
	}
	f := &RunForm{Rows: col.Len, Bits: b, ChunkRuns: make([]int, PackedFrames(col.Len))}
	ParallelChunks(len(f.ChunkRuns), func(k int) {
		lo := k << PackChunkShift
		hi := min(lo+PackChunkRows, col.Len)
		if col.I32 != nil {
			f.ChunkRuns[k] = countRuns(col.I32, col.Valid, lo, hi)
		} else {
			f.ChunkRuns[k] = countRuns(col.I64, col.Valid, lo, hi)
		}
	})
	return f, nil
}

// countRuns counts the runs of rows [lo, hi): a row starts one when its
// validity differs from the row before's, or it is valid and its value
// differs.
func countRuns[T int32 | int64](v []T, valid []uint64, lo, hi int) int {
	if hi <= lo {
		return 0
	}
	runs := 1
	if valid == nil {
		prev := v[lo]
		for _, x := range v[lo+1 : hi] {
			if x != prev { // a conditional move, not a branch
				runs++
			}
			prev = x
		}
		return runs
	}
	for i := lo + 1; i < hi; i++ {
		if runStarts(v, valid, i) {
			runs++
		}
	}
	return runs
}

func runStarts[T int32 | int64](v []T, valid []uint64, i int) bool {
	if valid == nil {
		return v[i] != v[i-1]
	}
	a, b := isValid(valid, i-1), isValid(valid, i)
	return a != b || b && v[i] != v[i-1]
}

// EncodeRuns writes col's run-length form f (from CountRuns on the same
// column) into w (f.Words() long; pinned host memory for the GPU's cold
// copy), chunks in parallel. A value that does not fit its chunk's bits is
// an error, as in PackInto.
func EncodeRuns(col *Column, f *RunForm, w []uint32) error {
	if len(w) < f.Words() || col.Len != f.Rows {
		return fmt.Errorf("runs: a buffer of %d words for %d rows, want %d words for %d", len(w), col.Len, f.Words(), f.Rows)
	}
	vs := w[f.valueStartAt() : f.valueStartAt()+f.Chunks()+1]
	vs[0] = 0
	for k, r := range f.ChunkRuns {
		vs[k+1] = vs[k] + uint32(runValueWords(r, f.Bits))
	}
	values := w[f.valuesAt():f.Words()]
	values[len(values)-1] = 0
	errs := make([]error, f.Chunks())
	ParallelChunks(f.Chunks(), func(k int) {
		lo := k << PackChunkShift
		hi := min(lo+PackChunkRows, col.Len)
		starts := w[f.startsAt()+lo>>5 : f.startsAt()+(hi+31)>>5]
		out := values[vs[k]:vs[k+1]]
		clear(starts)
		clear(out)
		var frame int32
		if col.I32 != nil {
			frame, errs[k] = encodeRunChunk(col.I32, col.Valid, lo, hi, f.Bits, starts, out)
		} else {
			frame, errs[k] = encodeRunChunk(col.I64, col.Valid, lo, hi, f.Bits, starts, out)
		}
		w[k] = uint32(frame)
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// encodeRunChunk writes rows [lo, hi)'s start bits (starts begins at row
// lo's word) and run offsets and returns the chunk's frame.
func encodeRunChunk[T int32 | int64](v []T, valid []uint64, lo, hi, b int, starts, out []uint32) (int32, error) {
	var frame, top int64
	if valid == nil {
		frame, top = minMax(v[lo:hi])
	} else {
		frame, top = int64(math.MaxInt64), int64(math.MinInt64)
		for i := lo; i < hi; i++ {
			if isValid(valid, i) {
				frame, top = min(frame, int64(v[i])), max(top, int64(v[i]))
			}
		}
		if top < frame {
			frame, top = 0, 0 // all NULL: one run of 0s
		}
	}
	if frame < math.MinInt32 || top > math.MaxInt32 {
		return 0, fmt.Errorf("runs: rows %d to %d hold values outside 32 bits (%d to %d)", lo, hi-1, frame, top)
	}
	if SpanBits(frame, top) > b {
		return 0, fmt.Errorf("runs: rows %d to %d span %d to %d, more than %d bits (statistics out of date?)", lo, hi-1, frame, top, b)
	}
	if valid == nil {
		encodeRunValues(v[lo:hi], frame, b, starts, out)
		return int32(frame), nil
	}
	pos := 0 // bit of the next run's offset
	for i := lo; i < hi; i++ {
		if i > lo && !runStarts(v, valid, i) {
			continue
		}
		starts[(i-lo)>>5] |= 1 << ((i - lo) & 31)
		var d uint64
		if valid == nil || isValid(valid, i) {
			d = uint64(int64(v[i]) - frame)
		}
		if b > 0 {
			out[pos>>5] |= uint32(d << (pos & 31))
			if pos&31+b > 32 {
				out[pos>>5+1] |= uint32(d >> (32 - pos&31))
			}
		}
		pos += b
	}
	return int32(frame), nil
}

// encodeRunValues is encodeRunChunk for a chunk without NULLs (v, its
// rows), in two passes free of data-dependent branches: the start bits,
// with every row's offset written at its run's index (the index moves
// only at a start, so a run's last write is its first row's value), then
// the runs' offsets packed in b bits.
func encodeRunValues[T int32 | int64](v []T, frame int64, b int, starts, out []uint32) {
	var runs [PackChunkRows]uint32
	var word uint32
	r := -1
	prev := v[0] + 1 // wraps, so the first row starts a run
	for j, x := range v {
		s := 0
		if x != prev { // a conditional move, not a branch
			s = 1
		}
		prev = x
		r += s
		runs[r] = uint32(int64(x) - frame)
		word |= uint32(s) << (j & 31)
		if j&31 == 31 {
			starts[j>>5], word = word, 0
		}
	}
	if len(v)&31 != 0 {
		starts[len(v)>>5] = word
	}
	if b == 0 {
		return
	}
	var acc uint64
	pending, wi := 0, 0
	for _, d := range runs[:r+1] {
		acc |= uint64(d) << pending
		pending += b
		if pending >= 32 {
			out[wi] = uint32(acc)
			wi++
			acc >>= 32
			pending -= 32
		}
	}
	if pending > 0 {
		out[wi] = uint32(acc)
	}
}

// DecodeRuns expands a run-length form f's words w into rows values, as
// the device's unpack_runs does (NULL rows read as their frame): the
// reference the GPU kernel is tested against.
func DecodeRuns(f *RunForm, w []uint32) []int32 {
	out := make([]int32, f.Rows)
	values := w[f.valuesAt():]
	for k := range f.Chunks() {
		lo := k << PackChunkShift
		hi := min(lo+PackChunkRows, f.Rows)
		base, run := int(w[f.valueStartAt()+k]), -1
		for i := lo; i < hi; i++ {
			if w[f.startsAt()+i>>5]>>(i&31)&1 != 0 {
				run++
			}
			out[i] = int32(w[k] + runValue(values[base:], run*f.Bits, f.Bits))
		}
	}
	return out
}

// runValue reads the b-bit value at bit pos of values.
func runValue(values []uint32, pos, b int) uint32 {
	if b == 0 {
		return 0
	}
	pair := uint64(values[pos>>5]) | uint64(values[pos>>5+1])<<32
	d := uint32(pair >> (pos & 31))
	if b < 32 {
		d &= 1<<b - 1
	}
	return d
}
