package gpu

import (
	"math/rand/v2"
	"testing"
)

// vmRef is a reference interpreter for the ops the transform test uses,
// with the tile kernel's register discipline: an instruction reads the
// operands it uses, then writes its result (so dst may be one of them). Values
// need not match the kernel's arithmetic: the test runs the same
// interpreter before and after the transform.
func vmRef(ins []vmIns, nreg int32, cols [][]int64, colNull [][]bool, row int, outs []int32) (vals []int64, valid []bool) {
	r := make([]int64, nreg)
	nn := make([]bool, nreg)
	for _, in := range ins {
		var ra, rb, rc int64
		var na, nb, nc bool
		used := vmOperands(in.Op)
		if used&vmUsesA != 0 {
			ra, na = r[in.A], nn[in.A]
		}
		if used&vmUsesB != 0 {
			rb, nb = r[in.B], nn[in.B]
		}
		if used&vmUsesC != 0 {
			rc, nc = r[in.C], nn[in.C]
		}
		var v int64
		ok := true
		switch in.Op {
		case vmLdCol:
			v, ok = cols[in.A][row], !colNull[in.A][row]
		case vmConst:
			v, ok = in.Imm, in.B == 0
		case vmMov:
			v, ok = ra, na
		case vmIAdd:
			v, ok = ra+rb, na && nb
		case vmISub:
			v, ok = ra-rb, na && nb
		case vmIMul:
			v, ok = ra*rb+in.Imm2, na && nb
		case vmMulDivRound:
			v, ok = ra*rb-rc, na && nb && nc
		case vmNot:
			v, ok = refBool(ra == 0), na
		case vmIsNull:
			v = refBool(!na)
		case vmSelect:
			if na && ra != 0 {
				v, ok = rb, nb
			} else {
				v, ok = rc, nc
			}
		case vmSelNN:
			if na {
				v = ra
			} else {
				v, ok = rb, nb
			}
		case vmMulK:
			v, ok = ra*in.Imm, na
		}
		if !ok {
			v = 0
		}
		r[in.Dst], nn[in.Dst] = v, ok
	}
	for _, o := range outs {
		vals, valid = append(vals, r[o]), append(valid, nn[o])
	}
	return vals, valid
}

// randomProgram is an SSA program as the compiler writes one: each
// instruction a fresh register, operands earlier registers; with repeated
// column loads and constants, as several expressions of one projection
// have. It returns the instructions and a few output registers.
func randomProgram(rng *rand.Rand, ncols int) ([]vmIns, []int32, int32) {
	var ins []vmIns
	n := int32(0)
	emit := func(in vmIns) int32 {
		in.Dst = n
		n++
		ins = append(ins, in)
		return in.Dst
	}
	pick := func() int32 { return int32(rng.IntN(int(n))) }
	emit(vmIns{Op: vmLdCol, A: int32(rng.IntN(ncols))})
	binary := []int32{vmIAdd, vmISub, vmIMul}
	for range 4 + rng.IntN(30) {
		switch k := rng.IntN(10); {
		case k < 2:
			emit(vmIns{Op: vmLdCol, A: int32(rng.IntN(ncols)), B: 7, C: 9}) // junk in unused fields
		case k < 3:
			emit(vmIns{Op: vmConst, B: int32(rng.IntN(4) / 3), Imm: int64(rng.IntN(3))})
		case k < 6:
			emit(vmIns{Op: binary[rng.IntN(len(binary))], A: pick(), B: pick(), Imm2: int64(rng.IntN(2))})
		case k < 7:
			emit(vmIns{Op: vmSelect, A: pick(), B: pick(), C: pick()})
		case k < 8:
			emit(vmIns{Op: []int32{vmNot, vmIsNull, vmMov}[rng.IntN(3)], A: pick(), C: 5})
		case k < 9:
			emit(vmIns{Op: vmSelNN, A: pick(), B: pick()})
		default:
			emit(vmIns{Op: vmMulDivRound, A: pick(), B: pick(), C: pick()})
		}
	}
	var outs []int32
	for range 1 + rng.IntN(4) {
		outs = append(outs, pick())
	}
	return ins, outs, n
}

// prepareTile keeps every output's value and NULL flag at every row, never
// uses more registers than the compiler did, and shares repeated loads.
func TestPrepareTileKeepsValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const ncols, rows = 3, 40
	cols, nulls := make([][]int64, ncols), make([][]bool, ncols)
	for c := range cols {
		for range rows {
			cols[c] = append(cols[c], rng.Int64N(7)-3)
			nulls[c] = append(nulls[c], rng.IntN(5) == 0)
		}
	}
	for trial := range 3000 {
		ins, outs, nreg := randomProgram(rng, ncols)
		tp, ok := prepareTile(ins, outs)
		if !ok {
			t.Fatalf("trial %d: an SSA program refused", trial)
		}
		if tp.nreg > nreg || len(tp.ins) > len(ins) {
			t.Fatalf("trial %d: %d registers, %d instructions after; %d, %d before", trial, tp.nreg, len(tp.ins), nreg, len(ins))
		}
		loads := map[int32]int{}
		for _, in := range tp.ins {
			if in.Op == vmLdCol {
				loads[in.A]++
			}
			if in.Dst < 0 || in.Dst >= tp.nreg {
				t.Fatalf("trial %d: register %d of %d", trial, in.Dst, tp.nreg)
			}
		}
		for c, k := range loads {
			if k > 1 {
				t.Fatalf("trial %d: column %d loaded %d times", trial, c, k)
			}
		}
		for row := range rows {
			wantV, wantOK := vmRef(ins, nreg, cols, nulls, row, outs)
			gotV, gotOK := vmRef(tp.ins, tp.nreg, cols, nulls, row, tp.outs)
			for i := range outs {
				if wantV[i] != gotV[i] || wantOK[i] != gotOK[i] {
					t.Fatalf("trial %d row %d output %d: got %d (valid %v), want %d (valid %v)\nbefore %v\nafter %v",
						trial, row, i, gotV[i], gotOK[i], wantV[i], wantOK[i], ins, tp.ins)
				}
			}
		}
	}
}

// A projection's two expressions over k and v (k + v*3, k - v) load each
// column once and fit in four registers; the masks say what each reads.
func TestPrepareTileProjection(t *testing.T) {
	ins := []vmIns{
		{Op: vmLdCol, Dst: 0, A: 0}, {Op: vmLdCol, Dst: 1, A: 1}, {Op: vmMulK, Dst: 2, A: 1, Imm: 3, Imm2: 1},
		{Op: vmIAdd, Dst: 3, A: 0, B: 2, Imm2: 1},
		{Op: vmLdCol, Dst: 4, A: 0}, {Op: vmLdCol, Dst: 5, A: 1}, {Op: vmISub, Dst: 6, A: 4, B: 5, Imm2: 1},
	}
	tp, ok := prepareTile(ins, []int32{3, 6})
	if !ok {
		t.Fatal("refused")
	}
	if len(tp.ins) != 5 || tp.nreg > 4 {
		t.Fatalf("%d instructions in %d registers, want 5 in at most 4: %v", len(tp.ins), tp.nreg, tp.ins)
	}
	wantPad := []int32{0, 0, vmUsesA, vmUsesA | vmUsesB, vmUsesA | vmUsesB}
	for i, in := range tp.ins {
		if in.Pad != wantPad[i] {
			t.Errorf("instruction %d (%v): mask %b, want %b", i, in, in.Pad, wantPad[i])
		}
	}
}

// Programs not in SSA form are refused, not miscompiled.
func TestPrepareTileRefusesNonSSA(t *testing.T) {
	for name, ins := range map[string][]vmIns{
		"written twice":     {{Op: vmConst, Dst: 0, Imm: 1}, {Op: vmConst, Dst: 0, Imm: 2}},
		"read before write": {{Op: vmMov, Dst: 0, A: 1}, {Op: vmConst, Dst: 1}},
	} {
		if _, ok := prepareTile(ins, []int32{0}); ok {
			t.Errorf("%s: accepted", name)
		}
	}
}

func refBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
