//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Chunked streaming of a star pipeline's fact table (issue 13; the plan's
// PlaceStreamed): the fact table is cut into chunks of ChunkRows rows;
// chunk c's streamed columns are copied into stream c mod S's device
// buffers on that stream, then the fused kernel runs over the chunk on the
// same stream, so one stream's copy overlaps another's kernel (S = 3:
// triple buffering), and a buffer is refilled only after its stream's
// previous kernel is done (a stream runs its work in order). Every chunk
// aggregates into the one group table on the device with the kernel's
// atomics: the partial aggregates merge there, and only the final table
// comes back. Columns are sent in the plan's wire width (1, 2 or 4 bytes:
// codes and small integers narrowed once on the host, kept in pinned
// memory for later queries), so the effective input rate can pass the
// link's. Resident fact columns, validity bitmaps (copied whole: a bit a
// row) and the expression VM's per-row results are read in place, offset
// to the chunk.
//
// A streamed column's descriptor carries a sentinel device address that
// names it (streamSentinel | index); each chunk's parameters replace it by
// that chunk's buffer.

const (
	streamSentinel = uint64(0xfff0) << 48
	sentinelMask   = uint64(0xffff) << 48
)

// streamedCol is one streamed fact column of a query.
type streamedCol struct {
	dc   *devColumn
	host []byte // values in the wire width
}

// streams reports whether the query already streams col.
func (r *queryRun) streams(col *columnar.Column) bool {
	for _, s := range r.streamed {
		if s.dc.col == col {
			return true
		}
	}
	return false
}

// streamedColumn returns col's chunk-by-chunk descriptor.
func (r *queryRun) streamedColumn(col *columnar.Column, gc *planner.GPUColumn) (*devColumn, error) {
	for _, s := range r.streamed {
		if s.dc.col == col {
			return s.dc, nil
		}
	}
	dc := &devColumn{col: col, n: col.Len, width: gc.WireWidth, isFloat: col.F64 != nil,
		min: math.MaxInt64, max: math.MinInt64, data: cu.DevicePtr(streamSentinel | uint64(len(r.streamed)))}
	if gc.HasRange {
		dc.min, dc.max = gc.Min, gc.Max
	}
	if len(col.Valid) > 0 {
		v, err := r.upload(bytesOf(col.Valid))
		if err != nil {
			return nil, err
		}
		dc.valid = v
	}
	host, err := r.d.narrowed(col, gc.WireWidth, r.streams)
	if err != nil {
		return nil, err
	}
	r.streamed = append(r.streamed, streamedCol{dc: dc, host: host})
	touchColumn(dc) // the kernels read its chunks in the wire width
	return dc, nil
}

// launchFact runs the fact kernel over the fact table: in one launch
// when its columns are on the device, else chunk by chunk. rowsPerBlock
// and maxGrid give the grid for a number of rows.
func (r *queryRun) launchFact(kern cu.Function, rowsPerBlock, maxGrid, block, shmem int, sp *starParams) error {
	if len(r.streamed) == 0 {
		return r.launch(kern, min(grid1D(sp.N, rowsPerBlock), maxGrid), block, shmem, unsafe.Pointer(sp), unsafe.Sizeof(*sp))
	}
	s := r.d.place.stream
	if s == nil {
		return fmt.Errorf("gpu: internal error: streamed columns without a chunking plan")
	}
	if packedView(sp) {
		// chunkViews moves views by whole rows; a packed view moves by
		// frames of 4,096 (the plan packs nothing when the fact streams).
		return fmt.Errorf("gpu: internal error: a packed fact column in a streamed launch")
	}
	streams, err := r.d.starStreams(s.Streams)
	if err != nil {
		return err
	}
	bufs := make([][]cu.DevicePtr, len(streams))
	for k := range bufs {
		for _, c := range r.streamed {
			b, err := r.s.alloc(s.ChunkRows * int64(c.dc.width))
			if err != nil {
				return fmt.Errorf("gpu: chunk buffers of the streamed fact table: %w", err)
			}
			bufs[k] = append(bufs[k], b)
		}
	}
	for c, lo := 0, int64(0); lo < sp.N; c, lo = c+1, lo+s.ChunkRows {
		rows := min(s.ChunkRows, sp.N-lo)
		k := c % len(streams)
		for j, col := range r.streamed {
			w := int64(col.dc.width)
			if err := cu.MemcpyHtoDAsync(bufs[k][j], unsafe.Pointer(&col.host[lo*w]), rows*w, streams[k]); err != nil {
				return fmt.Errorf("gpu: copying a chunk of the fact table: %v", err)
			}
		}
		cp := *sp
		cp.N = rows
		chunkViews(&cp, lo, bufs[k])
		if err := launchOn(streams[k], kern, min(grid1D(rows, rowsPerBlock), maxGrid), block, shmem, unsafe.Pointer(&cp), unsafe.Sizeof(cp)); err != nil {
			return err
		}
		r.d.chunks++
	}
	return nil
}

// chunkViews points sp's per-row column views at the chunk starting at
// row lo (a multiple of 64, so validity words align): streamed columns at
// their buffers, the others offset in place.
func chunkViews(sp *starParams, lo int64, bufs []cu.DevicePtr) {
	eachFactView(sp, func(v *colView) {
		if v.Data&sentinelMask == streamSentinel {
			v.Data = uint64(bufs[v.Data&^sentinelMask])
		} else if v.Data != 0 {
			v.Data += uint64(lo * int64(v.Width))
		}
		if v.Valid != 0 {
			v.Valid += uint64(lo / 64 * 8)
		}
	})
}

// eachFactView calls fix on every fact column view of sp.
func eachFactView(sp *starParams, fix func(v *colView)) {
	for i := range sp.NPreds {
		fix(&sp.Preds[i].Col)
	}
	for i := range sp.NDims {
		fix(&sp.Dims[i].Key)
	}
	for i := range sp.NGCols {
		fix(&sp.GCols[i].Col)
	}
	for i := range sp.NAggs {
		fix(&sp.Aggs[i].A)
		fix(&sp.Aggs[i].B)
	}
}

// packedView reports whether any fact view of sp is packed or narrow.
func packedView(sp *starParams) bool {
	packed := false
	eachFactView(sp, func(v *colView) { packed = packed || v.Frame != 0 })
	return packed
}

// starStreams returns n streams for chunked launches, created once. They
// are blocking streams: they wait for work queued before on the default
// stream (the group table's initialization) and it for them (the copy of
// the table back), so the chunked launch needs no other synchronization.
func (d *device) starStreams(n int) ([]cu.Stream, error) {
	for len(d.streams) < n {
		st, err := cu.MakeStream(cu.DefaultStream)
		if err != nil {
			return nil, fmt.Errorf("gpu: creating a stream: %v", err)
		}
		d.streams = append(d.streams, st)
	}
	return d.streams[:n], nil
}
