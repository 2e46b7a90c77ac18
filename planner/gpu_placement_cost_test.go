package planner

import (
	"testing"

	"gpusql/storage/columnar"
)

// The off-device choice is by cost: a star's fact column streams when its
// wire bytes at the copy rate take less time than its host bytes at the
// zero-copy rate, else it is read zero-copy; other columns are read
// zero-copy. Chunks shrink to what the free memory holds, in whole 64-row
// steps, never below 64 rows.
func TestOffDevicePlaceByCost(t *testing.T) {
	col := &columnar.Column{Len: 1 << 20}
	wide := GPUColumn{Col: col, Fact: true, Bytes: 8 << 20, HostBytes: 8 << 20, WireWidth: 8}
	narrow := GPUColumn{Col: col, Fact: true, Bytes: 4 << 20, HostBytes: 4 << 20, WireWidth: 1}
	dim := GPUColumn{Col: col, Bytes: 4 << 20, HostBytes: 4 << 20, WireWidth: 1}
	h100 := DefaultGPUProfile()
	fastUVA := DefaultGPUProfile()
	fastUVA.ZeroCopyGBs = 100
	for _, c := range []struct {
		col  GPUColumn
		star bool
		prof *GPUProfile
		want ColumnPlace
	}{
		{wide, true, h100, PlaceStreamed},    // 8 B at 55 GB/s beats 8 B at 51
		{wide, true, fastUVA, PlaceZeroCopy}, // 8 B at 100 GB/s beats 8 B at 55
		{narrow, true, fastUVA, PlaceStreamed},
		{narrow, false, h100, PlaceZeroCopy}, // no star: nothing streams
		{dim, true, h100, PlaceZeroCopy},     // a dimension column
	} {
		if got := offDevicePlace(&c.col, c.star, c.prof); got != c.want {
			t.Errorf("%+v star %v zero-copy %g GB/s: %s, want %s", c.col, c.star, c.prof.ZeroCopyGBs, got, c.want)
		}
	}
	for _, c := range []struct{ free, wire, rows int64 }{
		{1 << 40, 4, GPUChunkRows},
		{3 * 4 * 1000, 4, 960},
		{10, 4, 64},
	} {
		s := chunking(c.free, c.wire)
		if s.ChunkRows != c.rows || s.BufferBytes != int64(s.Streams)*s.ChunkRows*c.wire {
			t.Errorf("chunking(%d, %d) = %+v, want %d rows", c.free, c.wire, s, c.rows)
		}
	}
}
