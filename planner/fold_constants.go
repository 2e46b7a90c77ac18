package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// foldConstants simplifies the simple constant cases of an expression:
// arithmetic and comparisons of integer literals, NOT/IS NULL of literals,
// widening casts of literals, and the AND/OR identities that hold in
// three-valued logic (x AND TRUE = x, x AND FALSE = FALSE even for x NULL,
// x OR TRUE = TRUE, x OR FALSE = x). Anything that could fail at run time
// (division by zero, overflow) is left to the executor, so folding never
// changes an error into a result or back.
func foldConstants(e sql.Expr) sql.Expr {
	return rewriteExpr(e, foldNode)
}

func boolConst(b bool) *sql.Const {
	c := &sql.Const{T: columnar.TBool}
	if b {
		c.I = 1
	}
	return c
}

func constOf(e sql.Expr) (*sql.Const, bool) {
	c, ok := e.(*sql.Const)
	return c, ok
}

func isTrue(e sql.Expr) bool {
	c, ok := constOf(e)
	return ok && !c.Null && c.T.ID == columnar.Bool && c.I != 0
}

func isFalse(e sql.Expr) bool {
	c, ok := constOf(e)
	return ok && !c.Null && c.T.ID == columnar.Bool && c.I == 0
}

func foldNode(e sql.Expr) sql.Expr {
	switch x := e.(type) {
	case *sql.Binary:
		switch x.Op {
		case sql.OpAnd:
			switch {
			case isFalse(x.L) || isFalse(x.R):
				return boolConst(false)
			case isTrue(x.L):
				return x.R
			case isTrue(x.R):
				return x.L
			}
			return x
		case sql.OpOr:
			switch {
			case isTrue(x.L) || isTrue(x.R):
				return boolConst(true)
			case isFalse(x.L):
				return x.R
			case isFalse(x.R):
				return x.L
			}
			return x
		}
		l, lok := constOf(x.L)
		r, rok := constOf(x.R)
		if !lok || !rok {
			return x
		}
		if l.Null || r.Null {
			return &sql.Const{T: x.T, Null: true}
		}
		if l.T.Unsigned || r.T.Unsigned || x.T.Unsigned {
			return x // unsigned bit patterns: the executor reads them by type
		}
		// Only plain integers of one type: decimals carry scales and
		// doubles rounding that the executor owns.
		if !l.T.IsInteger() || l.T != r.T {
			return x
		}
		a, b := l.I, r.I
		switch x.Op {
		case sql.OpAdd, sql.OpSub, sql.OpMul:
			if !x.T.IsInteger() {
				return x
			}
			var v int64
			switch x.Op {
			case sql.OpAdd:
				v = a + b
				if (v > a) != (b > 0) {
					return x
				}
			case sql.OpSub:
				v = a - b
				if (v < a) != (b > 0) {
					return x
				}
			case sql.OpMul:
				if a != 0 && (a*b/a != b || (a == -1 && b == -1<<63)) {
					return x
				}
				v = a * b
			}
			if x.T.ID == columnar.Int32 && int64(int32(v)) != v {
				return x
			}
			return &sql.Const{T: x.T, I: v}
		case sql.OpEQ:
			return boolConst(a == b)
		case sql.OpNE:
			return boolConst(a != b)
		case sql.OpLT:
			return boolConst(a < b)
		case sql.OpLE:
			return boolConst(a <= b)
		case sql.OpGT:
			return boolConst(a > b)
		case sql.OpGE:
			return boolConst(a >= b)
		}
	case *sql.Not:
		if c, ok := constOf(x.E); ok && c.T.ID == columnar.Bool {
			if c.Null {
				return c
			}
			return boolConst(c.I == 0)
		}
	case *sql.IsNull:
		if c, ok := constOf(x.E); ok {
			return boolConst(c.Null != x.Negated)
		}
	case *sql.Neg:
		if c, ok := constOf(x.E); ok && c.T.IsInteger() && !c.T.Unsigned && c.I != -1<<63 {
			if c.Null {
				return c
			}
			return &sql.Const{T: c.T, I: -c.I}
		}
	case *sql.Cast:
		c, ok := constOf(x.E)
		if !ok || !c.T.IsInteger() || c.T.Unsigned || x.T.Unsigned {
			return x
		}
		if c.Null {
			return &sql.Const{T: x.T, Null: true}
		}
		switch x.T.ID {
		case columnar.Int64:
			return &sql.Const{T: x.T, I: c.I}
		case columnar.Float64:
			return &sql.Const{T: x.T, F: float64(c.I)}
		case columnar.Decimal:
			if x.T.IsWide() {
				if v, ok := sql.ConvertConst(c, x.T); ok {
					return v
				}
				return x
			}
			if x.T.Scale < len(columnar.Pow10) {
				p := columnar.Pow10[x.T.Scale]
				if v := c.I * p; v/p == c.I {
					return &sql.Const{T: x.T, I: v}
				}
			}
		}
	}
	return e
}
