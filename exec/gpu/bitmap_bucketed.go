//go:build cuda

package gpu

import (
	"unsafe"

	"gorgonia.org/cu"
)

// bucketSideParams is the parameter buffer of bucket_hist and
// bucket_scatter: BitmapParams, the side (0 build, 1 probe) and the
// scatter's cursors. The buffer must be exactly the kernel's parameters:
// a longer one fails the launch (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
type bucketSideParams struct {
	P      bitmapParams
	Side   int32
	_      int32
	Cursor uint64
}

// maxGPUBuckets bounds the bucket count (and the host's offset scan).
const maxGPUBuckets = 1 << 20

// bucketedBitmapPairs is the semi/anti join over a domain wider than one
// bitmap: histogram both sides by bucket, scan the offsets, scatter each
// row's low key bits and row number into its bucket, then one block per
// bucket fills that bucket's bitmap in shared memory and probes it.
func (r *queryRun) bucketedBitmapPairs(p *bitmapParams, bucketBits int) (pairs, bool, error) {
	shift := bucketBits
	if shift <= 0 || shift > gpuBucketMaxShift {
		shift = gpuBucketMaxShift
	}
	shift = max(shift, 6)
	nb := int64((p.Span-1)>>shift) + 1
	if nb > maxGPUBuckets {
		return pairs{}, false, nil
	}
	p.Shift, p.NBuckets = int32(shift), int32(nb)
	if err := r.bitmapOutputs(p, false); err != nil {
		return pairs{}, false, err
	}
	starts := [2]cu.DevicePtr{}
	for i := range starts {
		s, err := r.s.alloc(8 * (nb + 3))
		if err != nil {
			return pairs{}, false, err
		}
		if err := cu.MemsetD32(s, 0, 2*(nb+3)); err != nil {
			return pairs{}, false, err
		}
		starts[i] = s
	}
	p.BStart, p.PStart = uint64(starts[0]), uint64(starts[1])
	for side := int32(0); side < 2; side++ {
		if err := r.launchBucketSide("bucket_hist", p, side, 0); err != nil {
			return pairs{}, false, err
		}
	}
	ok, nullKey, err := r.bitmapFlags(p, false)
	if err != nil || !ok {
		return pairs{}, false, err
	}
	if nullKey && p.Mode == 1 && p.NullHit != 0 {
		return pairs{left: cu.DevicePtr(p.OutProbe), m: -1}, true, nil
	}
	var err2 error
	if p.BKeys, p.BRows, err2 = r.bucketArrays(p.NBuild); err2 != nil {
		return pairs{}, false, err2
	}
	if p.PKeys, p.PRows, err2 = r.bucketArrays(p.NProbe); err2 != nil {
		return pairs{}, false, err2
	}
	for side := int32(0); side < 2; side++ {
		cursor, err := r.scanBucketOffsets(starts[side], nb)
		if err != nil {
			return pairs{}, false, err
		}
		if err := r.launchBucketSide("bucket_scatter", p, side, cursor); err != nil {
			return pairs{}, false, err
		}
	}
	grid := int(min(nb+2, int64(r.d.sms*8)))
	if err := r.launchBitmap("bitmap_bucket_join", grid, 1<<(shift-3), p); err != nil {
		return pairs{}, false, err
	}
	pr, err := r.bitmapTotal(p)
	return pr, err == nil, err
}

// bucketArrays allocates the scattered low key bits and row numbers of n
// rows.
func (r *queryRun) bucketArrays(n int64) (uint64, uint64, error) {
	k, err := r.s.alloc(4 * max(n, 2))
	if err != nil {
		return 0, 0, err
	}
	rows, err := r.s.alloc(4 * max(n, 2))
	return uint64(k), uint64(rows), err
}

// scanBucketOffsets turns the histogram in start[0..nb+2) into offsets
// (start[k] = rows in buckets before k, start[nb+2] = all) on the device
// (sort.cu's one-block scan: nb+2 words) and returns a copy to use as the
// scatter's cursors.
func (r *queryRun) scanBucketOffsets(start cu.DevicePtr, nb int64) (cu.DevicePtr, error) {
	if err := r.scanInPlace(start, nb+2, start+cu.DevicePtr(8*(nb+2))); err != nil {
		return 0, err
	}
	cursor, err := r.s.alloc(8 * (nb + 3))
	if err != nil {
		return 0, err
	}
	return cursor, cu.MemcpyDtoD(cursor, start, 8*(nb+3))
}

func (r *queryRun) launchBucketSide(name string, p *bitmapParams, side int32, cursor cu.DevicePtr) error {
	f, err := r.d.fn(name)
	if err != nil {
		return err
	}
	n := p.NBuild
	if side == 1 {
		n = p.NProbe
	}
	bp := bucketSideParams{P: *p, Side: side, Cursor: uint64(cursor)}
	return launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&bp), unsafe.Sizeof(bp))
}
