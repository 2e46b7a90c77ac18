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

// The VM's register file and column slots (kernels/expr_vm.cu).
const (
	vmRegs = 48 // VM_REGS
	vmCols = 16 // VM_COLS
)

// exprVMParams mirrors ExprVMParams in kernels/expr_vm.cu.
type exprVMParams struct {
	N        int64
	RowIDs   uint64
	Prog     uint64
	NIns     int32
	NCols    int32
	Cols     [vmCols]colView
	Out      uint64
	OutValid uint64
	OutKind  int32
	OutReg   int32
}

const (
	vmOutI64  = 0
	vmOutI32  = 1
	vmOutF64  = 2
	vmOutFlag = 3
)

// evalVM runs program p at n rows (rows rowids[i], or i when rowids is 0)
// and returns the device vectors of its values (kind vmOut*) and, unless
// kind is vmOutFlag, of its validity bitmap (64 rows per word). The tile
// kernel runs it when its registers fit shared memory (expr_vm_tile.go),
// the per-row VM otherwise.
func (r *queryRun) evalVM(p *vmProgram, n int64, rowids cu.DevicePtr, kind int) (data, valid cu.DevicePtr, err error) {
	if len(p.ins) == 0 {
		return 0, 0, fmt.Errorf("gpu: empty expression program")
	}
	outs, ok, err := r.evalTile([]*vmProgram{p}, n, rowids, []int{kind})
	if err != nil {
		return 0, 0, err
	}
	if ok {
		return outs[0].data, outs[0].valid, nil
	}
	prog, err := r.uploadProgram(p.ins, p.tables)
	if err != nil {
		return 0, 0, err
	}
	vp := exprVMParams{N: n, RowIDs: uint64(rowids), Prog: uint64(prog), NIns: int32(len(p.ins)),
		NCols: int32(len(p.cols)), OutKind: int32(kind), OutReg: p.out}
	for i, c := range p.cols {
		v, err := r.devView(c)
		if err != nil {
			return 0, 0, err
		}
		vp.Cols[i] = v
	}
	out, err := r.allocVMOut(n, kind)
	if err != nil {
		return 0, 0, err
	}
	vp.Out, vp.OutValid = uint64(out.data), uint64(out.valid)
	f, err := r.d.fn("expr_vm")
	if err != nil {
		return 0, 0, err
	}
	n32 := (n + 31) &^ 31
	if err := launch(f, min(grid1D(n32, 256), r.d.sms*8), 256, 0, unsafe.Pointer(&vp), unsafe.Sizeof(vp)); err != nil {
		return 0, 0, err
	}
	read := viewBytes(vp.Cols[:vp.NCols], n)
	if rowids != 0 {
		read += 4 * n
	}
	if n > 0 { // an empty input launches nothing to note
		noteKernel(read, vmOutBytes(n, kind), n, n)
	}
	return out.data, out.valid, nil
}

// vmResult is one output vector of the VM on the device: values and, but
// for flags, a validity bitmap.
type vmResult struct{ data, valid cu.DevicePtr }

// vmOutWidth is the bytes a row of output kind takes.
func vmOutWidth(kind int) int64 {
	switch kind {
	case vmOutI32:
		return 4
	case vmOutFlag:
		return 1
	}
	return 8
}

// vmOutBytes is what writing n rows of output kind moves.
func vmOutBytes(n int64, kind int) int64 {
	b := n * vmOutWidth(kind)
	if kind != vmOutFlag {
		b += (n + 7) / 8
	}
	return b
}

// allocVMOut allocates an output of n rows of kind. Flags get a tile of
// slack: the scan kernels read a thread's 8 flag bytes without a bounds
// check.
func (r *queryRun) allocVMOut(n int64, kind int) (vmResult, error) {
	width := vmOutWidth(kind)
	var out vmResult
	var err error
	if out.data, err = r.s.alloc(max(n*width, 8) + 4096*(width&1)); err != nil {
		return vmResult{}, err
	}
	if kind != vmOutFlag {
		if out.valid, err = r.s.alloc(max((n+63)/64*8, 8)); err != nil {
			return vmResult{}, err
		}
	}
	return out, nil
}

// uploadProgram copies instructions to the device with each VM_LOOKUP's
// table index replaced by its uploaded table's address.
func (r *queryRun) uploadProgram(code []vmIns, tables [][]byte) (cu.DevicePtr, error) {
	ins := append([]vmIns(nil), code...)
	for i := range ins {
		if ins[i].Op != vmLookup {
			continue
		}
		if ins[i].Imm < 0 || int(ins[i].Imm) >= len(tables) {
			return 0, fmt.Errorf("gpu: expression program compiled without its lookup tables")
		}
		t, err := r.upload(tables[ins[i].Imm])
		if err != nil {
			return 0, err
		}
		ins[i].Imm = int64(t)
	}
	return r.upload(bytesOf(ins))
}

// compile compiles e for running now: scalar subqueries run on the GPU
// first (once per query) and enter the program as literals.
func (r *queryRun) compile(e sql.Expr, colOf func(int) (*columnar.Column, bool)) (*vmProgram, error) {
	return compileVMWith(e, colOf, false, r.subquery)
}

// subquery runs an uncorrelated scalar subquery on the GPU, with exec/cpu's
// rules: one column, at most one row, NULL when empty, the value cast to
// the declared type.
func (r *queryRun) subquery(s *planner.Subquery) (sql.Expr, error) {
	if k, ok := r.subq[s]; ok {
		return k, nil
	}
	ctx := r.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := r.d.run(ctx, &planner.Physical{Root: s.Root})
	if err != nil {
		return nil, err
	}
	if len(res.Columns) != 1 {
		return nil, fmt.Errorf("subquery returns %d columns, want 1", len(res.Columns))
	}
	if res.Rows > 1 {
		return nil, fmt.Errorf("Subquery returns more than 1 row")
	}
	var k sql.Expr = &sql.Const{T: s.T, Null: true}
	if res.Rows == 1 && !res.Columns[0].IsNull(0) {
		c := res.Columns[0]
		lit := &sql.Const{T: c.Type}
		switch {
		case c.Type.ID == columnar.String:
			lit.S = c.StringAt(0)
		case c.F64 != nil:
			lit.F = c.F64[0]
		default:
			lit.I = c.Int64At(0)
		}
		k = lit
		if !sameType(c.Type, s.T) {
			k = &sql.Cast{E: lit, T: s.T}
		}
	}
	if r.subq == nil {
		r.subq = map[*planner.Subquery]sql.Expr{}
	}
	r.subq[s] = k
	return k, nil
}

// vmOutKind is the output vector kind of a value of type t.
func vmOutKind(t columnar.Type) int {
	switch t.Physical() {
	case columnar.PhysInt32:
		return vmOutI32
	case columnar.PhysFloat64:
		return vmOutF64
	}
	return vmOutI64
}

// vmColumn evaluates p at n rows and copies the result to a host column.
func (r *queryRun) vmColumn(p *vmProgram, n int64, rowids cu.DevicePtr, t columnar.Type) (*columnar.Column, error) {
	if n == 0 {
		return vmHostColumn(p, 0, t), nil
	}
	data, valid, err := r.evalVM(p, n, rowids, vmOutKind(t))
	if err != nil {
		return nil, err
	}
	return downloadVM(p, vmResult{data, valid}, n, t)
}

// vmColumns is vmColumn for several programs over the same rows, as few
// tile-kernel launches as fit (up to vmMaxOut outputs each), so that
// columns the expressions share are read once.
func (r *queryRun) vmColumns(progs []*vmProgram, n int64, rowids cu.DevicePtr, types []columnar.Type) ([]*columnar.Column, error) {
	out := make([]*columnar.Column, len(progs))
	for lo := 0; lo < len(progs); lo += vmMaxOut {
		hi := min(lo+vmMaxOut, len(progs))
		var kinds []int
		for _, t := range types[lo:hi] {
			kinds = append(kinds, vmOutKind(t))
		}
		var res []vmResult
		ok := false
		if n > 0 {
			var err error
			if res, ok, err = r.evalTile(progs[lo:hi], n, rowids, kinds); err != nil {
				return nil, err
			}
		}
		for i := lo; i < hi; i++ {
			var err error
			if ok {
				out[i], err = downloadVM(progs[i], res[i-lo], n, types[i])
			} else {
				out[i], err = r.vmColumn(progs[i], n, rowids, types[i])
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// vmHostColumn is the host column of n rows that p's result fills.
func vmHostColumn(p *vmProgram, n int64, t columnar.Type) *columnar.Column {
	out := columnar.NewColumnIn(columnar.HeapAllocator, t, int(n), true)
	if t.ID == columnar.String {
		out.Dict = p.dict
	}
	return out
}

// downloadVM copies an output of p's (n rows) to a host column of type t.
func downloadVM(p *vmProgram, res vmResult, n int64, t columnar.Type) (*columnar.Column, error) {
	out := vmHostColumn(p, n, t)
	if n == 0 {
		return out, nil
	}
	host := out.Data()
	if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), res.data, int64(len(host))); err != nil {
		return nil, fmt.Errorf("gpu: expression result: %v", err)
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&out.Valid[0]), res.valid, int64(len(out.Valid))*8); err != nil {
		return nil, fmt.Errorf("gpu: expression result: %v", err)
	}
	return out, nil
}

// vmPred evaluates predicate program p at every one of n rows into a byte
// per row (TRUE = 1; FALSE and NULL = 0) and returns it as a PRED_FLAGS
// scan predicate.
func (r *queryRun) vmPred(p *vmProgram, n int64) (predParam, error) {
	data, _, err := r.evalVM(p, n, 0, vmOutFlag)
	if err != nil {
		return predParam{}, err
	}
	return predParam{Col: colView{Data: uint64(data), Width: 1}, Kind: predFlags}, nil
}
