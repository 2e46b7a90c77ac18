package planner

import (
	"gpusql/storage/columnar"
)

// Narrow fact columns (issue 17): the byte-aligned form of packing. Bit
// packing halves or quarters a column's bytes, but the kernel that decodes
// it in registers is bound by its instructions (measured on the H100:
// Q1.1 0.46 ms packed against 0.27 ms over 4-byte columns), so by default
// a star's fact column whose values span at most 16 bits within each
// statistics chunk is kept on the device at 1 or 2 bytes a row instead:
// each value's offset from its chunk's frame (the chunk's least value,
// from the statistics), which the kernel's tile load reads in one vector
// load and decodes with a byte extract and an add. SSB's lo_discount,
// lo_quantity and lo_tax take 1 byte, lo_orderdate 2 (a 61,129-day span),
// lo_suppkey 2 up to SF 30.
//
// The candidates are packing's (gpu_packing.go): resident fact columns
// the fused kernel reads directly and the expression VM does not, of a
// star neither split nor streamed; only that kernel reads this form, every
// other operator the 4-byte one. It goes with SET gpu_packing = TRANSFER
// (the default): a column may then cross the link packed and is narrowed
// on the device as it arrives (exec/gpu/column_narrow.go).

// GPUNarrow is a narrow column's device form: Width bytes a value, a
// frame per 2^ChunkShift rows.
type GPUNarrow struct {
	Width      int
	ChunkShift int
	Frames     []int32
}

// narrowShift is log2 of the rows a narrow column's frame covers: a
// statistics chunk, whose least value is the frame.
const narrowShift = 16

// narrowColumn gives fact column c (column ci of table t) its narrow form
// when its values fit 1 or 2 bytes from their chunks' frames.
func narrowColumn(c *GPUColumn, t *columnar.Table, ci int) {
	b, ok := columnar.PackBitsFromStats(t.Stats[ci], t.Rows)
	if !ok || b > 16 {
		return
	}
	n := &GPUNarrow{Width: 1, ChunkShift: narrowShift, Frames: make([]int32, len(t.Stats[ci]))}
	if b > 8 {
		n.Width = 2
	}
	for k, s := range t.Stats[ci] {
		if s.Max >= s.Min && s.NullCount < min(columnar.ChunkRows, t.Rows-k*columnar.ChunkRows) {
			n.Frames[k] = int32(s.Min)
		}
	}
	c.Narrow = n
	c.UnpackedBytes, c.Bytes = c.Bytes, narrowBytes(t.Rows, n)
}

// narrowBytes is a narrow column's device size: its values, padded to 16
// bytes, and its frames.
func narrowBytes(rows int, n *GPUNarrow) int64 {
	return (int64(rows)*int64(n.Width)+15)/16*16 + 4*int64(len(n.Frames))
}
