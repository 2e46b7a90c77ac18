package sql

import (
	"fmt"

	"gpusql/storage/columnar"
)

// VECTOR values in SQL (TiDB's semantics): a string converts to a vector
// by parsing its text form '[1,2,3]' (on INSERT, in comparisons with a
// vector, in CAST and the vector functions); a vector converts to a string
// by printing that form. Vectors compare element by element. A vector of
// the wrong length for a VECTOR(n) target is an error naming both lengths.

// convertVectorConst folds a conversion of a constant to or from VECTOR.
func convertVectorConst(c *Const, t columnar.Type) (*Const, bool) {
	switch {
	case c.T.ID == columnar.Vector && t.ID == columnar.Vector:
		if columnar.CheckVectorDim(len(c.V), t) != nil {
			return nil, false
		}
		return &Const{T: t, V: c.V}, true
	case c.T.ID == columnar.Vector && t.ID == columnar.String:
		return &Const{T: t, S: columnar.VectorText(c.V)}, true
	case c.T.ID == columnar.String && t.ID == columnar.Vector:
		v, err := parseVectorConst(c.S, t)
		if err != nil {
			return nil, false
		}
		return &Const{T: t, V: v}, true
	}
	return nil, false
}

// vectorConstError says why constant c does not convert to t, a VECTOR
// type (nil when it does, or t is not a VECTOR).
func vectorConstError(c *Const, t columnar.Type) error {
	if t.ID != columnar.Vector || c.Null {
		return nil
	}
	switch c.T.ID {
	case columnar.Vector:
		return columnar.CheckVectorDim(len(c.V), t)
	case columnar.String:
		_, err := parseVectorConst(c.S, t)
		return err
	}
	return fmt.Errorf("type mismatch: cannot convert %s to %s", c.T, t)
}

func parseVectorConst(s string, t columnar.Type) ([]float32, error) {
	v, err := columnar.ParseVector(nil, []byte(s))
	if err != nil {
		return nil, err
	}
	if v == nil {
		v = []float32{}
	}
	return v, columnar.CheckVectorDim(len(v), t)
}

// vectorCompareType is the type a comparison involving a vector is made
// in: a vector with a vector or a string (the string is parsed).
func vectorCompareType(a, b columnar.Type) (columnar.Type, error) {
	switch {
	case a.ID == columnar.Vector && b.ID == columnar.Vector:
		return columnar.Type{ID: columnar.Vector}, nil
	case a.ID == columnar.String, b.ID == columnar.String:
		return columnar.Type{ID: columnar.Vector}, nil
	}
	return a, fmt.Errorf("type mismatch: cannot compare %s with %s", a, b)
}

// vectorUnionType is the type of a CASE/COALESCE/UNION column mixing a
// vector with a vector or a string.
func vectorUnionType(a, b columnar.Type) (columnar.Type, error) {
	switch {
	case a.ID == columnar.Vector && b.ID == columnar.Vector:
		if a.Dim == b.Dim {
			return a, nil
		}
		return columnar.Type{ID: columnar.Vector}, nil
	case a.ID == columnar.String, b.ID == columnar.String:
		return columnar.Type{ID: columnar.Vector}, nil
	}
	return a, fmt.Errorf("type mismatch: cannot combine %s with %s", a, b)
}
