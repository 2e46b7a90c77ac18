//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// HashJoin and NestedLoopJoin on the materializing executor
// (kernels/hash_join.cu): both produce (left row, right row) pairs on the
// device — from a hash table over the build side's normalized keys, or
// every pair of a cross product — then a residual condition filters the
// pairs through the expression VM, and the join kind decides the output:
// inner joins gather both sides at the pairs; semi and anti joins mark the
// left rows that kept a pair and compact the marked (or unmarked) ones;
// left outer joins append the unmarked left rows paired with -1, which
// gathers as NULL. Hash join pairs come out in the order blocks flush their
// result caches, not in probe order: a join's row order is unspecified
// without ORDER BY, and nothing above relies on it.

const maxJoinKeys = 4 // MAX_JKEYS

// joinParams mirrors JoinParams in kernels/hash_join.cu.
type joinParams struct {
	NProbe, NBuild int64
	NKeys, Pad     int32
	Probe, Build   [maxJoinKeys]colView
	Slots          uint64
	Mask           int64
	Total          uint64 // *uint64: pairs found
	Cap            int64  // pairs OutProbe/OutBuild hold
	OutProbe       uint64
	OutBuild       uint64
}

// pairs are matching row numbers of a join's two inputs.
type pairs struct {
	left, right cu.DevicePtr
	m           int64
}

func (d *device) grid(n int64) int { return max(1, min(grid1D(n, 256), d.sms*8)) }

// joinKey evaluates key e over rel as an 8-byte vector in type t; string
// codes are mapped into dictionary into when it is set and differs.
func (r *queryRun) joinKey(rel *relation, e sql.Expr, t columnar.Type, into *columnar.Dictionary, op planner.Node) (colView, *columnar.Dictionary, error) {
	if t.ID != columnar.String && !sameType(e.Type(), t) {
		e = &sql.Cast{E: e, T: t}
	}
	prog, err := r.compile(e, relColOf(rel))
	if err != nil {
		return colView{}, nil, unsupported(op, err.Error())
	}
	if t.ID == columnar.String {
		if prog.dict == nil {
			return colView{}, nil, unsupported(op, "string join key without a dictionary")
		}
		if into != nil && into != prog.dict {
			// Equal strings get equal codes: the build side's codes are
			// looked up in the probe side's dictionary; absent strings get
			// negative codes no probe code equals.
			vals := make([]int64, len(prog.dict.Values)+1)
			ok := make([]byte, len(vals))
			for i, s := range prog.dict.Values {
				ok[i] = 1
				if c, found := into.Lookup(s); found {
					vals[i] = int64(c)
				} else {
					vals[i] = -1 - int64(i)
				}
			}
			if prog.nreg >= vmRegs {
				return colView{}, nil, unsupported(op, "join key expression too long")
			}
			b := append(append([]byte(nil), bytesOf(vals)...), ok...)
			prog.tables = append(prog.tables, b)
			prog.ins = append(prog.ins, vmIns{Op: vmLookup, Dst: prog.nreg, A: prog.out,
				Imm: int64(len(prog.tables) - 1), Imm2: int64(len(vals) - 1)})
			prog.out = prog.nreg
			prog.nreg++
		}
	}
	kind := vmOutI64
	if t.ID == columnar.Float64 {
		kind = vmOutF64
	}
	data, valid, err := r.evalVM(prog, rel.n, 0, kind)
	if err != nil {
		return colView{}, nil, err
	}
	return colView{Data: uint64(data), Valid: uint64(valid), Width: 8}, prog.dict, nil
}

func (r *queryRun) hashJoin(ctx context.Context, x *planner.HashJoin) (*relation, error) {
	L, err := r.rel(ctx, x.Left)
	if err != nil {
		return nil, err
	}
	R, err := r.rel(ctx, x.Right)
	if err != nil {
		return nil, err
	}
	if x.Strategy == planner.Bitmap || x.Strategy == planner.BucketedBitmap {
		if out, ok, err := r.bitmapJoin(L, R, x); ok || err != nil {
			return out, err
		}
	}
	jp, swap, err := r.joinKeys(L, R, x)
	if err != nil {
		return nil, err
	}
	var pr pairs
	if passes := r.joinPasses[x]; passes != nil {
		pr, err = r.partitionedPairs(&jp, passes, joinCapacity(x.EstRows, jp.NProbe))
	} else {
		pr, err = r.equiPairs(&r.s, &jp, joinCapacity(x.EstRows, jp.NProbe))
	}
	if err != nil {
		return nil, err
	}
	if swap {
		pr.left, pr.right = pr.right, pr.left
	}
	if x.NullAware && x.Kind == sql.JoinAnti {
		return r.notIn(L, R, pr, x)
	}
	return r.finishJoin(L, R, pr, x.Kind, x.Residual, x)
}

// joinKeys evaluates x's keys over its inputs into join parameters that
// probe the left input and build on the right unless the planner chose
// otherwise for an inner join (swap: then pairs come out (right, left)).
func (r *queryRun) joinKeys(L, R *relation, x *planner.HashJoin) (jp joinParams, swap bool, err error) {
	if len(x.LeftKeys) == 0 || len(x.LeftKeys) > maxJoinKeys || len(x.LeftKeys) != len(x.RightKeys) {
		return jp, false, unsupported(x, fmt.Sprintf("%d join keys", len(x.LeftKeys)))
	}
	swap = x.Kind == sql.JoinInner && x.BuildSide == planner.BuildLeft
	jp.NKeys = int32(len(x.LeftKeys))
	for i := range x.LeftKeys {
		t := sql.OperandType(x.LeftKeys[i].Type(), x.RightKeys[i].Type())
		lv, ld, err := r.joinKey(L, x.LeftKeys[i], t, nil, x)
		if err != nil {
			return jp, false, err
		}
		rv, _, err := r.joinKey(R, x.RightKeys[i], t, ld, x)
		if err != nil {
			return jp, false, err
		}
		jp.Probe[i], jp.Build[i] = lv, rv
		if swap {
			jp.Probe[i], jp.Build[i] = rv, lv
		}
	}
	jp.NProbe, jp.NBuild = L.n, R.n
	if swap {
		jp.NProbe, jp.NBuild = R.n, L.n
	}
	return jp, swap, nil
}

// joinCapacity is the first guess at a join's pair count: the planner's
// estimate with some slack, at least one pair per probe row (the common
// foreign-key join), and at most 1<<26 pairs so a wild estimate does not
// take the device memory a rerun of the right size needs.
func joinCapacity(est float64, nProbe int64) int64 {
	if joinCapacityOverride > 0 {
		return joinCapacityOverride
	}
	if !(est > 0) {
		est = 0
	}
	c := int64(min(est*1.25, 1<<26))
	return max(c, min(nProbe, 1<<26), 1024)
}

// joinCapacityOverride, when positive, replaces the first guess (tests force
// the rerun path with it); joinReruns counts the reruns. Only the device
// goroutine touches them.
var (
	joinCapacityOverride int64
	joinReruns           int
)

// equiPairs builds the table on the build keys and writes every matching
// (probe, build) pair in one probe pass (join_probe) into an output of
// capacity pairs; when more pairs exist the pass counted them all, so one
// rerun into an output of exactly that size finishes. Its device memory
// comes from s (a pass of a partitioned join frees its own after the pass).
func (r *queryRun) equiPairs(s *scratch, jp *joinParams, capacity int64) (pairs, error) {
	if jp.NProbe == 0 || jp.NBuild == 0 {
		p, err := s.alloc(8)
		return pairs{left: p, right: p}, err
	}
	size := int64(16)
	for size < 2*jp.NBuild {
		size *= 2
	}
	slots, err := s.alloc(4 * size)
	if err != nil {
		return pairs{}, err
	}
	if err := cu.MemsetD32(slots, 0xffffffff, size); err != nil {
		return pairs{}, err
	}
	jp.Slots, jp.Mask = uint64(slots), size-1
	build, err := r.d.fn("join_build")
	if err != nil {
		return pairs{}, err
	}
	if err := launch(build, r.d.grid(jp.NBuild), 256, 0, unsafe.Pointer(jp), unsafe.Sizeof(*jp)); err != nil {
		return pairs{}, err
	}
	probe, err := r.d.fn("join_probe")
	if err != nil {
		return pairs{}, err
	}
	total, err := s.alloc(8)
	if err != nil {
		return pairs{}, err
	}
	jp.Total = uint64(total)
	for {
		po, err := s.alloc(4 * capacity)
		if err != nil {
			return pairs{}, err
		}
		pb, err := s.alloc(4 * capacity)
		if err != nil {
			return pairs{}, err
		}
		jp.Cap, jp.OutProbe, jp.OutBuild = capacity, uint64(po), uint64(pb)
		if err := cu.MemsetD32(total, 0, 2); err != nil {
			return pairs{}, err
		}
		if err := launch(probe, r.d.grid(jp.NProbe), 256, 0, unsafe.Pointer(jp), unsafe.Sizeof(*jp)); err != nil {
			return pairs{}, err
		}
		var m int64
		if err := cu.MemcpyDtoH(unsafe.Pointer(&m), total, 8); err != nil {
			return pairs{}, fmt.Errorf("gpu: join failed: %v", err)
		}
		if m >= 1<<31 {
			return pairs{}, fmt.Errorf("gpu: a join of %d rows is not supported on the GPU yet", m)
		}
		if m <= capacity {
			return pairs{left: po, right: pb, m: m}, nil
		}
		joinReruns++
		capacity = m
	}
}

func (r *queryRun) nestedLoopJoin(ctx context.Context, x *planner.NestedLoopJoin) (*relation, error) {
	L, err := r.rel(ctx, x.Left)
	if err != nil {
		return nil, err
	}
	R, err := r.rel(ctx, x.Right)
	if err != nil {
		return nil, err
	}
	m := L.n * R.n
	if m >= 1<<28 {
		return nil, unsupported(x, fmt.Sprintf("a cross product of %d pairs", m))
	}
	pl, err := r.s.alloc(4 * max(m, 2))
	if err != nil {
		return nil, err
	}
	pr, err := r.s.alloc(4 * max(m, 2))
	if err != nil {
		return nil, err
	}
	if m > 0 {
		f, err := r.d.fn("join_cross")
		if err != nil {
			return nil, err
		}
		p := struct {
			NL, NR     int64
			OutL, OutR uint64
		}{L.n, R.n, uint64(pl), uint64(pr)}
		if err := launch(f, r.d.grid(m), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
			return nil, err
		}
	}
	kind := x.Kind
	if kind == sql.JoinCross {
		kind = sql.JoinInner
	}
	return r.finishJoin(L, R, pairs{left: pl, right: pr, m: m}, kind, x.Cond, x)
}

// joinRel is left's columns at pr.left followed by right's at pr.right.
func (r *queryRun) joinRel(L, R *relation, pr pairs) (*relation, error) {
	a, err := r.gatherRel(L, pr.left, pr.m)
	if err != nil {
		return nil, err
	}
	b, err := r.gatherRel(R, pr.right, pr.m)
	if err != nil {
		return nil, err
	}
	return &relation{n: pr.m, cols: append(a.cols, b.cols...)}, nil
}

// gatherInts compacts a row-number vector at rows.
func (r *queryRun) gatherInts(v cu.DevicePtr, rows cu.DevicePtr, m int64) (cu.DevicePtr, error) {
	ph := r.newDevCol(columnar.TInt32, nil, m, colView{Data: uint64(v), Width: 4})
	g, err := r.gatherCol(ph, rows, m)
	if err != nil {
		return 0, err
	}
	return cu.DevicePtr(r.views[g].Data), nil
}

// finishJoin applies the residual to the pairs and shapes the output by
// join kind.
func (r *queryRun) finishJoin(L, R *relation, pr pairs, kind sql.JoinKind, residual sql.Expr, op planner.Node) (*relation, error) {
	if residual != nil && pr.m > 0 {
		joined, err := r.joinRel(L, R, pr)
		if err != nil {
			return nil, err
		}
		prog, err := r.compile(residual, relColOf(joined))
		if err != nil {
			return nil, unsupported(op, err.Error())
		}
		flags, _, err := r.evalVM(prog, pr.m, 0, vmOutFlag)
		if err != nil {
			return nil, err
		}
		rows, m, err := r.flagsRows(flags, pr.m)
		if err != nil {
			return nil, err
		}
		if kind == sql.JoinInner {
			return r.gatherRel(joined, rows, m)
		}
		if pr.left, err = r.gatherInts(pr.left, rows, m); err != nil {
			return nil, err
		}
		if pr.right, err = r.gatherInts(pr.right, rows, m); err != nil {
			return nil, err
		}
		pr.m = m
	}
	switch kind {
	case sql.JoinInner:
		return r.joinRel(L, R, pr)
	case sql.JoinSemi, sql.JoinAnti, sql.JoinLeft:
		// keep[i] = 1 for the left rows to output on their own: matched
		// rows for a semi join, unmatched rows otherwise.
		keep, err := r.s.alloc(max(L.n, 8) + 4096)
		if err != nil {
			return nil, err
		}
		init, mark := byte(1), byte(0)
		if kind == sql.JoinSemi {
			init, mark = 0, 1
		}
		if err := r.markRows(keep, L.n, init, mark, pr); err != nil {
			return nil, err
		}
		rows, m, err := r.flagsRows(keep, L.n)
		if err != nil {
			return nil, err
		}
		if kind != sql.JoinLeft {
			return r.gatherRel(L, rows, m)
		}
		// Matched pairs, then the unmatched left rows with no right row.
		total := pr.m + m
		al, err := r.s.alloc(4 * max(total, 2))
		if err != nil {
			return nil, err
		}
		ar, err := r.s.alloc(4 * max(total, 2))
		if err != nil {
			return nil, err
		}
		if pr.m > 0 {
			if err := cu.MemcpyDtoD(al, pr.left, 4*pr.m); err != nil {
				return nil, err
			}
			if err := cu.MemcpyDtoD(ar, pr.right, 4*pr.m); err != nil {
				return nil, err
			}
		}
		if m > 0 {
			if err := cu.MemcpyDtoD(al+cu.DevicePtr(4*pr.m), rows, 4*m); err != nil {
				return nil, err
			}
			if err := cu.MemsetD32(ar+cu.DevicePtr(4*pr.m), 0xffffffff, m); err != nil {
				return nil, err
			}
		}
		return r.joinRel(L, R, pairs{left: al, right: ar, m: total})
	}
	return nil, unsupported(op, fmt.Sprintf("join kind %v", kind))
}

// markRows sets flags[0..n) to init, then flags[left row of each pair] to
// mark.
func (r *queryRun) markRows(flags cu.DevicePtr, n int64, init, mark byte, pr pairs) error {
	if n == 0 {
		return nil
	}
	if err := cu.MemsetD8(flags, init, n); err != nil {
		return err
	}
	if pr.m == 0 {
		return nil
	}
	f, err := r.d.fn("join_mark")
	if err != nil {
		return err
	}
	p := struct {
		Rows  uint64
		M     int64
		Flags uint64
		Val   int64
	}{uint64(pr.left), pr.m, uint64(flags), int64(mark)}
	return launch(f, r.d.grid(pr.m), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p))
}

// notIn is the NULL-aware anti join (x NOT IN (subquery)): every left row
// when the right side is empty, none when it holds a NULL key, else the
// left rows with a non-NULL key and no match.
func (r *queryRun) notIn(L, R *relation, pr pairs, x *planner.HashJoin) (*relation, error) {
	if R.n == 0 {
		return L, nil
	}
	nullKey := &sql.IsNull{E: x.RightKeys[0]}
	prog, err := r.compile(nullKey, relColOf(R))
	if err != nil {
		return nil, unsupported(x, err.Error())
	}
	flags, _, err := r.evalVM(prog, R.n, 0, vmOutFlag)
	if err != nil {
		return nil, err
	}
	_, nulls, err := r.flagsRows(flags, R.n)
	if err != nil {
		return nil, err
	}
	if nulls > 0 {
		return &relation{n: 0, cols: L.cols}, nil
	}
	if x.Residual != nil {
		return nil, unsupported(x, "NOT IN with a residual condition")
	}
	// Left rows with a NULL key are dropped: they count as matched.
	notNull := &sql.IsNull{E: x.LeftKeys[0], Negated: true}
	if prog, err = r.compile(notNull, relColOf(L)); err != nil {
		return nil, unsupported(x, err.Error())
	}
	keep, _, err := r.evalVM(prog, L.n, 0, vmOutFlag)
	if err != nil {
		return nil, err
	}
	if pr.m > 0 {
		f, err := r.d.fn("join_mark")
		if err != nil {
			return nil, err
		}
		p := struct {
			Rows  uint64
			M     int64
			Flags uint64
			Val   int32
			Pad   int32
		}{uint64(pr.left), pr.m, uint64(keep), 0, 0}
		if err := launch(f, r.d.grid(pr.m), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
			return nil, err
		}
	}
	rows, m, err := r.flagsRows(keep, L.n)
	if err != nil {
		return nil, err
	}
	return r.gatherRel(L, rows, m)
}
