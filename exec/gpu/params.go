//go:build cuda

package gpu

import "gpusql/storage/columnar"

// Go twins of the kernel parameter structs in kernels/common.cuh,
// kernels/star_pipeline.cu and kernels/hash_build.cu, field for field
// (device pointers as uint64). They are passed by value through
// cuLaunchKernel's parameter buffer; TestParamLayout compares their sizes
// with the kernels' sizeof.

const (
	maxPreds = 8
	maxDims  = 4
	maxGCols = 4
	maxAggs  = 8
	threads  = 256 // threads per block of the simple kernels
)

type colView struct {
	Data    uint64
	Valid   uint64
	Width   int32
	IsFloat int32
	// Frame is set on a packed column (column_pack.go): Data are its
	// words, Bits a value, a frame per 2^Shift rows.
	Frame       uint64
	Bits, Shift int32
}

// valueBytes is what reading n values of v costs at device width: packed
// bytes for a packed column.
func (v colView) valueBytes(n int64) int64 {
	if v.Frame != 0 && v.Width < 4 {
		return int64(v.Width) * n // narrow (and its frames, 4 bytes per 65,536 rows)
	}
	if v.Frame != 0 {
		return columnar.PackedBytes(int(n), int(v.Bits))
	}
	return int64(v.Width) * n
}

// readBytes is valueBytes plus the validity bitmap's bytes for n rows.
func (v colView) readBytes(n int64) int64 {
	b := v.valueBytes(n)
	if v.Valid != 0 {
		b += (n + 7) / 8
	}
	return b
}

// predsBytes is what evaluating preds at n rows reads of their columns.
func predsBytes(preds []predParam, n int64) int64 {
	var b int64
	for _, p := range preds {
		b += p.Col.readBytes(n)
	}
	return b
}

const (
	predRange  = 0
	predSet    = 1
	predFRange = 2
	predFlags  = 3
)

type predParam struct {
	Col              colView
	Kind             int32
	Negate           int32
	Lo, Hi           int64
	FLo, FHi         float64
	FLoIncl, FHiIncl int32
	NullPass         int32
	Pad              int32
	Set              uint64
	SetLen           int64
}

type gcolParam struct {
	Col      colView
	Min      int64
	Stride   int64
	NullSlot int64
}

type dimParam struct {
	Key    colView
	Map    uint64
	KeyMin int64
	MapLen int64
	Stride int64
	HKeys  uint64
	HMask  int64
	// A payload in shared memory in the fact key's remapped layout
	// (remapParams): Key is then the fact rows' slot column.
	SlotValue          uint64
	RemapMin           int64
	NSlots, NullCode   int32
	ShOffset, BitsOnly int32
	// Bits is a direct table's bitmap (kernels/dim_bits.cu), 0 for none.
	Bits uint64
}

const (
	aggCountStar = 0
	aggCount     = 1
	aggSum       = 2
	aggMin       = 3
	aggMax       = 4

	exprA   = 0
	exprMul = 1
	exprSub = 2
	exprAdd = 3
)

type aggParam struct {
	A, B    colView
	Fn      int32
	Op      int32
	IsFloat int32
	Pad     int32
}

type starParams struct {
	N                            int64
	NPreds, NDims, NGCols, NAggs int32
	Preds                        [maxPreds]predParam
	Dims                         [maxDims]dimParam
	GCols                        [maxGCols]gcolParam
	Aggs                         [maxAggs]aggParam
	Table                        uint64
	NGroups                      int64
	ReplicaStride                int64
	SharedReplicas               int32
	DimSh                        int32
	ShGroups                     int64
	GroupSlotValue               uint64
	GroupRemapStride             int64
	// LiveChunks is a bitmap of the fact chunks the zone maps leave
	// (kernels/star_pipeline.cu star_tile_dead); 0 scans every row.
	LiveChunks uint64
}

type dimBuildParams struct {
	N              int64
	NPreds, NGCols int32
	Preds          [maxPreds]predParam
	GCols          [maxGCols]gcolParam
	Key            colView
	Flags          uint64
	Rank           uint64
	Map            uint64
	KeyMin         int64
	MapLen         int64
	HKeys          uint64
	HMask          int64
	Status         uint64
	KeyRange       uint64
}
