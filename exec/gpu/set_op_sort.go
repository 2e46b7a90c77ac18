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

// DISTINCT and the set operations by sorting (kernels/set_op_sort.cu), the
// form the GPU plan picks where it costs less than hashing
// (planner/gpu_set_op.go): the rows are sorted by every column with the
// radix sort (set_op_sort_perm.go over sort.go's kernels; stable, so equal
// rows keep their input order), the heads of the runs of equal rows are
// flagged by comparing neighbours and compacted. DISTINCT and UNION keep
// each run's first row; INTERSECT and EXCEPT [ALL] sort left ++ right,
// where a run's left rows come first, and flag the copies the operation
// keeps. Everything stays on the device but what sizes the next steps
// (which radix passes run, run and result counts). The rows kept are each
// run's first in input order, as the CPU executor keeps them, so even -0
// and 0, which are one row, come out as the CPU's do; and they are listed
// in input order (a flag per row, compacted), as the CPU lists them,
// unless a Sort above takes them in their sorted order.

const setopMaxCols = 8 // SETOP_MAX_COLS

// setopHeadsParams mirrors HeadsParams in kernels/set_op_sort.cu.
type setopHeadsParams struct {
	Cols  [setopMaxCols]colView
	NCols int32
	Pad   int32
	Perm  uint64
	N     int64
	Flags uint64
}

// setopKeepParams mirrors KeepParams.
type setopKeepParams struct {
	Perm        uint64
	N, NLeft    int64
	Starts      uint64
	Runs        int64
	Flags       uint64
	Except, All int32
}

// setChoice is the GPU plan's algorithm for a DISTINCT or set operation
// (hash where the run has no plan, as for a scalar subquery's).
func (r *queryRun) setChoice(n planner.Node) planner.GPUSetChoice {
	if c, ok := r.setOps[n]; ok {
		return c
	}
	return planner.GPUSetChoice{Algorithm: planner.SetHash}
}

// orderedRel is input's rows ordered by keys for op (a Sort or TopN): as
// they arrive where the GPU plan says a sort-based DISTINCT or set
// operation below already returns them in that order, else sorted.
func (r *queryRun) orderedRel(ctx context.Context, input planner.Node, keys []sql.SortKey, op planner.Node) (*relation, error) {
	if _, ok := r.presorted[op]; ok {
		return r.rel(ctx, input)
	}
	return r.sortRel(ctx, input, keys, op)
}

// sortedRuns sorts rel's rows by every column (unless they arrive sorted)
// and finds the runs of equal rows: perm lists the rows in sorted order
// (0 when sorted: the identity), starts the sorted positions of the runs'
// first rows.
func (r *queryRun) sortedRuns(rel *relation, sorted bool, op planner.Node) (perm, starts cu.DevicePtr, runs int64, err error) {
	if len(rel.cols) > setopMaxCols {
		return 0, 0, 0, unsupported(op, fmt.Sprintf("more than %d columns", setopMaxCols))
	}
	hp := setopHeadsParams{NCols: int32(len(rel.cols)), N: rel.n}
	for i, c := range rel.cols {
		if hp.Cols[i], err = r.devView(c); err != nil {
			return
		}
	}
	if !sorted && rel.n > 1 {
		keys := make([]sortKey, len(rel.cols))
		for i := range keys {
			if keys[i].v, err = r.sortableView(hp.Cols[i], rel.n); err != nil {
				return
			}
		}
		if perm, err = r.rowsPerm(rel.n, keys); err != nil {
			return
		}
	}
	flags, err := r.s.alloc(max(rel.n, 8) + 4096)
	if err != nil {
		return
	}
	hp.Perm, hp.Flags = uint64(perm), uint64(flags)
	f, err := r.d.fn("setop_heads")
	if err != nil {
		return
	}
	if err = launch(f, r.d.grid(rel.n), 256, 0, unsafe.Pointer(&hp), unsafe.Sizeof(hp)); err != nil {
		return
	}
	read := viewBytes(hp.Cols[:len(rel.cols)], rel.n)
	if perm != 0 {
		read += 4 * rel.n
	}
	noteKernel(read, rel.n, rel.n, -1)
	starts, runs, err = r.flagsRows(flags, rel.n)
	return
}

// sortableView is v with DOUBLE values made to sort as the CPU executor
// compares them: -0 as 0, every NaN as one (setop_canon); other columns
// as they are.
func (r *queryRun) sortableView(v colView, n int64) (colView, error) {
	if v.IsFloat == 0 || n == 0 {
		return v, nil
	}
	out, err := r.s.alloc(8 * n)
	if err != nil {
		return colView{}, err
	}
	f, err := r.d.fn("setop_canon")
	if err != nil {
		return colView{}, err
	}
	p := struct {
		In  colView
		N   int64
		Out uint64
	}{v, n, uint64(out)}
	if err := launch(f, r.d.grid(n), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return colView{}, err
	}
	noteKernel(8*n, 8*n, n, n)
	return colView{Data: uint64(out), Valid: v.Valid, Width: 8, IsFloat: 1}, nil
}

// canonFloats is rel with its DOUBLE columns' -0 made 0 and NaNs one NaN:
// what DISTINCT returns, as the CPU executor's DISTINCT returns its key
// words decoded (exec/cpu/keys.go).
func (r *queryRun) canonFloats(rel *relation) (*relation, error) {
	out := &relation{n: rel.n, cols: append([]*columnar.Column(nil), rel.cols...)}
	for i, c := range rel.cols {
		v, err := r.devView(c)
		if err != nil || v.IsFloat == 0 {
			if err != nil {
				return nil, err
			}
			continue
		}
		cv, err := r.sortableView(v, rel.n)
		if err != nil {
			return nil, err
		}
		out.cols[i] = r.newDevCol(c.Type, c.Dict, rel.n, cv)
	}
	return out, nil
}

// sortDistinct keeps the first row of every run of equal rows of rel, in
// input order unless the plan has a Sort above take them in sorted order.
func (r *queryRun) sortDistinct(rel *relation, c planner.GPUSetChoice, op planner.Node) (*relation, error) {
	if rel.n == 0 {
		return rel, nil
	}
	perm, starts, runs, err := r.sortedRuns(rel, c.InputSorted, op)
	if err != nil {
		return nil, err
	}
	rows, err := r.throughPerm(starts, runs, perm)
	if err != nil {
		return nil, err
	}
	if perm != 0 && c.Orders == nil {
		if rows, err = r.inputOrder(rows, runs, rel.n); err != nil {
			return nil, err
		}
	}
	return r.gatherRel(rel, rows, runs)
}

// inputOrder lists the m distinct rows (of n) in rows in ascending order:
// the order the CPU executor returns what it keeps in (first appearances,
// left rows in left order), so that --check and the ties of an ORDER BY
// above see the same order on both executors. It flags each row and
// compacts the flags.
func (r *queryRun) inputOrder(rows cu.DevicePtr, m, n int64) (cu.DevicePtr, error) {
	flags, err := r.s.alloc(max(n, 8) + 4096)
	if err != nil {
		return 0, err
	}
	if err := cu.MemsetD8(flags, 0, n); err != nil {
		return 0, err
	}
	f, err := r.d.fn("setop_mark")
	if err != nil {
		return 0, err
	}
	p := struct {
		Rows  uint64
		M     int64
		Flags uint64
	}{uint64(rows), m, uint64(flags)}
	if err := launch(f, r.d.grid(m), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return 0, err
	}
	noteKernel(4*m, m, m, m)
	out, k, err := r.flagsRows(flags, n)
	if err != nil {
		return 0, err
	}
	if k != m {
		return 0, fmt.Errorf("gpu: set operation kept %d rows, %d distinct", m, k)
	}
	return out, nil
}

// sortIntersectExcept runs INTERSECT / EXCEPT [ALL] of cat = left ++ right
// (nLeft rows of left first) by sorting.
func (r *queryRun) sortIntersectExcept(cat *relation, nLeft int64, c planner.GPUSetChoice, x *planner.SetOp) (*relation, error) {
	if nLeft == 0 || cat.n == 0 {
		return &relation{n: 0, cols: cat.cols}, nil
	}
	perm, starts, runs, err := r.sortedRuns(cat, false, x)
	if err != nil {
		return nil, err
	}
	if perm == 0 { // one row: nothing was sorted
		if perm, err = r.upload(bytesOf([]int32{0})); err != nil {
			return nil, err
		}
	}
	flags, err := r.s.alloc(max(cat.n, 8) + 4096)
	if err != nil {
		return nil, err
	}
	kp := setopKeepParams{Perm: uint64(perm), N: cat.n, NLeft: nLeft, Starts: uint64(starts), Runs: runs,
		Flags: uint64(flags), Except: b2i(x.Kind == sql.SetExcept), All: b2i(x.All)}
	f, err := r.d.fn("setop_keep")
	if err != nil {
		return nil, err
	}
	if err := launch(f, r.d.grid(cat.n), 256, 0, unsafe.Pointer(&kp), unsafe.Sizeof(kp)); err != nil {
		return nil, err
	}
	noteKernel(4*cat.n+4*runs, cat.n, cat.n, -1)
	pos, m, err := r.flagsRows(flags, cat.n)
	if err != nil {
		return nil, err
	}
	if m == 0 {
		return &relation{n: 0, cols: cat.cols}, nil
	}
	rows, err := r.throughPerm(pos, m, perm)
	if err != nil {
		return nil, err
	}
	if c.Orders == nil {
		if rows, err = r.inputOrder(rows, m, nLeft); err != nil {
			return nil, err
		}
	}
	return r.gatherRel(cat, rows, m)
}

// throughPerm maps m sorted positions to rows: perm[pos[i]] (pos itself
// when perm is 0, the identity).
func (r *queryRun) throughPerm(pos cu.DevicePtr, m int64, perm cu.DevicePtr) (cu.DevicePtr, error) {
	if perm == 0 || m == 0 {
		return pos, nil
	}
	out, err := r.s.alloc(4 * max(m, 2))
	if err != nil {
		return 0, err
	}
	f, err := r.d.fn("map_index")
	if err != nil {
		return 0, err
	}
	p := struct {
		In         uint64
		N          int64
		Table, Out uint64
	}{uint64(pos), m, uint64(perm), uint64(out)}
	return out, launch(f, r.d.grid(m), 256, 0, unsafe.Pointer(&p), unsafe.Sizeof(p))
}
