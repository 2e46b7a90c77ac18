package sql

import (
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"gpusql/storage/columnar"
)

// MySQL's bit operators & | ^ << >> ~ work on 64-bit unsigned integers:
// operands are converted to BIGINT (doubles and decimals rounded) and
// their two's-complement bits read as unsigned; a shift by 64 or more
// gives 0. The result is BIGINT UNSIGNED: ~0 is 18446744073709551615 and
// 1 << 63 is 9223372036854775808 (exec/cpu/rowfunc_bits.go).
var bitOpFuncs = map[opcode.Op]string{
	opcode.And: "bitand", opcode.Or: "bitor", opcode.Xor: "bitxor",
	opcode.LeftShift: "shiftleft", opcode.RightShift: "shiftright",
}

// BitOpSymbols give each bit function its operator for messages.
var BitOpSymbols = map[string]string{
	"bitand": "&", "bitor": "|", "bitxor": "^", "shiftleft": "<<", "shiftright": ">>", "bitneg": "~",
}

func init() {
	for name := range BitOpSymbols {
		moreFuncs[name] = true
	}
}

// bitOperand converts one operand of a bit operator to BIGINT.
func (b *binder) bitOperand(e Expr, sym string, pos int) (Expr, error) {
	if isNullConst(e) {
		return nullConst(columnar.TInt64), nil
	}
	if e.Type().ID == columnar.Bool || e.Type().Unsigned {
		return castTo(e, columnar.TInt64), nil // the same 64 bits
	}
	if _, ok := numericType(e.Type()); !ok {
		return nil, b.errf(pos, "type mismatch: %s %s (a number is required)", e.Type(), sym)
	}
	return castTo(e, columnar.TInt64), nil
}

func (b *binder) bitBinary(name string, l, r Expr, pos int) (Expr, error) {
	sym := BitOpSymbols[name]
	l, err := b.bitOperand(l, sym, pos)
	if err != nil {
		return nil, err
	}
	if r, err = b.bitOperand(r, sym, pos); err != nil {
		return nil, err
	}
	return &Func{Name: name, Args: []Expr{l, r}, T: columnar.TUint64}, nil
}

func (b *binder) bitNegate(e Expr, pos int) (Expr, error) {
	e, err := b.bitOperand(e, "~", pos)
	if err != nil {
		return nil, err
	}
	return &Func{Name: "bitneg", Args: []Expr{e}, T: columnar.TUint64}, nil
}
