package columnar

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// The bit-packed form of an integer column, as the GPU's fused star kernel
// reads it (kernels/common.cuh, ld_packed and load_packed): per chunk of
// PackChunkRows rows a frame of reference (the chunk's least non-NULL
// value), and every value stored as value - frame in Bits bits. A NULL row
// stores 0 (its value reads as the frame; the validity bitmap says it is
// NULL).
//
// The words are lane-interleaved, so that a GPU warp's loads coalesce: rows
// come in groups of PackGroupRows (1,024); row 32s + l of a group is slot s
// of lane l, and lane l's 32 slots are one stream of 32*Bits bits (slot s
// at bits s*Bits, low bits first, possibly straddling two words) whose
// word j is the group's word 32j + l. So a warp that decodes consecutive
// slots of its 32 lanes reads every word it needs as one 128-byte line (32
// lanes x word j), whatever Bits is, where a row-after-row stream would
// spread each of its loads over Bits*32 bytes. A group takes exactly
// 32*Bits words; the last one is padded with zeros.
//
// A column of SSB's lo_discount (11 values) takes 4 bits a row instead of
// the 32 of its device form: the scan reads an eighth of the bytes.

// PackChunkShift is log2 of the rows a frame covers: 4,096 rows (four
// groups), so the rows one GPU thread loads together (consecutive slots of
// one lane) never straddle two frames, and frames add a byte per 1,024
// rows.
const (
	PackChunkShift = 12
	PackChunkRows  = 1 << PackChunkShift
	PackGroupShift = 10
	PackGroupRows  = 1 << PackGroupShift
	PackLanes      = 32
)

// Packed is a packed column in Go memory.
type Packed struct {
	Bits   int
	Rows   int
	Words  []uint32
	Frames []int32
}

// PackedWords is the 32-bit words rows values of bits bits take: whole
// groups of 32*bits words.
func PackedWords(rows, bits int) int {
	return (rows + PackGroupRows - 1) >> PackGroupShift * PackLanes * bits
}

// PackedFrames is the number of frames of rows rows.
func PackedFrames(rows int) int { return (rows + PackChunkRows - 1) >> PackChunkShift }

// PackedBytes is the size of a packed column: words and frames.
func PackedBytes(rows, bits int) int64 {
	return 4 * int64(PackedWords(rows, bits)+PackedFrames(rows))
}

// SpanBits is the bits that hold every value of [lo, hi] as an offset from
// lo: 0 for a constant, 32 for the whole int32 range.
func SpanBits(lo, hi int64) int {
	if hi <= lo {
		return 0
	}
	return bits.Len64(uint64(hi - lo))
}

// PackBitsFromStats is the bits that hold every packing chunk of a column
// whose statistics chunks are stats: a statistics chunk (ChunkRows rows, a
// multiple of PackChunkRows) bounds the span of each packing chunk inside
// it. ok is false when a value does not fit 32 bits (such a column is not
// packed) or the statistics do not cover rows.
func PackBitsFromStats(stats []ChunkStats, rows int) (b int, ok bool) {
	if len(stats) != (rows+ChunkRows-1)/ChunkRows {
		return 0, false
	}
	for k, s := range stats {
		if s.NullCount >= min(ChunkRows, rows-k*ChunkRows) || s.Max < s.Min {
			continue // no non-NULL values
		}
		if s.Min < math.MinInt32 || s.Max > math.MaxInt32 {
			return 0, false
		}
		b = max(b, SpanBits(s.Min, s.Max))
	}
	return b, true
}

// Pack packs an integer column (int32 or int64 vector) in b bits a value.
func Pack(col *Column, b int) (*Packed, error) {
	p := &Packed{Bits: b, Rows: col.Len, Words: make([]uint32, PackedWords(col.Len, b)), Frames: make([]int32, PackedFrames(col.Len))}
	return p, PackInto(col, b, p.Words, p.Frames)
}

// PackInto packs col into words and frames (PackedWords and PackedFrames
// long; pinned host memory for the GPU's cold copy), chunks in parallel.
// A value that does not fit its chunk's b bits is an error: b came from
// statistics that do not describe this column.
func PackInto(col *Column, b int, words []uint32, frames []int32) error {
	if col.I32 == nil && col.I64 == nil && col.Len > 0 {
		return fmt.Errorf("pack: %s column: only integer columns pack", col.Type)
	}
	if b < 0 || b > 32 {
		return fmt.Errorf("pack: %d bits a value (want 0 to 32)", b)
	}
	if len(words) < PackedWords(col.Len, b) || len(frames) < PackedFrames(col.Len) {
		return fmt.Errorf("pack: buffers of %d words and %d frames, want %d and %d", len(words), len(frames), PackedWords(col.Len, b), PackedFrames(col.Len))
	}
	nch := PackedFrames(col.Len)
	var errs = make([]error, nch)
	ParallelChunks(nch, func(k int) {
		lo := k << PackChunkShift
		hi := min(lo+PackChunkRows, col.Len)
		w := words[lo>>PackGroupShift*PackLanes*b : min(PackedWords(hi, b), len(words))]
		clear(w)
		if col.I32 != nil {
			frames[k], errs[k] = packChunk(col.I32, col.Valid, lo, hi, b, w)
		} else {
			frames[k], errs[k] = packChunk(col.I64, col.Valid, lo, hi, b, w)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// packChunk packs rows [lo, hi) into w (which starts at the word of row
// lo's group, lo a multiple of PackChunkRows) and returns the chunk's
// frame.
func packChunk[T int32 | int64](v []T, valid []uint64, lo, hi, b int, w []uint32) (int32, error) {
	frame, top := int64(math.MaxInt64), int64(math.MinInt64)
	for i := lo; i < hi; i++ {
		if valid == nil || isValid(valid, i) {
			frame, top = min(frame, int64(v[i])), max(top, int64(v[i]))
		}
	}
	if top < frame {
		return 0, nil // all NULL: every row stores 0
	}
	if frame < math.MinInt32 || top > math.MaxInt32 {
		return 0, fmt.Errorf("pack: rows %d to %d hold values outside 32 bits (%d to %d)", lo, hi-1, frame, top)
	}
	if SpanBits(frame, top) > b {
		return 0, fmt.Errorf("pack: rows %d to %d span %d to %d, more than %d bits (statistics out of date?)", lo, hi-1, frame, top, b)
	}
	if b == 0 {
		return int32(frame), nil
	}
	for g := lo; g < hi; g += PackGroupRows {
		packGroup(v[g:min(g+PackGroupRows, hi)], valid, g, frame, b, w[(g-lo)>>PackGroupShift*PackLanes*b:])
	}
	return int32(frame), nil
}

// packGroup packs one group's rows (v, the group's first row first) into
// its 32*b words w, lane by lane. Offsets go into a 64-bit accumulator
// (fewer than 32 bits pending plus at most 32 new) that spills a word at a
// time into the lane's next word, 32 words on.
func packGroup[T int32 | int64](v []T, valid []uint64, first int, frame int64, b int, w []uint32) {
	for lane := 0; lane < PackLanes; lane++ {
		var acc uint64
		pending, wi := 0, lane
		for r := lane; r < len(v); r += PackLanes {
			d := uint64(int64(v[r]) - frame)
			if valid != nil && !isValid(valid, first+r) {
				d = 0
			}
			acc |= d << pending
			pending += b
			if pending >= 32 {
				w[wi] = uint32(acc)
				wi += PackLanes
				acc >>= 32
				pending -= 32
			}
		}
		if pending > 0 {
			w[wi] = uint32(acc)
		}
	}
}

// At decodes row i as a kernel does (NULL rows read as their frame).
func (p *Packed) At(i int) int64 {
	return UnpackAt(p.Words, p.Frames, p.Bits, i)
}

// UnpackAt decodes row i of packed words and frames.
func UnpackAt(words []uint32, frames []int32, b, i int) int64 {
	if b == 0 {
		return int64(frames[i>>PackChunkShift])
	}
	bit := (i >> 5 & (PackLanes - 1)) * b
	at := i>>PackGroupShift*PackLanes*b + bit>>5*PackLanes + i&(PackLanes-1)
	pair := uint64(words[at])
	if bit&31+b > 32 {
		pair |= uint64(words[at+PackLanes]) << 32
	}
	d := uint32(pair >> (bit & 31))
	if b < 32 {
		d &= 1<<b - 1
	}
	return int64(int32(uint32(frames[i>>PackChunkShift]) + d))
}

// ParallelChunks calls do(k) for k in [0, n) on every CPU, each k once.
func ParallelChunks(n int, do func(k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := min(runtime.NumCPU(), n); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				do(k)
			}
		}()
	}
	wg.Wait()
}
