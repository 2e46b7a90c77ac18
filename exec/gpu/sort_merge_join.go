//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math/bits"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// SortMergeJoin on the materializing executor, after Diamos et al.'s
// multi-stage skeleton: both inputs' keys are evaluated as 8-byte vectors
// in their common type (string codes mapped into one dictionary, as the
// hash join does), each side's rows are radix-sorted on the keys with rows
// holding a NULL key last (sort.go), and cut off since NULL never matches;
// a side the plan marks sorted on the keys (LeftSorted, RightSorted) only
// has its NULL-key rows moved last, stably. The sorted keys are re-encoded
// in order and joined by merge path (merge_path.go): balanced co-rank
// partitions, shared-memory merges giving each left row its run of equal
// right rows, a device scan of the run lengths, and an expansion writing
// the (left row, right row) pairs. Residual and join kind (inner, left,
// semi, anti, NOT IN) are then applied to the pairs exactly as for the hash
// join. binarySearchPairs, the earlier join stage (one thread per left row,
// two binary searches), stays for bench join's comparison.

// mergeParams mirrors MergeParams in kernels/merge_join.cu.
type mergeParams struct {
	LK, RK       [maxJoinKeys]uint64
	NL, NR       int64
	NKeys, First int32
	LPerm, RPerm uint64
	Lo, Hi       uint64
	Counts       uint64
	OutL, OutR   uint64
}

// countValidParams mirrors CountValidParams in kernels/sort.cu.
type countValidParams struct {
	Cols  [maxJoinKeys]colView
	N     int64
	NKeys int32
	Pad   int32
	Out   uint64
}

// sortedSide is one join input sorted on its keys: the permutation (0:
// the identity, for a side that arrives sorted without NULL keys), the
// rows without NULL keys (a prefix of it) and their encoded keys in order.
type sortedSide struct {
	perm cu.DevicePtr
	n    int64
	keys [maxJoinKeys]uint64
}

func (r *queryRun) sortMergeJoin(ctx context.Context, x *planner.SortMergeJoin) (*relation, error) {
	L, err := r.rel(ctx, x.Left)
	if err != nil {
		return nil, err
	}
	R, err := r.rel(ctx, x.Right)
	if err != nil {
		return nil, err
	}
	nk := len(x.LeftKeys)
	if nk == 0 || nk > maxJoinKeys || nk != len(x.RightKeys) {
		return nil, unsupported(x, fmt.Sprintf("%d join keys", nk))
	}
	lks, rks := make([]sortKey, nk), make([]sortKey, nk)
	rightSorted := x.RightSorted
	for i := range x.LeftKeys {
		t := sql.OperandType(x.LeftKeys[i].Type(), x.RightKeys[i].Type())
		lv, ld, err := r.joinKey(L, x.LeftKeys[i], t, nil, x)
		if err != nil {
			return nil, err
		}
		rv, rd, err := r.joinKey(R, x.RightKeys[i], t, ld, x)
		if err != nil {
			return nil, err
		}
		lv.IsFloat = b2i(t.ID == columnar.Float64)
		rv.IsFloat = lv.IsFloat
		lks[i], rks[i] = sortKey{v: lv}, sortKey{v: rv}
		// Right string codes looked up in the left dictionary keep their
		// order only when the dictionaries are one.
		rightSorted = rightSorted && (t.ID != columnar.String || rd == ld)
	}
	ls, err := r.joinSide(L.n, lks, x.LeftSorted)
	if err != nil {
		return nil, err
	}
	rs, err := r.joinSide(R.n, rks, rightSorted)
	if err != nil {
		return nil, err
	}
	first := x.Residual == nil && (x.Kind == sql.JoinSemi || x.Kind == sql.JoinAnti)
	pr, err := r.mergePathPairs(ls, rs, nk, first)
	if err != nil {
		return nil, err
	}
	if x.NullAware && x.Kind == sql.JoinAnti {
		// notIn reads only the keys, the residual and the node's name.
		return r.notIn(L, R, pr, &planner.HashJoin{Kind: x.Kind, Left: x.Left, Right: x.Right,
			LeftKeys: x.LeftKeys, RightKeys: x.RightKeys, Residual: x.Residual, NullAware: true, Out: x.Out})
	}
	return r.finishJoin(L, R, pr, x.Kind, x.Residual, x)
}

// joinSide orders n rows on keys, NULL keys last: by a radix sort, or,
// when the rows arrive sorted on the keys, by moving the rows with a NULL
// key last (stably) without sorting again; then it encodes the sorted keys
// of the rows without NULLs.
func (r *queryRun) joinSide(n int64, keys []sortKey, sorted bool) (*sortedSide, error) {
	if !sorted && len(keys) == 1 && keys[0].v.Valid == 0 && n > 0 {
		return r.sortedOneKey(n, keys[0])
	}
	s := &sortedSide{}
	var err error
	if sorted {
		s.perm, err = r.nullsLastPerm(n, keys)
	} else {
		s.perm, err = r.sortPerm(n, keys, true)
	}
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return s, nil
	}
	// Rows with every key non-NULL.
	cp := countValidParams{N: n, NKeys: int32(len(keys))}
	for i, k := range keys {
		cp.Cols[i] = k.v
	}
	out, err := r.s.alloc(8)
	if err != nil {
		return nil, err
	}
	if err := cu.MemsetD32(out, 0, 2); err != nil {
		return nil, err
	}
	cp.Out = uint64(out)
	f, err := r.d.fn("sort_count_valid")
	if err != nil {
		return nil, err
	}
	if err := launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&cp), unsafe.Sizeof(cp)); err != nil {
		return nil, err
	}
	var keyBytes int64
	for _, k := range keys {
		keyBytes += k.v.readBytes(n)
	}
	noteKernel(keyBytes, 8, n, 1)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&s.n), out, 8); err != nil {
		return nil, fmt.Errorf("gpu: merge join failed: %v", err)
	}
	if s.n == 0 {
		return s, nil
	}
	minMax, err := r.s.alloc(16)
	if err != nil {
		return nil, err
	}
	if f, err = r.d.fn("sort_encode"); err != nil {
		return nil, err
	}
	for i, k := range keys {
		buf, err := r.s.alloc(8 * s.n)
		if err != nil {
			return nil, err
		}
		ep := encodeParams{Col: k.v, Perm: uint64(s.perm), N: s.n, Keys: uint64(buf), MinMax: uint64(minMax)}
		if err := launch(f, r.d.grid(s.n), 256, 0, unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
			return nil, err
		}
		noteKernel(4*s.n+k.v.readBytes(s.n), 8*s.n, s.n, s.n)
		s.keys[i] = uint64(buf)
	}
	return s, nil
}

// sortedOneKey is joinSide for one key without NULLs: the radix sort's
// last pass writes the sorted encoded keys back, so they need not be
// gathered through the permutation again (a random 8-byte read per row).
func (r *queryRun) sortedOneKey(n int64, k sortKey) (*sortedSide, error) {
	rs, err := r.newRadixSorter(n)
	if err != nil {
		return nil, err
	}
	if err := rs.encode(0, k, false); err != nil {
		return nil, err
	}
	plan, err := rs.rangePlan()
	if err != nil {
		return nil, err
	}
	perm, keys, err := rs.sort(0, plan, true)
	if err != nil {
		return nil, err
	}
	if perm == 0 {
		if perm, err = r.iotaPerm(n); err != nil {
			return nil, err
		}
	}
	s := &sortedSide{perm: perm, n: n}
	s.keys[0] = uint64(keys)
	return s, nil
}

// binarySearchPairs writes every (left row, right row) pair of equal keys
// (the first right row only, when first is set) by one thread per left row
// (kernels/merge_join.cu): bench join's baseline for merge path.
func (r *queryRun) binarySearchPairs(ls, rs *sortedSide, nk int, first bool) (pairs, error) {
	empty := func() (pairs, error) {
		p, err := r.s.alloc(8)
		return pairs{left: p, right: p}, err
	}
	if ls.n == 0 || rs.n == 0 {
		return empty()
	}
	mp := mergeParams{LK: ls.keys, RK: rs.keys, NL: ls.n, NR: rs.n, NKeys: int32(nk), First: b2i(first),
		LPerm: uint64(ls.perm), RPerm: uint64(rs.perm)}
	bufs := make([]cu.DevicePtr, 4)
	for i, sz := range []int64{4 * ls.n, 4 * ls.n, 8 * ls.n, 8} {
		var err error
		if bufs[i], err = r.s.alloc(sz); err != nil {
			return pairs{}, err
		}
	}
	mp.Lo, mp.Hi, mp.Counts = uint64(bufs[0]), uint64(bufs[1]), uint64(bufs[2])
	f, err := r.d.fn("merge_count")
	if err != nil {
		return pairs{}, err
	}
	if err := launch(f, r.d.grid(ls.n), 256, 0, unsafe.Pointer(&mp), unsafe.Sizeof(mp)); err != nil {
		return pairs{}, err
	}
	// Each left row binary-searches the right keys: its own key and about
	// log2(NR) probes, counted as one 8-byte key per probe.
	probes := int64(bits.Len64(uint64(rs.n)))
	noteKernel(8*int64(nk)*ls.n*(1+probes)+4*ls.n, 16*ls.n, ls.n, ls.n)
	if err := r.scanInPlace(bufs[2], ls.n, bufs[3]); err != nil {
		return pairs{}, err
	}
	var m int64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&m), bufs[3], 8); err != nil {
		return pairs{}, fmt.Errorf("gpu: merge join failed: %v", err)
	}
	if m >= 1<<31 {
		return pairs{}, fmt.Errorf("gpu: a join of %d rows is not supported on the GPU yet", m)
	}
	if m == 0 {
		return empty()
	}
	outL, err := r.s.alloc(4 * max(m, 2))
	if err != nil {
		return pairs{}, err
	}
	outR, err := r.s.alloc(4 * max(m, 2))
	if err != nil {
		return pairs{}, err
	}
	mp.OutL, mp.OutR = uint64(outL), uint64(outR)
	if f, err = r.d.fn("merge_write"); err != nil {
		return pairs{}, err
	}
	if err := launch(f, r.d.grid(ls.n), 256, 0, unsafe.Pointer(&mp), unsafe.Sizeof(mp)); err != nil {
		return pairs{}, err
	}
	noteKernel(16*ls.n+8*ls.n, 8*m, ls.n, m)
	return pairs{left: outL, right: outR, m: m}, nil
}

// checkSortMergeJoin reports whether the materializing executor runs x.
func checkSortMergeJoin(x *planner.SortMergeJoin) error {
	if err := checkRel(x.Left); err != nil {
		return err
	}
	if err := checkRel(x.Right); err != nil {
		return err
	}
	switch x.Kind {
	case sql.JoinInner, sql.JoinLeft, sql.JoinSemi, sql.JoinAnti:
	default:
		return unsupported(x, fmt.Sprintf("join kind %v", x.Kind))
	}
	if len(x.LeftKeys) == 0 || len(x.LeftKeys) > maxJoinKeys {
		return unsupported(x, fmt.Sprintf("%d join keys", len(x.LeftKeys)))
	}
	if x.NullAware && len(x.LeftKeys) != 1 {
		return unsupported(x, "NOT IN over several keys")
	}
	if err := checkExprs(x, x.Left, x.LeftKeys...); err != nil {
		return err
	}
	if err := checkExprs(x, x.Right, x.RightKeys...); err != nil {
		return err
	}
	if x.Residual != nil {
		return checkExprs(x, joinedSchemaNode{x.Left, x.Right}, x.Residual)
	}
	return nil
}

// nullsLastPerm returns the row ids 0..n-1 of an input already sorted on
// keys, with the rows holding a NULL key moved last and the others in
// their order: per nullable key one stable radix pass on its NULL flag,
// which costs far less than sorting the values again. 0 stands for the
// identity (no NULL key: nothing moves), never written.
func (r *queryRun) nullsLastPerm(n int64, keys []sortKey) (cu.DevicePtr, error) {
	if n <= 1 {
		return 0, nil
	}
	var perm cu.DevicePtr // the identity until a pass runs
	var rs *radixSorter
	var err error
	for i := len(keys) - 1; i >= 0; i-- {
		if keys[i].v.Valid == 0 {
			continue
		}
		if rs == nil {
			if rs, err = r.newRadixSorter(n); err != nil {
				return 0, err
			}
		}
		// DESC NULL flag: 0 for a value, 1 for a NULL; no pass when the
		// flags agree (no NULL, or only NULLs): the order stands.
		if perm, err = rs.byKey(perm, sortKey{v: keys[i].v, desc: true}, true); err != nil {
			return 0, err
		}
	}
	return perm, nil
}
