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
	perm, err := r.s.alloc(4 * max(n, 2))
	if err != nil {
		return 0, err
	}
	iota, err := r.d.fn("sort_iota")
	if err != nil {
		return 0, err
	}
	ip := struct {
		Perm uint64
		N    int64
	}{uint64(perm), n}
	if err := launch(iota, r.d.grid(n), 256, 0, unsafe.Pointer(&ip), unsafe.Sizeof(ip)); err != nil {
		return 0, err
	}
	masks, err := r.digitMasks(n, keys)
	if err != nil {
		return 0, err
	}
	tiles := (n + sortTile - 1) / sortTile
	bufs := make([]cu.DevicePtr, 6)
	for i, sz := range []int64{8 * n, 8 * n, 4 * n, 8 * 256 * tiles, 16, 8} {
		if bufs[i], err = r.s.alloc(max(sz, 16)); err != nil {
			return 0, err
		}
	}
	k1, k2, p2, counts, andOr, total := bufs[0], bufs[1], bufs[2], bufs[3], bufs[4], bufs[5]
	encode, err := r.d.fn("sort_encode")
	if err != nil {
		return 0, err
	}
	// pass sorts stably by one key's values (or NULL flags) on the digits
	// of diff, the bits on which the rows differ.
	pass := func(k sortKey, nullFlag bool, diff uint64) error {
		if diff == 0 {
			return nil
		}
		ep := encodeParams{Col: k.v, Perm: uint64(perm), N: n, Keys: uint64(k1), NullFlag: b2i(nullFlag), AndOr: uint64(andOr)}
		if err := launch(encode, r.d.grid(n), 256, 0, unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
			return err
		}
		for d := 0; d < 8; d++ {
			if (diff>>(8*d))&0xff == 0 {
				continue
			}
			if err := r.radixPass(k1, perm, k2, p2, n, tiles, counts, total, int32(8*d)); err != nil {
				return err
			}
			k1, k2 = k2, k1
			perm, p2 = p2, perm
		}
		return nil
	}
	for i := len(keys) - 1; i >= 0; i-- {
		m := masks[4*i : 4*i+4]
		if err := pass(keys[i], false, m[0]^m[1]); err != nil {
			return 0, err
		}
		// The NULL flag ranks just above the values: NULLs first.
		if err := pass(keys[i], true, m[2]^m[3]); err != nil {
			return 0, err
		}
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
