package sql

import "gpusql/storage/columnar"

// ROUND(X, D) and TRUNCATE(X, D) with a D that is not a constant (a
// column, an expression): MySQL rounds each row by its own D and, not
// knowing D ahead, keeps X's type: a DECIMAL its scale (ROUND(1.298, d)
// with d = 1 is 1.300), an integer stays an integer, a DOUBLE a DOUBLE.
// They bind as round_var / truncate_var, computed per row on the CPU
// (exec/cpu/rowfunc_round_var.go); the GPU's expression VM has neither.

// roundVarFuncs are the internal names, computed row by row (and
// unsigned_count, functions_more.go's count).
var roundVarFuncs = map[string]bool{"round_var": true, "truncate_var": true, "unsigned_count": true}

// roundVar binds fn ("round" or "truncate") of x by the per-row digits d.
func (b *binder) roundVar(fn string, x, d Expr, pos int) (Expr, error) {
	t := x.Type()
	if _, ok := numericType(t); !ok {
		return nil, b.errf(pos, "type mismatch: %s() of %s", fn, t)
	}
	if t.IsWide() || t.IsBigUnsigned() {
		return nil, b.errf(pos, "unsupported: %s() of %s with a non-constant number of digits", fn, t)
	}
	if _, ok := numericType(d.Type()); !ok && !isNullConst(d) {
		return nil, b.errf(pos, "type mismatch: %s() digits of %s", fn, d.Type())
	}
	switch {
	case t.ID == columnar.Float64:
		t = columnar.TFloat64 // no fixed decimals: D is not known
	case t.IsInteger() || t.ID == columnar.Bool:
		t = columnar.TInt64
	}
	return &Func{Name: fn + "_var", Args: []Expr{castTo(x, t), castTo(d, columnar.TInt64)}, T: t}, nil
}
