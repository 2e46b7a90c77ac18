//go:build cuda

package gpu

import (
	"fmt"
	"math"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Compiling a bound expression into an expression-VM program
// (kernels/expr_vm.cu). The program is straight-line: one instruction per
// expression node writing a fresh register, so NULL propagation and
// three-valued logic follow the tree exactly as exec/cpu's evaluators do;
// every conversion the CPU inserts (castTo on operands, on CASE arms, on
// COALESCE arguments, commonType for comparisons and IN lists) is inserted
// here at the same places with the same rounding.
//
// A subexpression whose only input is one dictionary-encoded string column
// (upper(s), s LIKE 'a%', length(s), CAST(s AS INT), s = 'x' ...) does not
// run per row at all: it is evaluated once per dictionary entry (plus once
// for NULL) on the host by exec/cpu itself, and the program looks the result
// up by code (VM_LOOKUP). A string result keeps its new dictionary, so the
// rows never leave the device and the semantics are the CPU's by
// construction.

// vmProgram is a compiled expression: instructions, the columns they load
// (slot k is cols[k]), lookup tables (a VM_LOOKUP's Imm is an index into
// tables until the run uploads them) and the result register and type.
type vmProgram struct {
	ins    []vmIns
	cols   []*columnar.Column
	tables [][]byte
	out    int32
	nreg   int32
	t      columnar.Type
	dict   *columnar.Dictionary // result dictionary when t is String
}

// vmCompiler compiles expressions over an input whose column idx is the
// host column colOf(idx). dry compiles without evaluating dictionary
// lookups (Supports must not do work).
type vmCompiler struct {
	p     *vmProgram
	colOf func(idx int) (*columnar.Column, bool)
	dry   bool
	nreg  int32
	// subq runs an uncorrelated scalar subquery (on the GPU) and returns
	// its value as a literal; nil in dry mode, which only checks that the
	// subquery's plan is one the GPU runs.
	subq func(*planner.Subquery) (sql.Expr, error)
}

// reg is a compiled value: its register, SQL type and, for strings, the
// dictionary its codes index.
type reg struct {
	r    int32
	t    columnar.Type
	dict *columnar.Dictionary
}

func compileVM(e sql.Expr, colOf func(int) (*columnar.Column, bool), dry bool) (*vmProgram, error) {
	return compileVMWith(e, colOf, dry, nil)
}

func compileVMWith(e sql.Expr, colOf func(int) (*columnar.Column, bool), dry bool, subq func(*planner.Subquery) (sql.Expr, error)) (*vmProgram, error) {
	c := &vmCompiler{p: &vmProgram{}, colOf: colOf, dry: dry, subq: subq}
	v, err := c.expr(e)
	if err != nil {
		return nil, err
	}
	c.p.out, c.p.t, c.p.dict, c.p.nreg = v.r, e.Type(), v.dict, c.nreg
	if e.Type().ID == columnar.String && v.dict == nil {
		return nil, vmUnsupported(e, "a string result without a dictionary")
	}
	return c.p, nil
}

// vmUnsupported is the error of an expression the VM cannot evaluate; the
// caller wraps it with the operator's name.
type vmError struct{ msg string }

func (e *vmError) Error() string { return e.msg }

func vmUnsupported(e sql.Expr, why string) error {
	return &vmError{fmt.Sprintf("expression %s: %s", e, why)}
}

func (c *vmCompiler) emit(op int, a, b, cc int32, imm, imm2 int64, t columnar.Type) (reg, error) {
	if c.nreg >= vmRegs {
		return reg{}, &vmError{fmt.Sprintf("expression needs more than %d registers", vmRegs)}
	}
	d := c.nreg
	c.nreg++
	c.p.ins = append(c.p.ins, vmIns{Op: int32(op), Dst: d, A: a, B: b, C: cc, Imm: imm, Imm2: imm2})
	return reg{r: d, t: t}, nil
}

// vmChecked in imm2 of vmIAdd, vmISub, vmIMul, vmIDiv, vmINeg, vmIAbs, vmMulK and
// vmMulDivRound marks SQL arithmetic on int64 values (BIGINT, scaled
// decimals), whose overflow the kernel reports (kernels/common.cuh's
// gpusql_overflow, overflow.go) instead of wrapping; the compiler's own
// offsets and DATE arithmetic in 32 bits stay unchecked.
const vmChecked = 1

func checkedIf(b bool) int64 {
	if b {
		return vmChecked
	}
	return 0
}

func fbits(f float64) int64 { return int64(math.Float64bits(f)) }

// pow10 is exec/cpu's pow10: 10^n, MaxInt64 beyond 18.
func pow10(n int) int64 {
	if n < 0 || n >= len(columnar.Pow10) {
		return math.MaxInt64
	}
	return columnar.Pow10[n]
}

func (c *vmCompiler) expr(e sql.Expr) (reg, error) {
	if idx, ok := dictSubtree(e); ok {
		return c.lookup(e, idx)
	}
	if idx, col, lo, span, ok := c.domainSubtree(e); ok {
		return c.domainLookup(e, idx, col, lo, span)
	}
	switch x := e.(type) {
	case *sql.ColRef:
		col, ok := c.colOf(x.Index)
		if !ok {
			return reg{}, vmUnsupported(e, "column not available on the GPU here")
		}
		slot := -1
		for i, k := range c.p.cols {
			if k == col {
				slot = i
			}
		}
		if slot < 0 {
			if len(c.p.cols) >= vmCols {
				return reg{}, vmUnsupported(e, fmt.Sprintf("more than %d columns", vmCols))
			}
			slot = len(c.p.cols)
			c.p.cols = append(c.p.cols, col)
		}
		r, err := c.emit(vmLdCol, int32(slot), 0, 0, 0, 0, x.Col.Type)
		r.dict = col.Dict
		return r, err
	case *sql.Const:
		return c.constant(x)
	case *sql.Binary:
		return c.binary(x)
	case *sql.Not:
		a, err := c.expr(x.E)
		if err != nil {
			return reg{}, err
		}
		return c.emit(vmNot, a.r, 0, 0, 0, 0, columnar.TBool)
	case *sql.Neg:
		a, err := c.expr(x.E)
		if err != nil {
			return reg{}, err
		}
		t := x.E.Type()
		switch {
		case t.ID == columnar.Float64:
			return c.emit(vmFNeg, a.r, 0, 0, 0, 0, t)
		case t.ID == columnar.String:
			return reg{}, vmUnsupported(e, "negating a string")
		}
		r, err := c.emit(vmINeg, a.r, 0, 0, 0, checkedIf(t.Physical() == columnar.PhysInt64), t)
		if err != nil {
			return r, err
		}
		return c.wrap(r, t)
	case *sql.IsNull:
		a, err := c.expr(x.E)
		if err != nil {
			return reg{}, err
		}
		return c.emit(vmIsNull, a.r, 0, 0, b2i64(x.Negated), 0, columnar.TBool)
	case *sql.InList:
		return c.inList(x)
	case *sql.CodeSet:
		a, err := c.expr(x.E)
		if err != nil {
			return reg{}, err
		}
		vals := make([]int64, len(x.Match)+1)
		ok := make([]byte, len(x.Match)+1)
		for i, m := range x.Match {
			vals[i], ok[i] = b2i64(m), 1
		}
		return c.table(a, vals, ok, columnar.TBool)
	case *sql.Case:
		return c.caseExpr(x)
	case *sql.Cast:
		a, err := c.expr(x.E)
		if err != nil {
			return reg{}, err
		}
		return c.cast(a, x.E.Type(), x.T, e)
	case *sql.Func:
		return c.fn(x)
	case *planner.Subquery:
		if c.subq == nil {
			if err := Supports(&planner.Physical{Root: x.Root}); err != nil {
				return reg{}, vmUnsupported(e, "subquery: "+err.Error())
			}
			if x.T.ID == columnar.String {
				return reg{}, vmUnsupported(e, "a string subquery outside a dictionary")
			}
			return c.emit(vmConst, 0, 1, 0, 0, 0, x.T)
		}
		k, err := c.subq(x)
		if err != nil {
			return reg{}, err
		}
		return c.expr(k)
	}
	return reg{}, vmUnsupported(e, fmt.Sprintf("%T is not supported on the GPU yet", e))
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (c *vmCompiler) constant(k *sql.Const) (reg, error) {
	if k.Null {
		r, err := c.emit(vmConst, 0, 1, 0, 0, 0, k.T)
		if k.T.ID == columnar.String {
			r.dict = &columnar.Dictionary{}
		}
		return r, err
	}
	switch k.T.ID {
	case columnar.String:
		// A literal is code 0 of its own one-entry dictionary.
		r, err := c.emit(vmConst, 0, 0, 0, 0, 0, k.T)
		r.dict = &columnar.Dictionary{Values: []string{k.S}}
		return r, err
	case columnar.Float64:
		return c.emit(vmConst, 0, 0, 0, fbits(k.F), 0, k.T)
	}
	return c.emit(vmConst, 0, 0, 0, k.I, 0, k.T)
}

// wrap truncates r to 32 bits when t is stored in 32 bits (the CPU computes
// INT arithmetic in int32 and wraps).
func (c *vmCompiler) wrap(r reg, t columnar.Type) (reg, error) {
	if t.Physical() != columnar.PhysInt32 {
		return r, nil
	}
	w, err := c.emit(vmWrap32, r.r, 0, 0, 0, 0, t)
	w.dict = r.dict
	return w, err
}

func sameType(a, b columnar.Type) bool {
	if a.ID != b.ID {
		return false
	}
	return (a.ID != columnar.Decimal && a.ID != columnar.Datetime) || a.Scale == b.Scale
}

// cast converts a from type from to type to as exec/cpu's castTo does.
func (c *vmCompiler) cast(a reg, from, to columnar.Type, e sql.Expr) (reg, error) {
	if to.Single && !from.Single {
		// CAST(x AS FLOAT) rounds to single precision and raises 1690 past
		// its range (exec/cpu castEval): the VM has neither.
		return reg{}, vmUnsupported(e, "cast to single-precision FLOAT")
	}
	if sameType(from, to) || (from.ID == columnar.Datetime && to.ID == columnar.Datetime && to.Scale >= from.Scale) {
		a.t = to
		return a, nil
	}
	if from.ID == columnar.String || to.ID == columnar.String {
		return reg{}, vmUnsupported(e, fmt.Sprintf("cast from %v to %v outside a dictionary", from, to))
	}
	if from.ID == columnar.Date && to.ID == columnar.Datetime {
		// A DATE compares with a DATETIME as its midnight: days * µs per day
		// (at most 2.9e17 for year 9999, no overflow).
		return c.emit(vmMulK, a.r, 0, 0, columnar.MicrosPerDay, 0, to)
	}
	if from.ID == columnar.Date || to.ID == columnar.Date || from.ID == columnar.Datetime || to.ID == columnar.Datetime {
		// DATETIME compares, joins, groups and sorts on the GPU as its
		// int64 microseconds; other conversions to and from it (rounding,
		// calendar parts, numbers) run on the CPU.
		return reg{}, vmUnsupported(e, fmt.Sprintf("cast from %v to %v", from, to))
	}
	isF := from.ID == columnar.Float64
	switch to.ID {
	case columnar.Float64:
		if from.ID == columnar.Decimal {
			return c.emit(vmDec2F, a.r, 0, 0, fbits(math.Pow10(from.Scale)), 0, to)
		}
		return c.emit(vmI2F, a.r, 0, 0, 0, 0, to)
	case columnar.Decimal:
		switch {
		case isF:
			return c.emit(vmF2Dec, a.r, 0, 0, fbits(math.Pow10(to.Scale)), 0, to)
		case from.ID == columnar.Decimal:
			return c.rescale(a, from.Scale, to.Scale, to)
		}
		return c.emit(vmMulK, a.r, 0, 0, pow10(to.Scale), 0, to)
	case columnar.Bool:
		if isF {
			return c.emit(vmFNe0, a.r, 0, 0, 0, 0, to)
		}
		return c.emit(vmINe0, a.r, 0, 0, 0, 0, to)
	}
	// Integers.
	var r reg
	var err error
	switch {
	case isF:
		r, err = c.emit(vmF2I, a.r, 0, 0, 0, 0, to)
	case from.ID == columnar.Decimal:
		r, err = c.rescale(a, from.Scale, 0, to)
	default:
		r = reg{r: a.r, t: to}
	}
	if err != nil {
		return r, err
	}
	if to.ID == columnar.Int32 {
		return c.emit(vmWrap32, r.r, 0, 0, 0, 0, to)
	}
	r.t = to
	return r, nil
}

// rescale is exec/cpu's rescale: exact upward, rounding half away from zero
// downward.
func (c *vmCompiler) rescale(a reg, from, to int, t columnar.Type) (reg, error) {
	switch {
	case to == from:
		return reg{r: a.r, t: t}, nil
	case to > from:
		return c.emit(vmMulK, a.r, 0, 0, pow10(to-from), 0, t)
	}
	return c.emit(vmDivRoundK, a.r, 0, 0, pow10(from-to), 0, t)
}
