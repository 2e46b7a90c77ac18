package mysqljson

import (
	"math"
	"strings"
)

// Compare orders two JSON values as MySQL compares them (the manual's
// "Comparison and Ordering of JSON Values"): values of different types by
// type precedence, BOOLEAN > ARRAY > OBJECT > STRING > numbers > null;
// numbers by value (integers, unsigned and doubles together); strings by
// their bytes, a prefix first; arrays element by element, then the
// shorter first; false < true. MySQL leaves unequal objects unordered;
// here they order by size, then keys, then values, so ORDER BY is stable.
func Compare(a, b Value) int {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return cmp3(ra, rb)
	}
	switch x := a.(type) {
	case nil:
		return 0
	case bool:
		return cmp3(boolRank(x), boolRank(b.(bool)))
	case string:
		return strings.Compare(x, b.(string))
	case []Value:
		y := b.([]Value)
		for i := 0; i < len(x) && i < len(y); i++ {
			if c := Compare(x[i], y[i]); c != 0 {
				return c
			}
		}
		return cmp3(len(x), len(y))
	case *Object:
		y := b.(*Object)
		if c := cmp3(len(x.Keys), len(y.Keys)); c != 0 {
			return c
		}
		for i, k := range x.Keys {
			if k != y.Keys[i] {
				if keyLess(k, y.Keys[i]) {
					return -1
				}
				return 1
			}
			if c := Compare(x.Vals[i], y.Vals[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	return compareNumbers(a, b)
}

// rank is the type's place in MySQL's precedence (higher sorts later).
func rank(v Value) int {
	switch v.(type) {
	case nil:
		return 0
	case string:
		return 2
	case *Object:
		return 3
	case []Value:
		return 4
	case bool:
		return 5
	}
	return 1 // int64, uint64, float64
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmp3[T int | int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareNumbers compares integers exactly and anything with a double as
// doubles (an int64 and uint64 by sign first).
func compareNumbers(a, b Value) int {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmp3(x, y)
		case uint64:
			if x < 0 {
				return -1
			}
			return cmp3(uint64(x), y)
		}
	case uint64:
		switch y := b.(type) {
		case uint64:
			return cmp3(x, y)
		case int64:
			return -compareNumbers(y, x)
		}
	}
	fa, _ := number(a)
	fb, _ := number(b)
	if math.IsNaN(fa) || math.IsNaN(fb) {
		return 0
	}
	return cmp3(fa, fb)
}

// SortKey is bytes whose order (as strings) is Compare's order, so an
// ORDER BY of JSON values sorts a string key. Each value is self-
// delimiting: a type byte (precedence + 1, above the 0 that ends an array
// or string), then numbers as 8 order-preserving bytes of their double,
// strings with 0x00 escaped as 00 FF and ended by 00 00, arrays their
// elements then 00, objects their size then (key length, key, value)
// pairs, booleans one byte. Integers beyond 2^53 that round to the same
// double get the same key (ORDER BY keeps such ties in input order).
func SortKey(v Value) string {
	var b []byte
	return string(appendKey(b, v))
}

func appendKey(b []byte, v Value) []byte {
	b = append(b, byte(rank(v)+1))
	switch x := v.(type) {
	case nil:
	case bool:
		b = append(b, byte(boolRank(x)))
	case string:
		b = appendEscaped(b, x)
	case []Value:
		for _, e := range x {
			b = appendKey(b, e)
		}
		b = append(b, 0)
	case *Object:
		b = appendUint32(b, uint32(len(x.Keys)))
		for i, k := range x.Keys {
			b = appendUint32(b, uint32(len(k)))
			b = append(b, k...)
			b = appendKey(b, x.Vals[i])
		}
	default:
		f, _ := number(v)
		bits := math.Float64bits(f)
		if f == 0 {
			bits = 0 // -0 and 0 are one value
		}
		if bits>>63 == 1 {
			bits = ^bits
		} else {
			bits |= 1 << 63
		}
		for s := 56; s >= 0; s -= 8 {
			b = append(b, byte(bits>>s))
		}
	}
	return b
}

func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			b = append(b, 0, 0xFF)
			continue
		}
		b = append(b, s[i])
	}
	return append(b, 0, 0)
}

func appendUint32(b []byte, n uint32) []byte {
	return append(b, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}
