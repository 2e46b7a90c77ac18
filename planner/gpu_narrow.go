package planner

import (
	"gpusql/storage/columnar"
)

// Narrow fact columns (issue 17): the byte-aligned form of packing, a
// star's fact column whose values span at most 16 bits within each
// statistics chunk kept on the device at 1 or 2 bytes a row: each value's
// offset from its chunk's frame (the chunk's least value, from the
// statistics), which the fast kernel's tile load reads in one vector load
// and decodes with a byte extract and an add. SSB's lo_discount,
// lo_quantity and lo_tax take 1 byte, lo_orderdate 2 (a 61,129-day span),
// lo_suppkey 2 up to SF 30.
//
// It is a choice of capacity, not of speed: measured on the H100 at SSB
// SF 10 (README), the 13 fact kernels ran 3.435-3.454 ms over narrow
// columns against 3.403-3.409 ms over 4-byte ones (Q1.x, in star_scan,
// 0.41 against 0.44 ms; the other ten stars 0.06-0.08 ms slower): the
// fused kernels are bound by their instructions and their chains of
// dependent loads more than by bytes, and the decode adds instructions.
// (Earlier, at 8 rows a thread: 4.93-4.96 against 4.74-4.77 ms, Q1.1 0.31
// against 0.28 with 273 against 690 MB read.) So placement narrows the candidates only
// when the plan's resident columns do not fit the GPU memory budget in
// their 4-byte form, before it moves any column off the device: a narrow
// column read at device bandwidth beats one streamed over PCIe by an order
// of magnitude. GPUProfile.ForceNarrow (tests) narrows them always.
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

// narrowForm is the narrow form of column ci of table t, nil when its
// values need more than 2 bytes from their chunks' frames.
func narrowForm(t *columnar.Table, ci int) *GPUNarrow {
	b, ok := columnar.PackBitsFromStats(t.Stats[ci], t.Rows)
	if !ok || b > 16 {
		return nil
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
	return n
}

// narrowResident gives every resident column that has a narrow form that
// form, and reports whether any changed.
func narrowResident(cols []GPUColumn) bool {
	changed := false
	for i := range cols {
		if c := &cols[i]; c.narrowable != nil && c.Narrow == nil && c.Place == PlaceResident {
			c.Narrow = c.narrowable
			c.UnpackedBytes, c.Bytes = c.Bytes, narrowBytes(c.Col.Len, c.Narrow)
			changed = true
		}
	}
	return changed
}

// narrowBytes is a narrow column's device size: its values, padded to 16
// bytes, and its frames.
func narrowBytes(rows int, n *GPUNarrow) int64 {
	return (int64(rows)*int64(n.Width)+15)/16*16 + 4*int64(len(n.Frames))
}
