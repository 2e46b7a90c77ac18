//go:build cuda

package gpu

import (
	"testing"

	"gorgonia.org/cu"
)

// chunkViews (no device needed): a streamed column's sentinel becomes its
// chunk buffer, other per-row views move to the chunk's first row by
// their width, validity bitmaps by whole words, empty slots stay empty.
func TestChunkViews(t *testing.T) {
	var sp starParams
	sp.NPreds, sp.NDims, sp.NGCols, sp.NAggs = 1, 1, 1, 2
	sp.Preds[0].Col = colView{Data: streamSentinel | 1, Valid: 0x1000, Width: 2}
	sp.Dims[0].Key = colView{Data: 0x2000, Width: 4}
	sp.GCols[0].Col = colView{Data: streamSentinel, Width: 1, Valid: 0x3000}
	sp.Aggs[0].A = colView{Data: 0x4000, Width: 8}
	sp.Aggs[1] = aggParam{Fn: aggCountStar}
	sp.Preds[1].Col = colView{Data: 0x9000, Width: 4} // beyond NPreds
	chunkViews(&sp, 128, []cu.DevicePtr{0xa000, 0xb000})
	for _, c := range []struct {
		got, want colView
	}{
		{sp.Preds[0].Col, colView{Data: 0xb000, Valid: 0x1000 + 16, Width: 2}},
		{sp.Dims[0].Key, colView{Data: 0x2000 + 512, Width: 4}},
		{sp.GCols[0].Col, colView{Data: 0xa000, Valid: 0x3000 + 16, Width: 1}},
		{sp.Aggs[0].A, colView{Data: 0x4000 + 1024, Width: 8}},
		{sp.Aggs[1].A, colView{}},
		{sp.Preds[1].Col, colView{Data: 0x9000, Width: 4}},
	} {
		if c.got != c.want {
			t.Errorf("view %+v, want %+v", c.got, c.want)
		}
	}
}
