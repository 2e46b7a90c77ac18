//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Bitmap and BucketedBitmap joins (kernels/bitmap_join.cu, Kruliš &
// Yaghob): the build side's one integer key becomes one bit per value of
// [KeyMin, KeyMax] (set with atomicOr), probed by one bit test; inner and
// left joins read the build row from a direct array written beside the
// bitmap. Domains wider than one bitmap are bucketed by the key's top bits
// so that each bucket's bitmap fits a block's shared memory: both sides are
// histogrammed and scattered by bucket, and one block per bucket fills its
// bitmap and probes it. Kept rows are staged in shared memory and flushed
// with one atomic per flush. Where the data disagrees with the planner's
// bounds (stale statistics) or a payload join meets duplicate build keys,
// the join falls back to the hash join.

// bitmapParams mirrors BitmapParams in kernels/bitmap_join.cu.
type bitmapParams struct {
	NProbe, NBuild       int64
	Probe, Build         colView
	Min                  int64
	Span                 uint64
	Bits, Rows, Flags    uint64
	Mode, NullHit        int32
	Total                uint64
	OutProbe, OutBuild   uint64
	Shift, NBuckets      int32
	BKeys, BRows, BStart uint64
	PKeys, PRows, PStart uint64
}

// Kernel limits: one global bitmap spans at most 2^27 values (16 MiB), a
// shared-memory bucket at most 2^18 (32 KiB, which with the 8 KiB result
// stage stays under the 48 KiB a block gets without opting in).
const (
	gpuBitmapMaxBits  = 1 << 27
	gpuBucketMaxShift = 18
)

// bitmapJoin runs x as a bitmap join; ok is false when it does not apply to
// the data, and the caller runs the hash join.
func (r *queryRun) bitmapJoin(L, R *relation, x *planner.HashJoin) (*relation, bool, error) {
	if len(x.LeftKeys) != 1 || x.Residual != nil || x.KeyMax < x.KeyMin {
		return nil, false, nil
	}
	semiAnti := x.Kind == sql.JoinSemi || x.Kind == sql.JoinAnti
	if !semiAnti && x.Kind != sql.JoinInner && x.Kind != sql.JoinLeft {
		return nil, false, nil
	}
	if x.NullAware && x.Kind == sql.JoinAnti && R.n == 0 {
		return L, true, nil
	}
	swap := x.Kind == sql.JoinInner && x.BuildSide == planner.BuildLeft
	t := sql.OperandType(x.LeftKeys[0].Type(), x.RightKeys[0].Type())
	if t.ID == columnar.String || t.ID == columnar.Float64 {
		return nil, false, nil
	}
	lv, ld, err := r.joinKey(L, x.LeftKeys[0], t, nil, x)
	if err != nil {
		return nil, false, err
	}
	rv, _, err := r.joinKey(R, x.RightKeys[0], t, ld, x)
	if err != nil {
		return nil, false, err
	}
	p := bitmapParams{NProbe: L.n, NBuild: R.n, Probe: lv, Build: rv, Min: x.KeyMin,
		Span: uint64(x.KeyMax-x.KeyMin) + 1}
	if swap {
		p.NProbe, p.NBuild, p.Probe, p.Build = R.n, L.n, rv, lv
	}
	switch x.Kind {
	case sql.JoinAnti:
		p.Mode, p.NullHit = 1, b2i(x.NullAware)
	case sql.JoinLeft:
		p.Mode = 2
	}
	var pr pairs
	var ok bool
	if x.Strategy == planner.BucketedBitmap || p.Span > gpuBitmapMaxBits {
		if !semiAnti {
			return nil, false, nil
		}
		pr, ok, err = r.bucketedBitmapPairs(&p, x.BucketBits)
	} else {
		pr, ok, err = r.bitmapPairs(&p, !semiAnti)
	}
	if err != nil || !ok {
		return nil, ok, err
	}
	if pr.m < 0 { // NOT IN with a NULL in the subquery
		out, err := r.gatherRel(L, pr.left, 0)
		return out, true, err
	}
	if semiAnti {
		out, err := r.gatherRel(L, pr.left, pr.m)
		return out, true, err
	}
	if swap {
		pr.left, pr.right = pr.right, pr.left
	}
	out, err := r.joinRel(L, R, pr)
	return out, true, err
}

// bitmapFlags reads the build kernels' flags: ok is false when a key lay
// outside the domain, or (payload) a key repeated; nullKey when a build
// key was NULL.
func (r *queryRun) bitmapFlags(p *bitmapParams, payload bool) (ok, nullKey bool, err error) {
	var f [3]uint32
	if err := cu.MemcpyDtoH(unsafe.Pointer(&f[0]), cu.DevicePtr(p.Flags), 12); err != nil {
		return false, false, fmt.Errorf("gpu: bitmap join failed: %v", err)
	}
	return f[0] == 0 && !(payload && f[1] != 0), f[2] != 0, nil
}

// bitmapOutputs allocates the flags, the pair outputs (at most one per
// probe row) and the pair counter.
func (r *queryRun) bitmapOutputs(p *bitmapParams, payload bool) error {
	flags, err := r.s.alloc(16)
	if err != nil {
		return err
	}
	total, err := r.s.alloc(8)
	if err != nil {
		return err
	}
	if err := cu.MemsetD32(flags, 0, 4); err != nil {
		return err
	}
	if err := cu.MemsetD32(total, 0, 2); err != nil {
		return err
	}
	p.Flags, p.Total = uint64(flags), uint64(total)
	op, err := r.s.alloc(4 * max(p.NProbe, 2))
	if err != nil {
		return err
	}
	p.OutProbe = uint64(op)
	if payload {
		ob, err := r.s.alloc(4 * max(p.NProbe, 2))
		if err != nil {
			return err
		}
		p.OutBuild = uint64(ob)
	}
	return nil
}

// bitmapTotal reads the pair count the probe kernels left.
func (r *queryRun) bitmapTotal(p *bitmapParams) (pairs, error) {
	var m int64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&m), cu.DevicePtr(p.Total), 8); err != nil {
		return pairs{}, fmt.Errorf("gpu: bitmap join failed: %v", err)
	}
	return pairs{left: cu.DevicePtr(p.OutProbe), right: cu.DevicePtr(p.OutBuild), m: m}, nil
}

// bitmapPairs builds one global bitmap (and for payload joins the direct
// array) and probes it.
func (r *queryRun) bitmapPairs(p *bitmapParams, payload bool) (pairs, bool, error) {
	if err := r.bitmapOutputs(p, payload); err != nil {
		return pairs{}, false, err
	}
	words := int64(p.Span+31) / 32
	bits, err := r.s.alloc(4 * max(words, 2))
	if err != nil {
		return pairs{}, false, err
	}
	if err := cu.MemsetD32(bits, 0, words); err != nil {
		return pairs{}, false, err
	}
	p.Bits = uint64(bits)
	if payload {
		rows, err := r.s.alloc(4 * int64(p.Span))
		if err != nil {
			return pairs{}, false, err
		}
		p.Rows = uint64(rows)
	}
	if err := r.launchBitmap("bitmap_build", r.d.grid(p.NBuild), 0, p); err != nil {
		return pairs{}, false, err
	}
	ok, nullKey, err := r.bitmapFlags(p, payload)
	if err != nil || !ok {
		return pairs{}, false, err
	}
	if nullKey && p.Mode == 1 && p.NullHit != 0 {
		return pairs{left: cu.DevicePtr(p.OutProbe), m: -1}, true, nil
	}
	if err := r.launchBitmap("bitmap_probe", r.d.grid(p.NProbe), 0, p); err != nil {
		return pairs{}, false, err
	}
	pr, err := r.bitmapTotal(p)
	return pr, err == nil, err
}

// launchBitmap launches one of the bitmap kernels with p as its parameter.
func (r *queryRun) launchBitmap(name string, grid, shmem int, p *bitmapParams) error {
	f, err := r.d.fn(name)
	if err != nil {
		return err
	}
	return launch(f, grid, 256, shmem, unsafe.Pointer(p), unsafe.Sizeof(*p))
}
