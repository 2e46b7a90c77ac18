//go:build cuda

package gpu

import (
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// The tile VM (kernels/expr_vm.cu's expr_vm_tile8 and expr_vm_tile4): one
// instruction over a tile of 2048 or 1024 rows at a time, registers in
// shared memory, several output columns per launch. Programs are prepared
// by prepareTile (expr_vm_regs.go); those whose registers do not fit
// shared memory run on the per-row VM (evalVM's fallback).

const (
	vmMaxOut   = 8 // VM_MAX_OUT
	vmInsBytes = int(unsafe.Sizeof(vmIns{}))
	// vmWideRegs is the most registers a program may have to run 8 rows a
	// thread (expr_vm_tile8: 18 KiB of shared memory a register, 3 blocks
	// an SM at 4); larger programs run 4 (expr_vm_tile4).
	vmWideRegs = 4
)

// vmTileShape is the kernel, rows per thread and dynamic shared memory a
// prepared program runs with: a value and a not-NULL byte per register and
// row of the tile, then the instructions.
func vmTileShape(tp tileProgram) (kernel string, items, shmem int) {
	kernel, items = "expr_vm_tile4", 4
	if tp.nreg <= vmWideRegs {
		kernel, items = "expr_vm_tile8", 8
	}
	return kernel, items, int(tp.nreg)*items*256*9 + len(tp.ins)*vmInsBytes
}

// vmOutParam mirrors VMOut.
type vmOutParam struct {
	Data  uint64
	Valid uint64
	Kind  int32
	Reg   int32
}

// exprTileParams mirrors ExprTileParams.
type exprTileParams struct {
	N                       int64
	RowIDs                  uint64
	Prog                    uint64
	NIns, NCols, NReg, NOut int32
	Cols                    [vmCols]colView
	Outs                    [vmMaxOut]vmOutParam
}

// mergedVM is several programs as one: instructions with registers
// renumbered apart, column slots and lookup tables concatenated, one result
// register per program.
type mergedVM struct {
	ins    []vmIns
	outs   []int32
	cols   []*columnar.Column
	tables [][]byte
}

// mergeVM merges progs; ok is false when their columns together are more
// than a program may load.
func mergeVM(progs []*vmProgram) (mergedVM, bool) {
	var m mergedVM
	var base int32
	for _, p := range progs {
		slot := make([]int32, len(p.cols))
		for i, c := range p.cols {
			slot[i] = -1
			for j, have := range m.cols {
				if have == c {
					slot[i] = int32(j)
				}
			}
			if slot[i] < 0 {
				if len(m.cols) == vmCols {
					return mergedVM{}, false
				}
				slot[i] = int32(len(m.cols))
				m.cols = append(m.cols, c)
			}
		}
		top := p.out
		for _, in := range p.ins {
			x := in
			used := vmOperands(in.Op)
			x.Dst += base
			if used&vmUsesA != 0 {
				x.A += base
			}
			if used&vmUsesB != 0 {
				x.B += base
			}
			if used&vmUsesC != 0 {
				x.C += base
			}
			switch in.Op {
			case vmLdCol:
				if in.A < 0 || int(in.A) >= len(slot) {
					return mergedVM{}, false
				}
				x.A = slot[in.A]
			case vmLookup:
				x.Imm += int64(len(m.tables))
			}
			m.ins = append(m.ins, x)
			top = max(top, in.Dst, in.A, in.B, in.C)
		}
		m.outs = append(m.outs, p.out+base)
		m.tables = append(m.tables, p.tables...)
		base += top + 1
	}
	return m, true
}

// evalTile runs progs at n rows (rowids[i], or row i when rowids is 0) in
// one launch of the tile kernel, program i's result as kinds[i]. ok is
// false, with nothing launched, when they do not fit one launch (too many
// outputs or columns, registers past shared memory, a program not in the
// compiler's form).
func (r *queryRun) evalTile(progs []*vmProgram, n int64, rowids cu.DevicePtr, kinds []int) (outs []vmResult, ok bool, err error) {
	if len(progs) == 0 || len(progs) > vmMaxOut {
		return nil, false, nil
	}
	m, ok := mergeVM(progs)
	if !ok {
		return nil, false, nil
	}
	tp, ok := prepareTile(m.ins, m.outs)
	if !ok {
		return nil, false, nil
	}
	kernel, items, shmem := vmTileShape(tp)
	if shmem > r.d.maxShared {
		return nil, false, nil
	}
	prog, err := r.uploadProgram(tp.ins, m.tables)
	if err != nil {
		return nil, false, err
	}
	p := exprTileParams{N: n, RowIDs: uint64(rowids), Prog: uint64(prog), NIns: int32(len(tp.ins)),
		NCols: int32(len(m.cols)), NReg: tp.nreg, NOut: int32(len(progs))}
	for i, c := range m.cols {
		if p.Cols[i], err = r.devView(c); err != nil {
			return nil, false, err
		}
	}
	written := int64(0)
	for i, kind := range kinds {
		o, err := r.allocVMOut(n, kind)
		if err != nil {
			return nil, false, err
		}
		outs = append(outs, o)
		p.Outs[i] = vmOutParam{Data: uint64(o.data), Valid: uint64(o.valid), Kind: int32(kind), Reg: tp.outs[i]}
		written += vmOutBytes(n, kind)
	}
	f, err := r.d.fn(kernel)
	if err != nil {
		return nil, false, err
	}
	if shmem > 48<<10 {
		if err := setMaxDynamicShared(f, shmem); err != nil {
			return nil, false, err
		}
	}
	tile := int64(items * 256)
	tiles := (n + tile - 1) / tile
	if err := launch(f, int(min(tiles, int64(r.d.sms)*8)), 256, shmem, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
		return nil, false, err
	}
	read := viewBytes(p.Cols[:p.NCols], n)
	if rowids != 0 {
		read += 4 * n
	}
	if n > 0 { // an empty input launches nothing to note
		noteKernel(read, written, n, n)
	}
	return outs, true, nil
}
