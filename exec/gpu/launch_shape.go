//go:build cuda

package gpu

import (
	"sync/atomic"

	"gorgonia.org/cu"
)

// timeFactKernel makes every star query time its fact kernel with the
// device's two events (device.last, which the Go benchmarks report);
// off, a warm query saves the two event records and the elapsed-time
// call.
var timeFactKernel atomic.Bool

// A warm query launches the same fact kernel with the same block and
// shared memory as the last time: the occupancy it gets (blocks per SM,
// which sizes the persistent grid) and the kernel's opt-in to more than
// 48 KiB of dynamic shared memory are asked of the driver once per
// device, not once per query.

type launchShapeKey struct {
	fn           cu.Function
	block, shmem int
}

type launchShapeInfo struct{ blocksPerSM int }

// maxLaunchShapes bounds the shapes remembered (shared memory varies with
// the surviving groups, so ad-hoc queries make new ones).
const maxLaunchShapes = 4096

// launchShape opts kern into shmem bytes of dynamic shared memory when
// past the default 48 KiB, and returns how many blocks of block threads
// with that shared memory fit on an SM (2 when the driver does not say).
func (d *device) launchShape(kern cu.Function, block, shmem int) (int, error) {
	k := launchShapeKey{kern, block, shmem}
	if s, ok := d.shapes[k]; ok {
		return s.blocksPerSM, nil
	}
	// The opt-in only grows: a kernel opted into more still launches
	// with less, and a shape remembered with more must still launch.
	if shmem > 48<<10 && shmem > d.optIn[kern] {
		if err := setMaxDynamicShared(kern, shmem); err != nil {
			return 0, err
		}
		if d.optIn == nil {
			d.optIn = map[cu.Function]int{}
		}
		d.optIn[kern] = shmem
	}
	blocksPerSM := 2
	if occ, err := kern.MaxActiveBlocksPerMultiProcessor(block, int64(shmem)); err == nil && occ > 0 {
		blocksPerSM = occ
	}
	if d.shapes == nil || len(d.shapes) >= maxLaunchShapes {
		d.shapes = map[launchShapeKey]launchShapeInfo{}
	}
	d.shapes[k] = launchShapeInfo{blocksPerSM}
	return blocksPerSM, nil
}
