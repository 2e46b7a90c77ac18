//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
)

// Sort on the materializing executor (kernels/sort.cu): the keys are
// evaluated into device columns, then a permutation of the rows is sorted
// by an LSD radix sort, least significant key first, each key as one value
// pass and (when the column has NULLs) one NULL-flag pass, every pass
// stable over 8-bit digits of an order-preserving uint64 encoding. Digits
// on which every key agrees are skipped, so dictionary codes, dates and
// small integers cost one to three passes. The rows are then gathered by
// the permutation. NULLs come first ascending and last descending (MySQL);
// equal keys keep their input order.

// encodeParams mirrors EncodeParams in kernels/sort.cu.
type encodeParams struct {
	Col      colView
	Perm     uint64
	N        int64
	Keys     uint64
	Desc     int32
	NullFlag int32
	AndOr    uint64
}

// radixParams mirrors RadixParams in kernels/sort.cu.
type radixParams struct {
	KeysIn, ValsIn, KeysOut, ValsOut uint64
	N, Tiles                         int64
	Counts                           uint64
	Shift, Pad                       int32
}

const sortTile = 256 * 16 // SORT_TILE

// sortKey is one key column on the device.
type sortKey struct {
	v    colView
	desc bool
}

func (r *queryRun) sortRel(ctx context.Context, input planner.Node, keys []sql.SortKey, op planner.Node) (*relation, error) {
	in, err := r.rel(ctx, input)
	if err != nil {
		return nil, err
	}
	if in.n <= 1 {
		return in, nil
	}
	ks := make([]sortKey, len(keys))
	for i, k := range keys {
		if ref, ok := k.Expr.(*sql.ColRef); ok && ref.Index < len(in.cols) {
			if ks[i].v, err = r.devView(in.cols[ref.Index]); err != nil {
				return nil, err
			}
		} else {
			col, err := r.exprCol(in, k.Expr, k.Expr.Type(), op)
			if err != nil {
				return nil, err
			}
			if ks[i].v, err = r.devView(col); err != nil {
				return nil, err
			}
		}
		ks[i].desc = k.Desc
	}
	perm, err := r.sortPerm(in.n, ks, false)
	if err != nil {
		return nil, err
	}
	return r.gatherRel(in, perm, in.n)
}

// sortPerm returns the row ids 0..n-1 ordered by keys (the first most
// significant). With nullsLast every row with a NULL key goes after every
// row without, whatever the direction (the merge join cuts them off).
func (r *queryRun) sortPerm(n int64, keys []sortKey, nullsLast bool) (cu.DevicePtr, error) {
	perm, err := r.s.alloc(4 * max(n, 2))
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return perm, nil
	}
	f, err := r.d.fn("sort_iota")
	if err != nil {
		return 0, err
	}
	p := struct {
		Perm uint64
		N    int64
	}{uint64(perm), n}
	if err := launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return 0, err
	}
	if n == 1 {
		return perm, nil
	}
	tiles := (n + sortTile - 1) / sortTile
	bufs := make([]cu.DevicePtr, 5)
	for i, sz := range []int64{8 * n, 8 * n, 4 * n, 8 * 256 * tiles, 16} {
		if bufs[i], err = r.s.alloc(sz); err != nil {
			return 0, err
		}
	}
	k1, k2, p2, counts, andOr := bufs[0], bufs[1], bufs[2], bufs[3], bufs[4]
	total, err := r.s.alloc(8)
	if err != nil {
		return 0, err
	}
	pass := func(k sortKey, nullFlag bool) error {
		ep := encodeParams{Col: k.v, Perm: uint64(perm), N: n, Keys: uint64(k1), Desc: b2i(k.desc), NullFlag: b2i(nullFlag), AndOr: uint64(andOr)}
		init := [2]uint64{^uint64(0), 0}
		if err := cu.MemcpyHtoD(andOr, unsafe.Pointer(&init[0]), 16); err != nil {
			return err
		}
		f, err := r.d.fn("sort_encode")
		if err != nil {
			return err
		}
		if err := launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
			return err
		}
		var ao [2]uint64
		if err := cu.MemcpyDtoH(unsafe.Pointer(&ao[0]), andOr, 16); err != nil {
			return fmt.Errorf("gpu: sort failed: %v", err)
		}
		diff := ao[0] ^ ao[1]
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
		if err := pass(keys[i], false); err != nil {
			return 0, err
		}
		// Ordering: key i's NULL flag ranks just above its values.
		if !nullsLast && keys[i].v.Valid != 0 {
			if err := pass(keys[i], true); err != nil {
				return 0, err
			}
		}
	}
	if nullsLast {
		// Joining: every NULL flag ranks above every value, DESC so that
		// a row with any NULL key sorts after all rows without.
		for i := len(keys) - 1; i >= 0; i-- {
			if keys[i].v.Valid != 0 {
				if err := pass(sortKey{v: keys[i].v, desc: true}, true); err != nil {
					return 0, err
				}
			}
		}
	}
	return perm, nil
}

// radixPass is one stable counting-sort pass of (keys, vals) on the digit
// at shift, into (keysOut, valsOut).
func (r *queryRun) radixPass(keys, vals, keysOut, valsOut cu.DevicePtr, n, tiles int64, counts, total cu.DevicePtr, shift int32) error {
	rp := radixParams{KeysIn: uint64(keys), ValsIn: uint64(vals), KeysOut: uint64(keysOut), ValsOut: uint64(valsOut),
		N: n, Tiles: tiles, Counts: uint64(counts), Shift: shift}
	f, err := r.d.fn("radix_hist")
	if err != nil {
		return err
	}
	if err := launch(f, int(tiles), 256, 0, unsafe.Pointer(&rp), unsafe.Sizeof(rp)); err != nil {
		return err
	}
	if err := r.scanInPlace(counts, 256*tiles, total); err != nil {
		return err
	}
	if f, err = r.d.fn("radix_scatter"); err != nil {
		return err
	}
	return launch(f, int(tiles), 256, 0, unsafe.Pointer(&rp), unsafe.Sizeof(rp))
}

// scanInPlace replaces a[0..n) (int64) by its exclusive prefix sums and
// writes the sum to total.
func (r *queryRun) scanInPlace(a cu.DevicePtr, n int64, total cu.DevicePtr) error {
	f, err := r.d.fn("scan_exclusive_i64")
	if err != nil {
		return err
	}
	p := struct {
		A     uint64
		N     int64
		Total uint64
	}{uint64(a), n, uint64(total)}
	return launch(f, 1, 1024, 0, unsafe.Pointer(&p), unsafe.Sizeof(p))
}
