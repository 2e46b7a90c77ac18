//go:build cuda

package gpu

import (
	"context"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
)

// Sort on the materializing executor (kernels/sort.cu): the keys are
// evaluated into device columns, then a permutation of the rows is sorted
// by an LSD radix sort (radix_sort.go), least significant key first, each
// key as one value sort and (when the column has NULLs) one NULL-flag sort,
// every one stable over 8-bit digits of an order-preserving uint64
// encoding less its minimum, visiting only the digits the keys' range
// spans, so dictionary codes, dates and small integers cost one to three
// passes. The rows are then gathered by the permutation. NULLs come first ascending and last descending (MySQL);
// equal keys keep their input order.

// encodeParams mirrors EncodeParams in kernels/sort.cu.
type encodeParams struct {
	Col      colView
	Perm     uint64
	N        int64
	Keys     uint64
	Desc     int32
	NullFlag int32
	MinMax   uint64
}

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
	if n <= 1 {
		return r.iotaPerm(n)
	}
	rs, err := r.newRadixSorter(n)
	if err != nil {
		return 0, err
	}
	var perm cu.DevicePtr // the identity until a pass runs
	for i := len(keys) - 1; i >= 0; i-- {
		if perm, err = rs.byKey(perm, keys[i], false); err != nil {
			return 0, err
		}
		// Ordering: key i's NULL flag ranks just above its values.
		if !nullsLast && keys[i].v.Valid != 0 {
			if perm, err = rs.byKey(perm, keys[i], true); err != nil {
				return 0, err
			}
		}
	}
	if nullsLast {
		// Joining: every NULL flag ranks above every value, DESC so that
		// a row with any NULL key sorts after all rows without.
		for i := len(keys) - 1; i >= 0; i-- {
			if keys[i].v.Valid != 0 {
				if perm, err = rs.byKey(perm, sortKey{v: keys[i].v, desc: true}, true); err != nil {
					return 0, err
				}
			}
		}
	}
	if perm == 0 {
		return r.iotaPerm(n)
	}
	return perm, nil
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
	if err := r.launch(f, 1, 1024, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return err
	}
	noteKernel(8*n, 8*n+8, n, n)
	return nil
}
