package sql

import (
	"strings"

	"gpusql/storage/columnar"
)

// The vector functions, as TiDB defines them (elements are float32 and so
// is the arithmetic; results are DOUBLE; NULL in gives NULL out):
//
//	vec_from_text(s)                  VECTOR parsed from '[1,2,3]' (error when s is not one)
//	vec_as_text(v)                    VARCHAR '[1,2,3]'
//	vec_dims(v)                       BIGINT, the number of elements
//	vec_l2_norm(v)                    DOUBLE sqrt(Σ v²)
//	vec_l2_distance(a, b)             DOUBLE sqrt(Σ (a-b)²)
//	vec_cosine_distance(a, b)         DOUBLE 1 - a·b/(|a||b|), clamped to [0, 2];
//	                                  NULL when either vector is zero
//	vec_negative_inner_product(a, b)  DOUBLE -(a·b)
//	vec_l1_distance(a, b)             DOUBLE Σ |a-b|
//	a + b, a - b                      VECTOR, element by element (float32; an
//	                                  overflow to infinity is an error)
//
// A string argument is parsed as a vector. The two vectors of a distance
// must have the same number of elements: declared dimensions that differ
// are an error at bind time, other mismatches when the row is reached,
// naming both dimensions.

// vectorDistances are the two-vector functions.
var vectorDistances = map[string]bool{"vec_l2_distance": true, "vec_cosine_distance": true,
	"vec_negative_inner_product": true, "vec_l1_distance": true}

// IsVectorFunc reports whether a bound Func is one of the vector functions
// exec/cpu evaluates over vectors (vec_from_text and vec_as_text bind to
// casts).
func IsVectorFunc(name string) bool {
	return vectorDistances[name] || name == "vec_dims" || name == "vec_l2_norm"
}

func (c *call) vectorFunc() (Expr, bool, error) {
	switch {
	case c.name == "vec_from_text", c.name == "vec_as_text", c.name == "vec_dims", c.name == "vec_l2_norm":
		if err := c.arity(1, 1); err != nil {
			return nil, true, err
		}
		if c.name == "vec_from_text" && c.args[0].Type().ID != columnar.String && !isNullConst(c.args[0]) {
			return nil, true, c.b.errf(c.pos, "type mismatch: vec_from_text() of %s (a string is required)", c.args[0].Type())
		}
		v, err := c.vector(c.args[0])
		if err != nil {
			return nil, true, err
		}
		switch c.name {
		case "vec_from_text":
			return v, true, nil
		case "vec_as_text":
			return castTo(v, columnar.TString), true, nil
		case "vec_dims":
			return c.fn(columnar.TInt64, v)
		}
		return c.fn(columnar.TFloat64, v)
	case vectorDistances[c.name]:
		if err := c.arity(2, 2); err != nil {
			return nil, true, err
		}
		a, err := c.vector(c.args[0])
		if err != nil {
			return nil, true, err
		}
		b, err := c.vector(c.args[1])
		if err != nil {
			return nil, true, err
		}
		if da, db := vectorDim(a), vectorDim(b); da >= 0 && db >= 0 && da != db {
			return nil, true, c.b.errf(c.pos, "%s(): vectors have different dimensions %d and %d", c.name, da, db)
		}
		return c.fn(columnar.TFloat64, a, b)
	}
	return nil, false, nil
}

// vector converts a function argument to VECTOR: strings are parsed (a
// literal here, with its error), NULL stays NULL, other types are an error.
func (c *call) vector(e Expr) (Expr, error) {
	switch {
	case isNullConst(e):
		return nullConst(columnar.Type{ID: columnar.Vector}), nil
	case e.Type().ID == columnar.Vector:
		return e, nil
	case e.Type().ID == columnar.String:
		t := columnar.Type{ID: columnar.Vector}
		if k, ok := e.(*Const); ok {
			if err := vectorConstError(k, t); err != nil {
				return nil, c.b.errf(c.pos, "%s(): %v", c.name, err)
			}
		}
		return castTo(e, t), nil
	}
	if strings.HasPrefix(c.name, "operator") {
		return nil, c.b.errf(c.pos, "type mismatch: %s does not apply to %s and VECTOR", c.name, e.Type())
	}
	return nil, c.b.errf(c.pos, "type mismatch: %s() of %s (a VECTOR is required)", c.name, e.Type())
}

// vectorDim is the number of elements every value of e has, or -1 when
// it is not known before running.
func vectorDim(e Expr) int {
	if k, ok := e.(*Const); ok && !k.Null {
		return len(k.V)
	}
	if d := e.Type().Dim; d > 0 {
		return d
	}
	return -1
}

// vectorArith binds v + w and v - w: element-wise float32 sums of two
// vectors of one dimension (TiDB's vector arithmetic); a string operand is
// parsed as a vector. Other operators do not apply to vectors.
func (b *binder) vectorArith(op BinOp, l, r Expr, pos int) (Expr, error) {
	if op != OpAdd && op != OpSub {
		bad := l.Type()
		if bad.ID != columnar.Vector {
			bad = r.Type()
		}
		return nil, b.errf(pos, "type mismatch: operator %s does not apply to %s (vectors add and subtract element by element)", op, bad)
	}
	c := &call{b: b, name: "operator " + op.String(), pos: pos}
	lv, err := c.vector(l)
	if err != nil {
		return nil, err
	}
	rv, err := c.vector(r)
	if err != nil {
		return nil, err
	}
	t := columnar.Type{ID: columnar.Vector}
	switch dl, dr := vectorDim(lv), vectorDim(rv); {
	case dl >= 0 && dr >= 0 && dl != dr:
		return nil, b.errf(pos, "operator %s: vectors have different dimensions %d and %d", op, dl, dr)
	case lv.Type().Dim > 0:
		t.Dim = lv.Type().Dim
	case rv.Type().Dim > 0:
		t.Dim = rv.Type().Dim
	}
	return &Binary{Op: op, L: lv, R: rv, T: t}, nil
}
