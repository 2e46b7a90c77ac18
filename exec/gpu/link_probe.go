//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// MeasureLink times copies of a pinned host buffer of the given bytes to
// device 0 and returns the median rate in GB/s: the link's limit for
// streamed columns, measured in the same process as the queries it judges
// (the rate drifts with the host, the slot and what else uses the link).
func MeasureLink(bytes int64, runs int) (float64, error) {
	d, err := getDevice()
	if err != nil {
		return 0, err
	}
	var gbs float64
	err = d.do(func() error {
		host := pinnedAllocator{d}.Alloc(int(bytes))
		defer pinnedAllocator{d}.Free(host)
		dev, err := cu.MemAlloc(bytes)
		if err != nil {
			return fmt.Errorf("gpu: link probe of %d bytes: %v", bytes, err)
		}
		defer cu.MemFree(dev)
		var ms []float64
		for range max(runs, 3) {
			start := time.Now()
			if err := cu.MemcpyHtoD(dev, unsafe.Pointer(&host[0]), bytes); err != nil {
				return err
			}
			ms = append(ms, msSince(start))
		}
		gbs = float64(bytes) / median(ms) / 1e6
		return nil
	})
	return gbs, err
}

// MeasureDeviceCopy times device-to-device copies of the given bytes on
// device 0 and returns the median rate in GB/s of bytes moved (each byte
// read once and written once, so 2·bytes per copy): the fair limit for a
// kernel that streams as much out as in (a projection, a sort's pass),
// next to the HBM read rate that bounds a scan.
func MeasureDeviceCopy(bytes int64, runs int) (float64, error) {
	d, err := getDevice()
	if err != nil {
		return 0, err
	}
	var gbs float64
	err = d.do(func() error {
		src, err := cu.MemAlloc(bytes)
		if err != nil {
			return fmt.Errorf("gpu: copy probe of %d bytes: %v", bytes, err)
		}
		defer cu.MemFree(src)
		dst, err := cu.MemAlloc(bytes)
		if err != nil {
			return fmt.Errorf("gpu: copy probe of %d bytes: %v", bytes, err)
		}
		defer cu.MemFree(dst)
		var ms []float64
		for range max(runs, 3) {
			start := time.Now()
			if err := cu.MemcpyDtoD(dst, src, bytes); err != nil {
				return fmt.Errorf("gpu: copy probe: %v", err)
			}
			if err := d.sync(); err != nil {
				return err
			}
			ms = append(ms, msSince(start))
		}
		gbs = float64(2*bytes) / median(ms) / 1e6
		return nil
	})
	return gbs, err
}
