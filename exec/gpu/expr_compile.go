//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"

	"gpusql/exec/cpu"
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

const (
	vmRegs = 48 // VM_REGS
	vmCols = 16 // VM_COLS
)

// vmIns mirrors VMIns.
type vmIns struct {
	Op, Dst, A, B, C, Pad int32
	Imm, Imm2             int64
}

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

// vmChecked in imm2 of vmIAdd, vmISub, vmIMul, vmIDiv, vmINeg, vmMulK and
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
	return a.ID != columnar.Decimal || a.Scale == b.Scale
}

// cast converts a from type from to type to as exec/cpu's castTo does.
func (c *vmCompiler) cast(a reg, from, to columnar.Type, e sql.Expr) (reg, error) {
	if sameType(from, to) {
		a.t = to
		return a, nil
	}
	if from.ID == columnar.String || to.ID == columnar.String {
		return reg{}, vmUnsupported(e, fmt.Sprintf("cast from %v to %v outside a dictionary", from, to))
	}
	if from.ID == columnar.Date || to.ID == columnar.Date {
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

// table emits a lookup of a's value (a code) in vals/ok, whose last entry
// is the result for a NULL input.
func (c *vmCompiler) table(a reg, vals []int64, ok []byte, t columnar.Type) (reg, error) {
	b := append([]byte(nil), bytesOf(vals)...)
	b = append(b, ok...)
	c.p.tables = append(c.p.tables, b)
	return c.emit(vmLookup, a.r, 0, 0, int64(len(c.p.tables)-1), int64(len(vals)-1), t)
}

// dictSubtree reports whether e reads exactly one input column, a
// dictionary-encoded string, and is more than that column itself: it can
// then be evaluated once per dictionary entry.
func dictSubtree(e sql.Expr) (int, bool) {
	if _, ok := e.(*sql.ColRef); ok {
		return 0, false
	}
	idx, ok, any := -1, true, false
	walkExpr(e, func(x sql.Expr) {
		switch r := x.(type) {
		case *sql.ColRef:
			if r.Col.Type.ID != columnar.String || (idx >= 0 && idx != r.Index) {
				ok = false
			}
			idx, any = r.Index, true
		case *planner.Subquery, *sql.ScalarSubquery:
			ok = false
		}
	})
	return idx, ok && any
}

// lookup evaluates e (whose only input is string column idx) for every
// entry of the column's dictionary and for NULL, through exec/cpu, and
// emits a VM_LOOKUP of the row's code in the results.
func (c *vmCompiler) lookup(e sql.Expr, idx int) (reg, error) {
	col, ok := c.colOf(idx)
	if !ok || col.Dict == nil {
		return reg{}, vmUnsupported(e, "string column without a dictionary")
	}
	code, err := c.expr(&sql.ColRef{Index: idx, Col: sql.Column{Name: "s", Type: col.Type, Dict: col.Dict}})
	if err != nil {
		return reg{}, err
	}
	t := e.Type()
	if c.dry {
		r, err := c.emit(vmLookup, code.r, 0, 0, -1, 0, t)
		if t.ID == columnar.String {
			r.dict = &columnar.Dictionary{}
		}
		return r, err
	}
	res, err := evalOverDictionary(e, idx, col)
	if err != nil {
		return reg{}, vmUnsupported(e, err.Error())
	}
	n := len(col.Dict.Values)
	vals := make([]int64, n+1)
	okb := make([]byte, n+1)
	for i := 0; i <= n; i++ {
		if res.IsNull(i) {
			continue
		}
		okb[i] = 1
		switch {
		case res.F64 != nil:
			vals[i] = fbits(res.F64[i])
		default:
			vals[i] = res.Int64At(i)
		}
	}
	r, err := c.table(code, vals, okb, t)
	if t.ID == columnar.String {
		r.dict = res.Dict
	}
	return r, err
}

// domainLimitVM bounds the integer domains a string-producing expression
// is evaluated over.
const domainLimitVM = 1 << 16

// domainSubtree reports whether e produces a string from one integer base
// column whose values span a small domain (CAST(a AS VARCHAR)): the device
// cannot format numbers, but the host can evaluate e once per domain
// value, as predicates are evaluated on small domains.
func (c *vmCompiler) domainSubtree(e sql.Expr) (idx int, col *columnar.Column, lo, span int64, ok bool) {
	if e.Type().ID != columnar.String {
		return
	}
	if _, isRef := e.(*sql.ColRef); isRef {
		return
	}
	idx, ok = -1, true
	walkExpr(e, func(x sql.Expr) {
		switch r := x.(type) {
		case *sql.ColRef:
			if idx >= 0 && idx != r.Index {
				ok = false
			}
			idx = r.Index
		case *planner.Subquery, *sql.ScalarSubquery:
			ok = false
		}
	})
	if !ok || idx < 0 {
		return 0, nil, 0, 0, false
	}
	col, found := c.colOf(idx)
	if !found || col.Type.ID == columnar.String || col.Type.ID == columnar.Float64 {
		return 0, nil, 0, 0, false
	}
	if col.I32 == nil && col.I64 == nil {
		// A plan check sees no data: a base column's domain is decided
		// when the query runs (an intermediate result's is not known
		// then either, and the run refuses it).
		return idx, col, 0, 0, c.dry
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := 0; i < col.Len; i++ {
		if col.IsNull(i) {
			continue
		}
		v := col.Int64At(i)
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi < lo {
		lo, hi = 0, -1
	}
	span = hi - lo + 1
	if span < 0 || span > domainLimitVM {
		return 0, nil, 0, 0, false
	}
	return idx, col, lo, span, true
}

// domainLookup evaluates e for every value lo..lo+span-1 of column idx and
// for NULL through exec/cpu and emits a lookup of (value - lo).
func (c *vmCompiler) domainLookup(e sql.Expr, idx int, col *columnar.Column, lo, span int64) (reg, error) {
	v, err := c.expr(&sql.ColRef{Index: idx, Col: sql.Column{Name: "v", Type: col.Type}})
	if err != nil {
		return reg{}, err
	}
	k, err := c.emit(vmConst, 0, 0, 0, lo, 0, col.Type)
	if err != nil {
		return reg{}, err
	}
	off, err := c.emit(vmISub, v.r, k.r, 0, 0, 0, columnar.TInt64)
	if err != nil {
		return reg{}, err
	}
	if c.dry {
		r, err := c.emit(vmLookup, off.r, 0, 0, -1, 0, e.Type())
		r.dict = &columnar.Dictionary{}
		return r, err
	}
	in := columnar.NewColumn(col.Type, int(span+1), true)
	for i := int64(0); i < span; i++ {
		setInt(in, int(i), lo+i)
		in.SetValid(int(i))
	}
	res, err := evalOverColumn(e, in)
	if err != nil {
		return reg{}, vmUnsupported(e, err.Error())
	}
	vals := make([]int64, span+1)
	okb := make([]byte, span+1)
	for i := range vals {
		if !res.IsNull(i) {
			vals[i], okb[i] = res.Int64At(i), 1
		}
	}
	r, err := c.table(off, vals, okb, e.Type())
	r.dict = res.Dict
	return r, err
}

// evalOverDictionary runs e over a one-column table holding each entry of
// col's dictionary (row i = code i) and a NULL (row n) on exec/cpu.
func evalOverDictionary(e sql.Expr, idx int, col *columnar.Column) (*columnar.Column, error) {
	n := len(col.Dict.Values)
	in := columnar.NewColumn(col.Type, n+1, true)
	in.Dict = col.Dict
	for i := 0; i < n; i++ {
		in.I32[i] = int32(i)
		in.SetValid(i)
	}
	return evalOverColumn(e, in)
}

// evalOverColumn runs e, whose only input column is in, over in's rows on
// exec/cpu.
func evalOverColumn(e sql.Expr, in *columnar.Column) (*columnar.Column, error) {
	n := in.Len - 1
	col := in
	sc := sql.Column{Name: "s", Type: col.Type, Nullable: true, Dict: col.Dict}
	t := &columnar.Table{Name: "gpu_dictionary", Rows: n + 1, Columns: []*columnar.Column{in},
		Fields: []columnar.Field{{Name: "s", Type: col.Type, Nullable: true}},
		Stats:  make([][]columnar.ChunkStats, 1)}
	scan := &planner.TableScan{Table: t, Columns: []int{0}, Out: sql.Schema{sc}}
	ex := mapColRefs(e, func(r *sql.ColRef) sql.Expr {
		return &sql.ColRef{Index: 0, Col: r.Col}
	})
	proj := &planner.Projection{Input: scan, Exprs: []sql.Expr{ex}, Out: sql.Schema{{Name: "v", Type: e.Type(), Nullable: true}}}
	res, err := cpu.Run(context.Background(), &planner.Physical{Root: proj, Names: []string{"v"}})
	if err != nil {
		return nil, err
	}
	if len(res.Columns) != 1 || res.Rows != n+1 {
		return nil, fmt.Errorf("dictionary evaluation returned %d rows", res.Rows)
	}
	return res.Columns[0], nil
}

func (c *vmCompiler) binary(e *sql.Binary) (reg, error) {
	switch e.Op {
	case sql.OpAnd, sql.OpOr:
		l, err := c.expr(e.L)
		if err != nil {
			return reg{}, err
		}
		r, err := c.expr(e.R)
		if err != nil {
			return reg{}, err
		}
		op := vmAnd
		if e.Op == sql.OpOr {
			op = vmOr
		}
		return c.emit(op, l.r, r.r, 0, 0, 0, columnar.TBool)
	case sql.OpEQ, sql.OpNE, sql.OpLT, sql.OpLE, sql.OpGT, sql.OpGE:
		l, err := c.expr(e.L)
		if err != nil {
			return reg{}, err
		}
		r, err := c.expr(e.R)
		if err != nil {
			return reg{}, err
		}
		return c.compare(e, e.Op, l, r, e.L.Type(), e.R.Type())
	}
	return c.arith(e)
}

var cmpCode = map[sql.BinOp]int64{sql.OpEQ: 0, sql.OpNE: 1, sql.OpLT: 2, sql.OpLE: 3, sql.OpGT: 4, sql.OpGE: 5}

func (c *vmCompiler) compare(e sql.Expr, op sql.BinOp, l, r reg, lt, rt columnar.Type) (reg, error) {
	t := sql.OperandType(lt, rt)
	if t.ID == columnar.String {
		// Codes of one sorted dictionary compare like the strings only for
		// equality here (collation is the CPU's business).
		if l.dict == nil || l.dict != r.dict || (op != sql.OpEQ && op != sql.OpNE) {
			return reg{}, vmUnsupported(e, "comparing strings of different dictionaries")
		}
		return c.emit(vmICmp, l.r, r.r, 0, cmpCode[op], 0, columnar.TBool)
	}
	l, err := c.cast(l, lt, t, e)
	if err != nil {
		return reg{}, err
	}
	r, err = c.cast(r, rt, t, e)
	if err != nil {
		return reg{}, err
	}
	if t.ID == columnar.Float64 {
		return c.emit(vmFCmp, l.r, r.r, 0, cmpCode[op], 0, columnar.TBool)
	}
	return c.emit(vmICmp, l.r, r.r, 0, cmpCode[op], 0, columnar.TBool)
}

// arith mirrors exec/cpu's compileArith: double, decimal or integer domain.
func (c *vmCompiler) arith(e *sql.Binary) (reg, error) {
	l, err := c.expr(e.L)
	if err != nil {
		return reg{}, err
	}
	r, err := c.expr(e.R)
	if err != nil {
		return reg{}, err
	}
	lt, rt, t := e.L.Type(), e.R.Type(), e.T
	if lt.ID == columnar.String || rt.ID == columnar.String || t.ID == columnar.String {
		return reg{}, vmUnsupported(e, "arithmetic on strings")
	}
	switch {
	case t.ID == columnar.Float64 || lt.ID == columnar.Float64 || rt.ID == columnar.Float64:
		if l, err = c.cast(l, lt, columnar.TFloat64, e); err != nil {
			return reg{}, err
		}
		if r, err = c.cast(r, rt, columnar.TFloat64, e); err != nil {
			return reg{}, err
		}
		op := map[sql.BinOp]int{sql.OpAdd: vmFAdd, sql.OpSub: vmFSub, sql.OpMul: vmFMul, sql.OpDiv: vmFDiv,
			sql.OpIntDiv: vmFIDiv, sql.OpMod: vmFMod}[e.Op]
		return c.emit(op, l.r, r.r, 0, 0, 0, columnar.TFloat64)
	case t.ID == columnar.Decimal || lt.ID == columnar.Decimal || rt.ID == columnar.Decimal || e.Op == sql.OpDiv:
		sl, sr := lt.DecimalScale(), rt.DecimalScale()
		if l, err = c.cast(l, lt, columnar.TDecimal(38, sl), e); err != nil {
			return reg{}, err
		}
		if r, err = c.cast(r, rt, columnar.TDecimal(38, sr), e); err != nil {
			return reg{}, err
		}
		dt := t
		if t.ID != columnar.Decimal {
			dt = columnar.TDecimal(38, max(sl, sr))
			if e.Op == sql.OpDiv {
				dt = columnar.TDecimal(38, max(sl, sr)+4)
			}
		}
		v, err := c.decimal(e.Op, l, r, sl, sr, dt.Scale, dt)
		if err != nil || t.ID == columnar.Decimal {
			return v, err
		}
		return c.cast(v, dt, t, e)
	}
	w := columnar.TInt64
	if t.Physical() == columnar.PhysInt32 {
		w = t
	}
	if l, err = c.cast(l, lt, w, e); err != nil {
		return reg{}, err
	}
	if r, err = c.cast(r, rt, w, e); err != nil {
		return reg{}, err
	}
	op := map[sql.BinOp]int{sql.OpAdd: vmIAdd, sql.OpSub: vmISub, sql.OpMul: vmIMul, sql.OpDiv: vmIDiv,
		sql.OpIntDiv: vmIDiv, sql.OpMod: vmIMod}[e.Op]
	v, err := c.emit(op, l.r, r.r, 0, 0, checkedIf(w.ID == columnar.Int64), w)
	if err != nil {
		return v, err
	}
	if v, err = c.wrap(v, w); err != nil {
		return v, err
	}
	if t.Physical() != w.Physical() {
		return c.cast(v, w, t, e)
	}
	v.t = t
	return v, nil
}

// decimal is exec/cpu's evalDecimal: operands at scales sl and sr, result
// at scale st.
func (c *vmCompiler) decimal(op sql.BinOp, x, y reg, sl, sr, st int, t columnar.Type) (reg, error) {
	s := max(sl, sr)
	up := func(a reg, by int) (reg, error) {
		if by == 0 {
			return a, nil
		}
		return c.emit(vmMulK, a.r, 0, 0, pow10(by), vmChecked, t)
	}
	switch op {
	case sql.OpAdd, sql.OpSub:
		a, err := up(x, s-sl)
		if err != nil {
			return reg{}, err
		}
		b, err := up(y, s-sr)
		if err != nil {
			return reg{}, err
		}
		o := vmIAdd
		if op == sql.OpSub {
			o = vmISub
		}
		v, err := c.emit(o, a.r, b.r, 0, 0, vmChecked, t)
		if err != nil {
			return v, err
		}
		return c.rescale(v, s, st, t)
	case sql.OpMul:
		s := sl + sr
		switch {
		case s == st:
			return c.emit(vmIMul, x.r, y.r, 0, 0, vmChecked, t)
		case s > st:
			d, err := c.emit(vmConst, 0, 0, 0, pow10(s-st), 0, t)
			if err != nil {
				return d, err
			}
			return c.emit(vmMulDivRound, x.r, y.r, d.r, 0, vmChecked, t)
		}
		v, err := c.emit(vmIMul, x.r, y.r, 0, 0, vmChecked, t)
		if err != nil {
			return v, err
		}
		return c.emit(vmMulK, v.r, 0, 0, pow10(st-s), vmChecked, t)
	case sql.OpDiv:
		e := st - sl + sr
		if e >= 0 {
			m, err := c.emit(vmConst, 0, 0, 0, pow10(e), 0, t)
			if err != nil {
				return m, err
			}
			return c.emit(vmMulDivRound, x.r, m.r, y.r, 0, vmChecked, t)
		}
		one, err := c.emit(vmConst, 0, 0, 0, 1, 0, t)
		if err != nil {
			return one, err
		}
		d, err := c.emit(vmMulK, y.r, 0, 0, pow10(-e), vmChecked, t)
		if err != nil {
			return d, err
		}
		return c.emit(vmMulDivRound, x.r, one.r, d.r, 0, vmChecked, t)
	case sql.OpIntDiv:
		a, err := up(x, s-sl)
		if err != nil {
			return reg{}, err
		}
		b, err := up(y, s-sr)
		if err != nil {
			return reg{}, err
		}
		return c.emit(vmIntDivDec, a.r, b.r, 0, pow10(st), 0, t)
	case sql.OpMod:
		a, err := up(x, s-sl)
		if err != nil {
			return reg{}, err
		}
		b, err := up(y, s-sr)
		if err != nil {
			return reg{}, err
		}
		v, err := c.emit(vmIMod, a.r, b.r, 0, 0, 0, t)
		if err != nil {
			return v, err
		}
		return c.rescale(v, s, st, t)
	}
	return reg{}, &vmError{fmt.Sprintf("decimal operator %d", op)}
}

func (c *vmCompiler) inList(e *sql.InList) (reg, error) {
	in, err := c.expr(e.E)
	if err != nil {
		return reg{}, err
	}
	// The CPU compares every item in the list's common type.
	t := e.E.Type()
	for _, it := range e.List {
		t = sql.OperandType(t, it.Type())
	}
	x, err := c.cast(in, e.E.Type(), t, e)
	if err != nil {
		return reg{}, err
	}
	var acc reg
	for i, it := range e.List {
		v, err := c.expr(it)
		if err != nil {
			return reg{}, err
		}
		if v, err = c.cast(v, it.Type(), t, e); err != nil {
			return reg{}, err
		}
		eq, err := c.compare(e, sql.OpEQ, x, v, t, t)
		if err != nil {
			return reg{}, err
		}
		if i == 0 {
			acc = eq
			continue
		}
		if acc, err = c.emit(vmOr, acc.r, eq.r, 0, 0, 0, columnar.TBool); err != nil {
			return reg{}, err
		}
	}
	if e.Negated {
		return c.emit(vmNot, acc.r, 0, 0, 0, 0, columnar.TBool)
	}
	return acc, nil
}

// unify maps string values of different dictionaries onto one merged,
// sorted dictionary (a lookup per value), so that selecting among them
// yields codes of one dictionary, as CASE and COALESCE need.
func (c *vmCompiler) unify(vals []reg, e sql.Expr) ([]reg, *columnar.Dictionary, error) {
	var all []string
	for _, v := range vals {
		if v.dict == nil {
			return nil, nil, vmUnsupported(e, "a string without a dictionary")
		}
		all = append(all, v.dict.Values...)
	}
	merged := columnar.BuildDictionary(all)
	out := make([]reg, len(vals))
	for i, v := range vals {
		if v.dict == merged {
			out[i] = v
			continue
		}
		tv := make([]int64, len(v.dict.Values)+1)
		ok := make([]byte, len(tv))
		for j, s := range v.dict.Values {
			code, _ := merged.Lookup(s)
			tv[j], ok[j] = int64(code), 1
		}
		r, err := c.table(v, tv, ok, v.t)
		if err != nil {
			return nil, nil, err
		}
		r.dict = merged
		out[i] = r
	}
	return out, merged, nil
}

func (c *vmCompiler) stringCase(e *sql.Case) (reg, error) {
	els := e.Else
	if els == nil {
		els = &sql.Const{T: e.T, Null: true}
	}
	var conds, vals []reg
	for _, w := range e.Whens {
		cond, err := c.expr(w.Cond)
		if err != nil {
			return reg{}, err
		}
		v, err := c.expr(w.Result)
		if err != nil {
			return reg{}, err
		}
		if w.Result.Type().ID != columnar.String {
			return reg{}, vmUnsupported(e, "a non-string arm of a string CASE")
		}
		conds, vals = append(conds, cond), append(vals, v)
	}
	ev, err := c.expr(els)
	if err != nil {
		return reg{}, err
	}
	if els.Type().ID != columnar.String {
		return reg{}, vmUnsupported(e, "a non-string arm of a string CASE")
	}
	vals = append(vals, ev)
	vals, merged, err := c.unify(vals, e)
	if err != nil {
		return reg{}, err
	}
	res := vals[len(vals)-1]
	for i := len(conds) - 1; i >= 0; i-- {
		if res, err = c.emit(vmSelect, conds[i].r, vals[i].r, res.r, 0, 0, e.T); err != nil {
			return reg{}, err
		}
	}
	res.dict = merged
	return res, nil
}

func (c *vmCompiler) caseExpr(e *sql.Case) (reg, error) {
	if e.T.ID == columnar.String {
		return c.stringCase(e)
	}
	els := e.Else
	if els == nil {
		els = &sql.Const{T: e.T, Null: true}
	}
	ev, err := c.expr(els)
	if err != nil {
		return reg{}, err
	}
	res, err := c.cast(ev, els.Type(), e.T, e)
	if err != nil {
		return reg{}, err
	}
	for i := len(e.Whens) - 1; i >= 0; i-- {
		w := e.Whens[i]
		cond, err := c.expr(w.Cond)
		if err != nil {
			return reg{}, err
		}
		rv, err := c.expr(w.Result)
		if err != nil {
			return reg{}, err
		}
		if rv, err = c.cast(rv, w.Result.Type(), e.T, e); err != nil {
			return reg{}, err
		}
		if res, err = c.emit(vmSelect, cond.r, rv.r, res.r, 0, 0, e.T); err != nil {
			return reg{}, err
		}
	}
	return res, nil
}

func (c *vmCompiler) fn(e *sql.Func) (reg, error) {
	switch e.Name {
	case "abs":
		if len(e.Args) != 1 {
			break
		}
		a, err := c.expr(e.Args[0])
		if err != nil {
			return reg{}, err
		}
		t := e.Args[0].Type()
		if t.ID == columnar.Float64 {
			return c.emit(vmFAbs, a.r, 0, 0, 0, 0, t)
		}
		if t.ID == columnar.String || t.ID != e.T.ID {
			break
		}
		v, err := c.emit(vmIAbs, a.r, 0, 0, 0, 0, t)
		if err != nil {
			return v, err
		}
		return c.wrap(v, t)
	case "coalesce":
		if len(e.Args) == 0 {
			break
		}
		if e.T.ID == columnar.String {
			var vals []reg
			for _, a := range e.Args {
				if a.Type().ID != columnar.String {
					return reg{}, vmUnsupported(e, "a non-string argument of a string COALESCE")
				}
				v, err := c.expr(a)
				if err != nil {
					return reg{}, err
				}
				vals = append(vals, v)
			}
			vals, merged, err := c.unify(vals, e)
			if err != nil {
				return reg{}, err
			}
			res := vals[len(vals)-1]
			for i := len(vals) - 2; i >= 0; i-- {
				if res, err = c.emit(vmSelNN, vals[i].r, res.r, 0, 0, 0, e.T); err != nil {
					return reg{}, err
				}
			}
			res.dict = merged
			return res, nil
		}
		var regs []reg
		for _, a := range e.Args {
			v, err := c.expr(a)
			if err != nil {
				return reg{}, err
			}
			if v, err = c.cast(v, a.Type(), e.T, e); err != nil {
				return reg{}, err
			}
			regs = append(regs, v)
		}
		res := regs[len(regs)-1]
		for i := len(regs) - 2; i >= 0; i-- {
			var err error
			if res, err = c.emit(vmSelNN, regs[i].r, res.r, 0, 0, 0, e.T); err != nil {
				return reg{}, err
			}
		}
		res.t = e.T
		return res, nil
	case "datediff":
		if len(e.Args) != 2 || e.Args[0].Type().ID != columnar.Date || e.Args[1].Type().ID != columnar.Date {
			break
		}
		a, err := c.expr(e.Args[0])
		if err != nil {
			return reg{}, err
		}
		b, err := c.expr(e.Args[1])
		if err != nil {
			return reg{}, err
		}
		v, err := c.emit(vmISub, a.r, b.r, 0, 0, 0, e.T)
		if err != nil {
			return v, err
		}
		return c.wrap(v, e.T)
	case "round", "floor", "ceil":
		return c.rounding(e)
	case "year", "month", "day":
		if len(e.Args) != 1 || e.Args[0].Type().ID != columnar.Date {
			break
		}
		a, err := c.expr(e.Args[0])
		if err != nil {
			return reg{}, err
		}
		op := map[string]int{"year": vmYear, "month": vmMonth, "day": vmDay}[e.Name]
		v, err := c.emit(op, a.r, 0, 0, 0, 0, e.T)
		if err != nil {
			return v, err
		}
		return c.wrap(v, e.T)
	}
	return reg{}, vmUnsupported(e, fmt.Sprintf("function %s() is not supported on the GPU yet", e.Name))
}

// rounding is exec/cpu's round(x[, d]), floor(x) and ceil(x): doubles
// round half to even (rint), decimals and integers half away from zero;
// d must be a literal.
func (c *vmCompiler) rounding(e *sql.Func) (reg, error) {
	if len(e.Args) == 0 || len(e.Args) > 2 || (e.Name != "round" && len(e.Args) != 1) {
		return reg{}, vmUnsupported(e, "arguments of "+e.Name+"()")
	}
	d := int64(0)
	if len(e.Args) == 2 {
		k, ok := e.Args[1].(*sql.Const)
		if !ok || k.T.ID == columnar.Float64 || k.T.ID == columnar.String {
			return reg{}, vmUnsupported(e, "a rounding precision that is not an integer literal")
		}
		if k.Null {
			return c.emit(vmConst, 0, 1, 0, 0, 0, e.T)
		}
		d = k.I
	}
	x, err := c.expr(e.Args[0])
	if err != nil {
		return reg{}, err
	}
	xt, t := e.Args[0].Type(), e.T
	if t.ID == columnar.String || xt.ID == columnar.String || xt.ID == columnar.Date {
		return reg{}, vmUnsupported(e, "argument type")
	}
	if xt.ID == columnar.Float64 {
		var v reg
		switch e.Name {
		case "floor":
			v, err = c.emit(vmFFloor, x.r, 0, 0, 0, 0, xt)
		case "ceil":
			v, err = c.emit(vmFCeil, x.r, 0, 0, 0, 0, xt)
		default:
			v, err = c.emit(vmFRound, x.r, 0, 0, fbits(math.Pow10(int(d))), 0, xt)
		}
		if err != nil || t.ID == columnar.Float64 {
			return v, err
		}
		if t.ID == columnar.Decimal {
			return reg{}, vmUnsupported(e, "a DECIMAL result of a DOUBLE")
		}
		v, err = c.emit(vmF2I, v.r, 0, 0, 0, 0, t)
		if err != nil {
			return v, err
		}
		return c.wrap(v, t)
	}
	s := xt.DecimalScale()
	var r reg
	rs := 0
	switch e.Name {
	case "floor", "ceil":
		op := vmDFloor
		if e.Name == "ceil" {
			op = vmDCeil
		}
		if r, err = c.emit(op, x.r, 0, 0, pow10(s), 0, t); err != nil {
			return r, err
		}
	default:
		keep := int(d)
		if keep >= s {
			r, rs = x, s
		} else {
			drop := s - keep
			if drop > 18 {
				// 0, keeping x's NULLs.
				if r, err = c.emit(vmMulK, x.r, 0, 0, 0, 0, t); err != nil {
					return r, err
				}
			} else {
				if r, err = c.emit(vmDivRoundK, x.r, 0, 0, pow10(drop), 0, t); err != nil {
					return r, err
				}
				if m := max(0, -keep); m > 0 {
					if r, err = c.emit(vmMulK, r.r, 0, 0, pow10(m), 0, t); err != nil {
						return r, err
					}
				}
			}
			rs = max(keep, 0)
		}
	}
	switch t.ID {
	case columnar.Decimal:
		return c.rescale(r, rs, t.Scale, t)
	case columnar.Float64:
		return c.emit(vmDec2F, r.r, 0, 0, fbits(math.Pow10(rs)), 0, t)
	}
	v, err := c.rescale(r, rs, 0, t)
	if err != nil {
		return v, err
	}
	return c.wrap(v, t)
}

// mapColRefs copies e with every column reference replaced by fn's result.
func mapColRefs(e sql.Expr, fn func(*sql.ColRef) sql.Expr) sql.Expr {
	switch x := e.(type) {
	case *sql.ColRef:
		return fn(x)
	case *sql.Binary:
		c := *x
		c.L, c.R = mapColRefs(x.L, fn), mapColRefs(x.R, fn)
		return &c
	case *sql.Not:
		return &sql.Not{E: mapColRefs(x.E, fn)}
	case *sql.Neg:
		return &sql.Neg{E: mapColRefs(x.E, fn)}
	case *sql.IsNull:
		c := *x
		c.E = mapColRefs(x.E, fn)
		return &c
	case *sql.InList:
		c := *x
		c.E = mapColRefs(x.E, fn)
		c.List = nil
		for _, it := range x.List {
			c.List = append(c.List, mapColRefs(it, fn))
		}
		return &c
	case *sql.Like:
		c := *x
		c.E = mapColRefs(x.E, fn)
		return &c
	case *sql.CodeSet:
		c := *x
		r, ok := mapColRefs(x.E, fn).(*sql.ColRef)
		if !ok {
			// A CodeSet tests a column's codes; over a computed string it
			// has no meaning on the device, and the compiler says so.
			return &sql.Func{Name: "codeset over an expression", T: columnar.TBool}
		}
		c.E = r
		return &c
	case *sql.Case:
		c := *x
		c.Whens = nil
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, sql.When{Cond: mapColRefs(w.Cond, fn), Result: mapColRefs(w.Result, fn)})
		}
		if x.Else != nil {
			c.Else = mapColRefs(x.Else, fn)
		}
		return &c
	case *sql.Cast:
		c := *x
		c.E = mapColRefs(x.E, fn)
		return &c
	case *sql.Func:
		c := *x
		c.Args = nil
		for _, a := range x.Args {
			c.Args = append(c.Args, mapColRefs(a, fn))
		}
		return &c
	}
	return e
}
