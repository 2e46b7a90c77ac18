package mysqljson

import "math"

// StorageSize is JSON_STORAGE_SIZE: the bytes of MySQL's binary JSON
// encoding of v (sql/json_binary.cc, "JSON Utility Functions":
// '[100, "sakila", [1, 3, 5], 425.05]' takes 45). A document is a type
// byte and its value. An array or object is written in the small format
// (2-byte counts and offsets) unless it passes 64 KiB, then in the large
// one (4 bytes): a count and a size, per object member a key entry
// (offset, 2-byte length), per element a value entry (type byte and an
// offset, or the value itself when it fits in the offset's bytes:
// literals and 16-bit integers, 32-bit ones too in the large format),
// then the keys, then the values not inlined. A string is its length in
// 7-bit groups and its bytes; a number 2, 4 or 8 bytes by its range, a
// double 8.
func StorageSize(v Value) int64 {
	return 1 + int64(valueSize(v))
}

const smallLimit = math.MaxUint16

// valueSize is v's bytes after its type byte.
func valueSize(v Value) int {
	switch x := v.(type) {
	case nil, bool:
		return 1
	case int64:
		switch {
		case x >= math.MinInt16 && x <= math.MaxInt16:
			return 2
		case x >= math.MinInt32 && x <= math.MaxInt32:
			return 4
		}
		return 8
	case uint64:
		switch {
		case x <= math.MaxUint16:
			return 2
		case x <= math.MaxUint32:
			return 4
		}
		return 8
	case float64:
		return 8
	case string:
		return varLenSize(len(x)) + len(x)
	case []Value:
		if n := containerSize(nil, x, 2); n <= smallLimit {
			return n
		}
		return containerSize(nil, x, 4)
	case *Object:
		if n := containerSize(x.Keys, x.Vals, 2); n <= smallLimit {
			return n
		}
		return containerSize(x.Keys, x.Vals, 4)
	}
	return 0
}

// containerSize is an array's (keys nil) or object's bytes with offsets
// of the given width.
func containerSize(keys []string, vals []Value, offset int) int {
	n := 2*offset + len(vals)*(1+offset)
	for _, k := range keys {
		n += offset + 2 + len(k)
	}
	for _, v := range vals {
		if !inlined(v, offset == 4) {
			n += valueSize(v)
		}
	}
	return n
}

// inlined reports a value kept in its value entry.
func inlined(v Value, large bool) bool {
	switch x := v.(type) {
	case nil, bool:
		return true
	case int64:
		if x >= math.MinInt16 && x <= math.MaxInt16 {
			return true
		}
		return large && x >= math.MinInt32 && x <= math.MaxInt32
	case uint64:
		return x <= math.MaxUint16 || large && x <= math.MaxUint32
	}
	return false
}

// varLenSize is the bytes of a length written 7 bits a byte.
func varLenSize(n int) int {
	size := 1
	for n >= 1<<7 {
		n >>= 7
		size++
	}
	return size
}
