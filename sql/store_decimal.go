package sql

import (
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// decimalNeedsRangeCheck reports a store of a from value into a DECIMAL(p,s)
// column that may not hold it: a number of more integer digits than p-s
// (123456 into DECIMAL(5,2)). Such a value reaches the engine as a
// DECIMAL(18,s) (decimalStoreType: rounded to the column's scale as CAST
// rounds), which checks it against the precision row by row (MySQL's 1264
// in strict mode): a Cast to the column's type would keep 123456.00 in a
// DECIMAL(5,2).
//
// A DECIMAL of more than 18 digits reaches it unchanged and a BIGINT
// UNSIGNED as DECIMAL(20,0) (decimalStoreType): a cast to DECIMAL(18,s)
// would be NULL for 10^20 or 2^64 - 1, stored silently.
func decimalNeedsRangeCheck(from, to columnar.Type) bool {
	if to.ID != columnar.Decimal || to.IsWide() || to.Precision <= 0 {
		return false
	}
	switch {
	case from.IsWide(), from.IsBigUnsigned():
		return true
	case from.ID == columnar.Decimal:
		return from.Precision-from.Scale > to.Precision-to.Scale
	case from.ID == columnar.Float64, from.ID == columnar.Int64 && !from.Unsigned, from.ID == columnar.Int32 && !from.Year:
		return true
	}
	return false
}

// decimalStoreType is the type such a value reaches the engine in: the
// column's scale, the widest precision of an int64 DECIMAL; a wide DECIMAL
// its own type, which the engine rounds to the column's scale as it
// stores it (widesInto).
func decimalStoreType(from, to columnar.Type) columnar.Type {
	if from.IsWide() {
		return from
	}
	if from.IsBigUnsigned() {
		return columnar.TDecimal(20, 0) // 2^64 - 1 exactly, which DECIMAL(18,s) is not
	}
	// A DOUBLE (1e30) or BIGINT (9e18) past DECIMAL(18,s) would fail the
	// cast (1690) where MySQL stores into the column: 1264 in strict mode,
	// clipped to the column's largest value with 1264 otherwise. The wide
	// DECIMAL carries it to the engine's range check, a DOUBLE's at 76
	// digits so that one past 10^(65-s) (1e70) gets there too.
	if from.ID == columnar.Float64 {
		return columnar.TDecimal(decimal.CarryPrecision, to.Scale)
	}
	if digits := integerDigits(from); digits+to.Scale > maxDecimalPrecision {
		return columnar.TDecimal(decimal.MaxPrecision, to.Scale)
	}
	return columnar.TDecimal(maxDecimalPrecision, to.Scale)
}

// integerDigits is the most digits an integer type's values have (0 for
// another type).
func integerDigits(t columnar.Type) int {
	switch t.ID {
	case columnar.Int64:
		return 19
	case columnar.Int32:
		return 10
	}
	return 0
}

// StoresText reports a store of text into a number column that INSERT ...
// SELECT and UPDATE leave to the engine, which reads the text naming the
// column and row as MySQL's errors and warnings do (engine/store_text.go).
func StoresText(from, to columnar.Type) bool {
	if from.ID != columnar.String || from.JSON || from.Members != "" {
		return false
	}
	switch {
	case to.Year || to.IsWide() || to.IsBigUnsigned():
		return false
	case to.ID == columnar.Int32, to.ID == columnar.Int64, to.ID == columnar.Decimal, to.ID == columnar.Float64:
		return true
	}
	return false
}

// computesText reports a row of v whose value for column i is computed
// text (not a constant).
func computesText(v *Values, i int) bool {
	for _, row := range v.Rows {
		if i < len(row) && row[i] != nil && row[i].Type().ID == columnar.String {
			if _, isConst := row[i].(*Const); !isConst {
				return true
			}
		}
	}
	return false
}
