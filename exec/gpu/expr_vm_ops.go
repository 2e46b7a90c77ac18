package gpu

// The expression VM's instruction set (kernels/expr_vm.cu), kept apart
// from the compiler so that the host-side program transforms
// (expr_vm_regs.go) build and are tested without CUDA.

// VM opcodes, mirroring the enum in kernels/expr_vm.cu.
const (
	vmLdCol = iota
	vmConst
	vmMov
	vmIAdd
	vmISub
	vmIMul
	vmIDiv
	vmIMod
	vmWrap32
	vmFAdd
	vmFSub
	vmFMul
	vmFDiv
	vmFIDiv
	vmFMod
	vmMulK
	vmDivRoundK
	vmMulDivRound
	vmICmp
	vmFCmp
	vmAnd
	vmOr
	vmNot
	vmIsNull
	vmLookup
	vmSelect
	vmSelNN
	vmI2F
	vmF2I
	vmF2Dec
	vmDec2F
	vmINe0
	vmFNe0
	vmINeg
	vmFNeg
	vmIAbs
	vmFAbs
	vmYear
	vmMonth
	vmDay
	vmIntDivDec
	vmFRound
	vmFFloor
	vmFCeil
	vmDFloor
	vmDCeil
)

// vmIns mirrors VMIns.
type vmIns struct {
	Op, Dst, A, B, C, Pad int32
	Imm, Imm2             int64
}

// Register operand masks (vmIns.Pad as the tile kernel reads it).
const (
	vmUsesA = 1 << iota
	vmUsesB
	vmUsesC
)

// vmOperands is the mask of the register operands op reads. VM_LDCOL's a
// is a column slot and VM_CONST's b its NULL flag, not registers.
func vmOperands(op int32) int32 {
	switch op {
	case vmLdCol, vmConst:
		return 0
	case vmIAdd, vmISub, vmIMul, vmIDiv, vmIMod, vmFAdd, vmFSub, vmFMul, vmFDiv, vmFIDiv, vmFMod,
		vmIntDivDec, vmICmp, vmFCmp, vmAnd, vmOr, vmSelNN:
		return vmUsesA | vmUsesB
	case vmMulDivRound, vmSelect:
		return vmUsesA | vmUsesB | vmUsesC
	}
	// Every other op is unary in a: MOV, WRAP32, MULK, DIVROUNDK, NOT,
	// ISNULL, LOOKUP, the conversions, NEG, ABS, rounding, YEAR/MONTH/DAY.
	return vmUsesA
}
