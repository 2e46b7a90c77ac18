//go:build cuda

package gpu

import (
	"unsafe"
	"weak"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// A star plan that reads a remapped fact column (a dimension payload or
// the group table laid out by a remap: star_remap.go) needs the remap's
// slot → code map on the device. The map never changes for the remap's
// life, so each device keeps its upload, keyed by the remap (a weak
// pointer: a dropped remap's entry matches nothing and ages out), instead
// of a synchronous host-to-device copy in every warm query. The entries
// (a few KiB each) are bounded by maxRemapUploads, oldest dropped first.

const maxRemapUploads = 64

type remapUpload struct {
	key weak.Pointer[columnar.ColumnRemap]
	ptr cu.DevicePtr
}

// remapSlotValues returns the device copy of rm's slot values.
func (r *queryRun) remapSlotValues(rm *columnar.ColumnRemap) (cu.DevicePtr, error) {
	d := r.d
	key := weak.Make(rm)
	for _, u := range d.remapUploads {
		if u.key == key {
			return u.ptr, nil
		}
	}
	b := bytesOf(rm.SlotValue)
	ptr, err := d.pool.get(int64(max(len(b), 8)))
	if err != nil {
		return 0, err
	}
	if len(b) > 0 {
		if err := cu.MemcpyHtoD(ptr, unsafe.Pointer(unsafe.SliceData(b)), int64(len(b))); err != nil {
			d.pool.put(ptr)
			return 0, err
		}
	}
	if len(d.remapUploads) >= maxRemapUploads {
		d.pool.put(d.remapUploads[0].ptr)
		d.remapUploads = d.remapUploads[1:]
	}
	d.remapUploads = append(d.remapUploads, remapUpload{key, ptr})
	return ptr, nil
}

// dropRemapUploads frees the device's remap uploads (a cold start).
func (d *device) dropRemapUploads() {
	for _, u := range d.remapUploads {
		d.pool.put(u.ptr)
	}
	d.remapUploads = nil
}
