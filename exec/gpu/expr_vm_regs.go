package gpu

// Preparing an expression-VM program for the tile kernels
// (kernels/expr_vm.cu's expr_vm_tile8 and expr_vm_tile4), whose registers
// live in shared memory — 9 or 18 KiB a register for a tile of 1024 or
// 2048 rows — so a program must use few. The compiler writes a fresh register per expression node (SSA),
// and a projection's expressions often repeat subexpressions (both read k
// and v). Two passes over the straight-line code fix both:
//
//   - value numbering: an instruction identical to an earlier one (same op,
//     operands after renaming, immediates) is dropped and its register
//     renamed to the earlier one's. Sound because every VM op is a pure
//     function of its operands (an overflow report is idempotent);
//   - register allocation: a register is freed after the last instruction
//     that reads it (outputs stay live to the end) and the lowest free one
//     is given to each result. An instruction may write a register it
//     reads: the kernel reads all operands before it writes.
//
// Each kept instruction's Pad gets the mask of its register operands
// (vmOperands), and operand fields it does not read are zeroed, so that
// the kernel loads only what it uses.

// tileProgram is a program prepared for the tile kernels.
type tileProgram struct {
	ins  []vmIns
	outs []int32 // result registers, in the order asked
	nreg int32
}

// insKey identifies an instruction's value for value numbering.
type insKey struct {
	op, a, b, c int32
	imm, imm2   int64
}

// prepareTile shares repeated instructions of ins and reallocates its
// registers; outs are the result registers. ok is false when ins is not
// in the compiler's form (a register written twice, or read before it is
// written): the caller runs the plain VM then.
func prepareTile(ins []vmIns, outs []int32) (tileProgram, bool) {
	kept, canonOuts, ok := shareRepeated(ins, outs)
	if !ok {
		return tileProgram{}, false
	}
	return allocRegs(kept, canonOuts), true
}

// shareRepeated is the value-numbering pass: it returns the instructions
// kept, with operands renamed to their first equal instruction's register,
// and outs renamed likewise.
func shareRepeated(ins []vmIns, outs []int32) ([]vmIns, []int32, bool) {
	canon := map[int32]int32{} // register → the register holding its value
	seen := map[insKey]int32{}
	var kept []vmIns
	for _, in := range ins {
		x, ok := canonical(in, canon)
		if _, written := canon[in.Dst]; !ok || written {
			return nil, nil, false // read before written, or written twice
		}
		k := insKey{x.Op, x.A, x.B, x.C, x.Imm, x.Imm2}
		if r, dup := seen[k]; dup {
			canon[in.Dst] = r
			continue
		}
		seen[k] = in.Dst
		canon[in.Dst] = in.Dst
		kept = append(kept, x)
	}
	renamed := make([]int32, len(outs))
	for i, o := range outs {
		r, ok := canon[o]
		if !ok {
			return nil, nil, false
		}
		renamed[i] = r
	}
	return kept, renamed, true
}

// canonical is in with its register operands renamed through canon, the
// operand fields it does not read zeroed and Pad set to its operand mask;
// false when it reads a register not written yet.
func canonical(in vmIns, canon map[int32]int32) (vmIns, bool) {
	used := vmOperands(in.Op)
	x := in
	x.Pad = used
	x.A = normalizeOperand(in.A, used&vmUsesA != 0, in.Op == vmLdCol)
	x.B = normalizeOperand(in.B, used&vmUsesB != 0, in.Op == vmConst)
	x.C = normalizeOperand(in.C, used&vmUsesC != 0, false)
	for _, f := range []struct {
		mask int32
		p    *int32
	}{{vmUsesA, &x.A}, {vmUsesB, &x.B}, {vmUsesC, &x.C}} {
		if used&f.mask == 0 {
			continue
		}
		r, ok := canon[*f.p]
		if !ok {
			return vmIns{}, false
		}
		*f.p = r
	}
	return x, true
}

// normalizeOperand keeps an operand field the op reads (as a register, or
// as a literal: VM_LDCOL's column slot, VM_CONST's NULL flag) and zeroes
// the others.
func normalizeOperand(v int32, register, literal bool) int32 {
	if register || literal {
		return v
	}
	return 0
}

// allocRegs is the register allocation pass over SSA code (each register
// written once, before it is read).
func allocRegs(ins []vmIns, outs []int32) tileProgram {
	end := len(ins) // outputs are read after the last instruction
	last := map[int32]int{}
	for j, in := range ins {
		forOperands(in, func(r int32) { last[r] = j })
	}
	for _, o := range outs {
		last[o] = end
	}
	phys := map[int32]int32{}
	var free []bool // free[p]: physical register p holds no live value
	take := func() int32 {
		for p, f := range free {
			if f {
				free[p] = false
				return int32(p)
			}
		}
		free = append(free, false)
		return int32(len(free) - 1)
	}
	out := tileProgram{ins: make([]vmIns, len(ins))}
	for j, in := range ins {
		x := in
		var dying []int32
		forOperands(in, func(r int32) {
			if last[r] == j {
				dying = append(dying, r)
			}
		})
		if x.Pad&vmUsesA != 0 {
			x.A = phys[in.A]
		}
		if x.Pad&vmUsesB != 0 {
			x.B = phys[in.B]
		}
		if x.Pad&vmUsesC != 0 {
			x.C = phys[in.C]
		}
		for _, r := range dying {
			free[phys[r]] = true // a repeated operand frees the same one twice: harmless
		}
		x.Dst = take()
		phys[in.Dst] = x.Dst
		if l, used := last[in.Dst]; !used || l <= j {
			free[x.Dst] = true // never read: the slot is scratch
		}
		out.ins[j] = x
	}
	for _, o := range outs {
		out.outs = append(out.outs, phys[o])
	}
	out.nreg = int32(len(free))
	return out
}

// forOperands calls f with each register operand in reads (Pad's mask).
func forOperands(in vmIns, f func(int32)) {
	if in.Pad&vmUsesA != 0 {
		f(in.A)
	}
	if in.Pad&vmUsesB != 0 {
		f(in.B)
	}
	if in.Pad&vmUsesC != 0 {
		f(in.C)
	}
}
