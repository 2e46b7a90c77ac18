package cpu

import (
	"math"
	"sync"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Keys of joins, group-bys, DISTINCT and set operations are compared as
// int64 words: integers, dates, booleans and decimals widen, doubles become
// their bits (with -0 folded into 0 and every NaN into one), and strings
// become ids from an interner shared by both inputs (codes of different
// dictionaries are not comparable, the strings are).

// interner assigns dense ids to strings; safe for concurrent use. Mapping a
// dictionary costs one lookup per distinct string, once per dictionary.
type interner struct {
	mu    sync.Mutex
	ids   map[string]int32
	vals  []string
	dicts map[*columnar.Dictionary][]int32
	// base is a dictionary whose codes are the first ids, so columns of
	// that dictionary need no mapping at all.
	base *columnar.Dictionary
	// wide and wideVals intern wide DECIMAL keys by their words
	// (wide_keys.go).
	wide     map[decimal.Num]int32
	wideVals []decimal.Num
}

func newInterner(base *columnar.Dictionary) *interner {
	in := &interner{ids: map[string]int32{}, dicts: map[*columnar.Dictionary][]int32{}}
	if base != nil {
		in.base = base
		in.vals = append(in.vals, base.Values...)
		for i, s := range base.Values {
			in.ids[s] = int32(i)
		}
	}
	return in
}

// mapDict returns the ids of d's codes (nil: identity, d is the base). With
// insert false, strings not yet interned map to -1 (they match nothing).
func (in *interner) mapDict(d *columnar.Dictionary, insert bool) []int32 {
	if d == in.base && d != nil {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if m, ok := in.dicts[d]; ok {
		return m
	}
	m := make([]int32, d.CodeSpace())
	for i, s := range d.Values {
		id, ok := in.ids[s]
		if !ok {
			if insert {
				id = int32(len(in.vals))
				in.ids[s] = id
				in.vals = append(in.vals, s)
			} else {
				id = -1
			}
		}
		m[i] = id
	}
	// Lookup-only maps are cached too: probes run after the build side has
	// interned all its strings, so a string missing now stays missing.
	in.dicts[d] = m
	return m
}

// forget drops the mappings of the dictionaries of cols (a spilled
// block's own, used once).
func (in *interner) forget(cols []*vec) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, v := range cols {
		if v != nil && v.dict != nil {
			delete(in.dicts, v.dict)
		}
	}
}

// strings returns the interned strings (id order).
func (in *interner) strings() []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]string(nil), in.vals...)
}

// keyEncoder writes one key column of a batch as int64 words.
type keyEncoder struct {
	t      columnar.Type
	in     *interner
	insert bool
	last   *columnar.Dictionary
	lastM  []int32
}

// encode writes v's words at sel into out and NULL flags into nulls (which
// it returns true for when any selected value is NULL).
func (k *keyEncoder) encode(v *vec, sel []int32, out []int64, nulls []bool) bool {
	switch {
	case k.t.ID == columnar.Vector:
		k.encodeVectors(v, sel, out)
	case k.t.IsWide():
		k.encodeWide(v, sel, out)
	case k.t.ID == columnar.String:
		if v.dict != k.last || k.last == nil {
			k.last, k.lastM = v.dict, k.in.mapDict(v.dict, k.insert)
		}
		m := k.lastM
		if m == nil {
			for _, p := range sel {
				out[p] = int64(v.i32[p])
			}
		} else {
			for _, p := range sel {
				out[p] = int64(m[v.i32[p]])
			}
		}
	case v.i32 != nil:
		for _, p := range sel {
			out[p] = int64(v.i32[p])
		}
	case v.i64 != nil:
		for _, p := range sel {
			out[p] = v.i64[p]
		}
	default:
		for _, p := range sel {
			out[p] = floatKey(v.f64[p])
		}
	}
	if v.nulls == nil {
		return false
	}
	any := false
	for _, p := range sel {
		nulls[p] = v.nulls[p]
		any = any || v.nulls[p]
	}
	return any
}

func floatKey(f float64) int64 {
	if f == 0 {
		return 0
	}
	if f != f {
		return int64(math.Float64bits(math.NaN()))
	}
	return int64(math.Float64bits(f))
}

// decodeKey turns key words back into a column of type t.
func decodeKey(t columnar.Type, words []int64, nulls []bool, in *interner) *columnar.Column {
	n := len(words)
	hasNull := false
	for _, x := range nulls {
		hasNull = hasNull || x
	}
	if t.ID == columnar.Vector {
		return decodeVectorKey(t, words, nulls, in)
	}
	col := newColumn(t, n, hasNull)
	if t.IsWide() {
		decodeWideKey(col, words, nulls, in)
		return col
	}
	switch {
	case t.ID == columnar.String:
		strs := in.strings()
		if in.base != nil && len(strs) == in.base.Len() {
			col.Dict = in.base
			for i, w := range words {
				col.I32[i] = int32(w)
			}
		} else {
			used := make([]string, 0)
			seen := map[int64]bool{}
			for i, w := range words {
				if (nulls == nil || !nulls[i]) && !seen[w] {
					seen[w] = true
					used = append(used, strs[w])
				}
			}
			d := columnar.BuildDictionary(used)
			col.Dict = d
			for i, w := range words {
				if nulls == nil || !nulls[i] {
					c, _ := d.Lookup(strs[w])
					col.I32[i] = c
				}
			}
		}
	case col.I32 != nil:
		for i, w := range words {
			col.I32[i] = int32(w)
		}
	case col.I64 != nil:
		copy(col.I64, words)
	default:
		for i, w := range words {
			col.F64[i] = math.Float64frombits(uint64(w))
		}
	}
	if hasNull {
		for i := range words {
			if nulls[i] {
				col.SetNull(i)
			} else {
				col.SetValid(i)
			}
		}
	}
	return col
}

// hashWords mixes key words into a 64-bit hash (multiplicative mixing,
// finalized so that the high bits, used for the bucket, depend on every
// input bit).
func hashWords(h uint64, w int64) uint64 {
	h ^= uint64(w)
	h *= 0x9E3779B97F4A7C15
	return h ^ (h >> 29)
}
