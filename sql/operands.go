package sql

import (
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Flip mirrors a comparison so that its operands can swap sides
// (a < b ⇔ b > a); other operators are returned unchanged.
func (op BinOp) Flip() BinOp {
	switch op {
	case OpLT:
		return OpGT
	case OpLE:
		return OpGE
	case OpGT:
		return OpLT
	case OpGE:
		return OpLE
	}
	return op
}

// OperandType is the type the executors bring two operands of a Binary to
// before comparing or combining them: DOUBLE if either is, else DECIMAL with
// the larger scale if either is decimal, else the integer type (BIGINT when
// they differ). Both executors use it, so they agree on every comparison the
// binder left with unequal operand types (decimal * and /, folded casts).
func OperandType(a, b columnar.Type) columnar.Type {
	switch {
	case a.ID == columnar.Vector && b.ID == columnar.Vector:
		return columnar.Type{ID: columnar.Vector} // any dimension: compared element-wise
	case a.ID == columnar.String && b.ID == columnar.String:
		return columnar.TString
	case a.ID == columnar.Float64 || b.ID == columnar.Float64:
		return columnar.TFloat64
	case a.IsWide() || b.IsWide():
		return columnar.TDecimal(decimal.MaxPrecision, max(a.DecimalScale(), b.DecimalScale()))
	case a.ID == columnar.Decimal || b.ID == columnar.Decimal:
		return columnar.TDecimalScaled(max(a.DecimalScale(), b.DecimalScale()))
	case a.ID == columnar.Datetime && b.ID == columnar.Datetime, a.ID == columnar.Time && b.ID == columnar.Time:
		if b.Scale > a.Scale {
			return b // the finer fsp: nothing rounds
		}
		return a
	case a.ID == b.ID:
		return a
	case a.Physical() == columnar.PhysInt32 && b.Physical() == columnar.PhysInt32 &&
		a.ID != columnar.String && b.ID != columnar.String:
		return columnar.TInt32
	case a.ID == columnar.String:
		return b
	case b.ID == columnar.String:
		return a
	}
	return columnar.TInt64
}
