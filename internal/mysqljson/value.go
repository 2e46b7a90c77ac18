// Package mysqljson is JSON as MySQL 8 computes it: documents parsed into
// values that keep integers, unsigned integers, doubles and decimals apart,
// objects whose keys are unique (the last duplicate wins) and ordered by
// length then bytes, the normalized text form MySQL prints
// (`{"a": 1, "b": [1, 2]}`), path expressions and the JSON_* functions.
//
// encoding/json is not used: it reads every number as float64 (losing
// 2^53+1 and the int/double distinction JSON_TYPE reports), keeps no
// member order of its own and words errors unlike MySQL, whose messages
// ("Invalid value." at position N) users search for.
package mysqljson

import (
	"math"
	"sort"
)

// A Value is one of: nil (JSON null), bool, int64, uint64 (integers above
// int64's range), float64, string, []Value (array) or *Object.
//
// MySQL's binary JSON also keeps DECIMAL, DATE and DATETIME scalars; here
// a document is stored as text, so an SQL DECIMAL becomes a double (1.50
// prints as 1.5, JSON_TYPE says DOUBLE) and a date its quoted text.
type Value = any

// Object is a JSON object with unique keys kept in MySQL's order: shorter
// keys first, then by bytes.
type Object struct {
	Keys []string
	Vals []Value
}

func keyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// find is the index of key k, or where it would be inserted and false.
func (o *Object) find(k string) (int, bool) {
	i := sort.Search(len(o.Keys), func(i int) bool { return !keyLess(o.Keys[i], k) })
	return i, i < len(o.Keys) && o.Keys[i] == k
}

// Get is the value of key k.
func (o *Object) Get(k string) (Value, bool) {
	if i, ok := o.find(k); ok {
		return o.Vals[i], true
	}
	return nil, false
}

// Set gives key k the value v, replacing an earlier value (last wins, as
// MySQL treats duplicate keys).
func (o *Object) Set(k string, v Value) {
	i, ok := o.find(k)
	if ok {
		o.Vals[i] = v
		return
	}
	o.Keys = append(o.Keys, "")
	o.Vals = append(o.Vals, nil)
	copy(o.Keys[i+1:], o.Keys[i:])
	copy(o.Vals[i+1:], o.Vals[i:])
	o.Keys[i], o.Vals[i] = k, v
}

// Remove deletes key k.
func (o *Object) Remove(k string) bool {
	i, ok := o.find(k)
	if ok {
		o.Keys = append(o.Keys[:i], o.Keys[i+1:]...)
		o.Vals = append(o.Vals[:i], o.Vals[i+1:]...)
	}
	return ok
}

// TypeName is JSON_TYPE's answer.
func TypeName(v Value) string {
	switch v.(type) {
	case nil:
		return "NULL"
	case bool:
		return "BOOLEAN"
	case int64:
		return "INTEGER"
	case uint64:
		return "UNSIGNED INTEGER"
	case float64:
		return "DOUBLE"
	case string:
		return "STRING"
	case []Value:
		return "ARRAY"
	}
	return "OBJECT"
}

// Depth is JSON_DEPTH: 1 for scalars and empty containers.
func Depth(v Value) int64 {
	d := int64(0)
	switch x := v.(type) {
	case []Value:
		for _, e := range x {
			d = max(d, Depth(e))
		}
	case *Object:
		for _, e := range x.Vals {
			d = max(d, Depth(e))
		}
	}
	return d + 1
}

// Length is JSON_LENGTH: elements, members, or 1 for a scalar.
func Length(v Value) int64 {
	switch x := v.(type) {
	case []Value:
		return int64(len(x))
	case *Object:
		return int64(len(x.Keys))
	}
	return 1
}

// number reads a numeric value as a float64.
func number(v Value) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// Equal is MySQL's JSON equality: numbers compare by value across
// integer, unsigned and double; arrays element by element;
// objects key by key; other kinds only with their own kind.
func Equal(a, b Value) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		if !ok {
			return false
		}
		ia, aInt := a.(int64)
		ib, bInt := b.(int64)
		if aInt && bInt {
			return ia == ib
		}
		ua, aU := a.(uint64)
		ub, bU := b.(uint64)
		if aU && bU {
			return ua == ub
		}
		if (aInt && bU) || (aU && bInt) {
			return false // an int64 is never above math.MaxInt64
		}
		return fa == fb && !math.IsNaN(fa)
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []Value:
		y, ok := b.([]Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Object:
		y, ok := b.(*Object)
		if !ok || len(x.Keys) != len(y.Keys) {
			return false
		}
		for i, k := range x.Keys {
			if y.Keys[i] != k || !Equal(x.Vals[i], y.Vals[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// Clone copies the containers of v, so modifying the copy leaves v alone.
func Clone(v Value) Value {
	switch x := v.(type) {
	case []Value:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	case *Object:
		out := &Object{Keys: append([]string(nil), x.Keys...), Vals: make([]Value, len(x.Vals))}
		for i, e := range x.Vals {
			out.Vals[i] = Clone(e)
		}
		return out
	}
	return v
}
