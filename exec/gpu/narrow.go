//go:build cuda

package gpu

import "gpusql/storage/columnar"

// narrowKeep bounds the host bytes of narrowed column copies kept for
// later queries; past it the cache starts over.
var narrowKeep int64 = 8 << 30 // a variable: a test lowers it

// narrowCol is a column's values in a narrower width, in pinned host
// memory: what a streamed column sends over the link.
type narrowCol struct {
	host  uintptr // the column vector it was made from (staleness check)
	width int
	buf   []byte
}

// narrowed returns col's values in width bytes each (the plan's wire
// width, which holds every value): the column's own vector when it is
// that wide, else a copy narrowed once in parallel into pinned host memory
// and kept for later queries. Past narrowKeep the copies of other columns
// than inUse (those the running query streams already) are dropped; the
// running query's own may pass the bound. Only code inside the device's
// do calls it.
func (d *device) narrowed(col *columnar.Column, width int, inUse func(*columnar.Column) bool) ([]byte, error) {
	src := col.Data()
	if len(src) == 0 || len(src) == width*col.Len {
		return src, nil
	}
	if nc, ok := d.narrow[col]; ok && nc.host == hostPtr(col) && nc.width == width {
		return nc.buf, nil
	}
	need := int64(width * col.Len)
	if d.narrowBytes+need > narrowKeep {
		d.dropNarrowedExcept(inUse)
	}
	buf := pinnedAllocator{d}.Alloc(int(need))
	narrowValues(buf, col, width)
	if d.narrow == nil {
		d.narrow = map[*columnar.Column]*narrowCol{}
	}
	d.narrow[col] = &narrowCol{host: hostPtr(col), width: width, buf: buf}
	d.narrowBytes += need
	return buf, nil
}

// dropNarrowed frees every narrowed copy (between queries).
func (d *device) dropNarrowed() { d.dropNarrowedExcept(func(*columnar.Column) bool { return false }) }

// dropNarrowedExcept frees the narrowed copies of the columns keep does
// not name.
func (d *device) dropNarrowedExcept(keep func(*columnar.Column) bool) {
	for c, nc := range d.narrow {
		if keep(c) {
			continue
		}
		pinnedAllocator{d}.Free(nc.buf)
		delete(d.narrow, c)
		d.narrowBytes -= int64(len(nc.buf))
	}
}
