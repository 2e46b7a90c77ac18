//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// rowsPerm is sortPerm (sort.go) for the set operations' sort by every
// column, NULLs first, with one host round trip instead of one per key:
// setop_digit_masks finds, for every column at once, the digits on which
// its encoded values (and its NULL flags) differ, and only those radix
// passes run. The encode and radix kernels are the sort's own.
func (r *queryRun) rowsPerm(n int64, keys []sortKey) (cu.DevicePtr, error) {
	if len(keys) > setopMaxCols {
		return 0, fmt.Errorf("gpu: sort by %d columns (at most %d)", len(keys), setopMaxCols)
	}
	if n <= 1 {
		return r.iotaPerm(n)
	}
	masks, err := r.digitMasks(n, keys)
	if err != nil {
		return 0, err
	}
	rs, err := r.newRadixSorter(n)
	if err != nil {
		return 0, err
	}
	var perm cu.DevicePtr // the identity until a pass runs
	// pass sorts stably by one key's values (or NULL flags) on the digits
	// of the bits on which the rows differ.
	pass := func(k sortKey, nullFlag bool, and, or uint64) error {
		if and == or {
			return nil
		}
		if err := rs.encode(perm, k, nullFlag); err != nil {
			return err
		}
		perm, _, err = rs.sort(perm, planFromMasks(and, or), false)
		return err
	}
	for i := len(keys) - 1; i >= 0; i-- {
		m := masks[4*i : 4*i+4]
		if err := pass(keys[i], false, m[0], m[1]); err != nil {
			return 0, err
		}
		// The NULL flag ranks just above the values: NULLs first.
		if err := pass(keys[i], true, m[2], m[3]); err != nil {
			return 0, err
		}
	}
	if perm == 0 {
		return r.iotaPerm(n)
	}
	return perm, nil
}

// setopMaskParams mirrors MaskParams in kernels/set_op_sort.cu.
type setopMaskParams struct {
	Cols  [setopMaxCols]colView
	NCols int32
	Pad   int32
	N     int64
	Masks uint64
}

// digitMasks runs setop_digit_masks over keys and copies the masks back:
// per key its values' AND and OR, then its validity flags' AND and OR.
func (r *queryRun) digitMasks(n int64, keys []sortKey) ([]uint64, error) {
	host := make([]uint64, 4*len(keys))
	for i := range keys {
		host[4*i], host[4*i+2] = ^uint64(0), ^uint64(0)
	}
	dev, err := r.upload(bytesOf(host))
	if err != nil {
		return nil, err
	}
	mp := setopMaskParams{NCols: int32(len(keys)), N: n, Masks: uint64(dev)}
	for i, k := range keys {
		mp.Cols[i] = k.v
	}
	f, err := r.d.fn("setop_digit_masks")
	if err != nil {
		return nil, err
	}
	if err := launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&mp), unsafe.Sizeof(mp)); err != nil {
		return nil, err
	}
	noteKernel(viewBytes(mp.Cols[:len(keys)], n), 0, n, 0)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), dev, int64(8*len(host))); err != nil {
		return nil, fmt.Errorf("gpu: set operation sort failed: %v", err)
	}
	return host, nil
}
