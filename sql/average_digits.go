package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// MySQL computes AVG as it computes '/': the sum divided by the count at
// the digits its decimal library keeps, 9 for integers, cut, printed with
// the argument's scale + 4 (division_digits.go). AVG(b) * 3 of BIGINTs 1,
// 1, 2 is 1.333333333 * 3, 3.999999999, printed 4.0000. An average of
// values of more than 9 integer digits (BIGINT, or a DECIMAL(15,2)) keeps
// those 9 digits in a wide DECIMAL, which the CPU computes: at 9 fraction
// digits it could leave the int64 the GPU divides in.
//
// Where the average is only printed (a column of the statement, or of a
// set operation's arm or a materialized derived table, whose rows MySQL
// stores at the printed scale, or sorted by: sort keys keep the printed
// digits too), it is computed at the printed scale, rounded, in an int64:
// rounding the cut 9 digits to 4 gives what rounding the exact average
// does (cutting lowers the magnitude by less than 10^-9, and a value that
// rounds up, at least ...5 at the 5th digit, is cut to at least that), so
// the GPU can still compute it.

// bigAverage reports an AVG argument type whose 9-digit average may leave
// the int64.
func bigAverage(t columnar.Type) bool {
	d := asDecimal(t)
	return t.ID == columnar.Int64 || t.ID == columnar.Decimal && d.Precision-d.Scale > 9
}

// printedAverage is the type of AVG ae computed at its printed scale in
// an int64 (ok false where ae is not a wide average of bigAverage values
// that are int64s: a wide DECIMAL's or BIGINT UNSIGNED's average is
// computed wide whatever reads it, and so is every one where exact asks
// for SUM and AVG computed exactly, Parsed.ExactDecimals).
func printedAverage(ae AggExpr, exact bool) (columnar.Type, bool) {
	if ae.Func != AggAvg || ae.Arg == nil || !ae.T.IsWide() || exact {
		return columnar.Type{}, false
	}
	t := ae.Arg.Type()
	nt, ok := numericType(t)
	if !ok || !bigAverage(nt) || t.IsWide() || t.IsBigUnsigned() || nt.IsWide() || nt.IsBigUnsigned() {
		return columnar.Type{}, false
	}
	s := asDecimal(nt).Scale + 4
	if DivisionScale(asDecimal(nt).Scale, 0) >= maxDecimalPrecision || s >= maxDecimalPrecision {
		return columnar.Type{}, false
	}
	return columnar.TDecimal(maxDecimalPrecision, s), true
}

// narrowPrintedAverages gives each wide AVG of a block whose columns are
// printed (block.printed) its printed scale where every call of it is a
// select-list item or ORDER BY key by itself: nothing computes with or
// compares its further digits.
func (b *binder) narrowPrintedAverages(a *aggScope, items []selItem, orderBy []*ast.ByItem) {
	alone := map[*ast.AggregateFuncExpr]bool{}
	for _, it := range items {
		if x, ok := unparen(it.node).(*ast.AggregateFuncExpr); ok {
			alone[x] = true
		}
	}
	for _, by := range orderBy {
		if x, ok := unparen(by.Expr).(*ast.AggregateFuncExpr); ok {
			alone[x] = true
		}
	}
	readFurther := map[int]bool{}
	for x, i := range a.aggs {
		readFurther[i] = readFurther[i] || !alone[x]
	}
	for i, ae := range a.aggFuncs {
		if t, ok := printedAverage(ae, b.exactDecimals); ok && !readFurther[i] {
			a.aggFuncs[i].T = t
		}
	}
}
