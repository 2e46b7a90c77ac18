package columnar

import "sort"

// Dictionary is an order-preserving string dictionary: Values is sorted and
// distinct, and a code is an index into it, so code order is string order and
// equality, range and LIKE predicates become tests on codes evaluated once per
// dictionary entry instead of once per row.
type Dictionary struct {
	Values []string
}

// Len is the number of distinct strings.
func (d *Dictionary) Len() int { return len(d.Values) }

// CodeSpace is the length of a table indexed by the codes of a vector over
// d (the per-entry tables of IN, LIKE, casts and key remaps). It is
// Len() but at least 1: NULL rows carry code 0, also in a vector whose rows
// are all NULL and whose dictionary is therefore empty, and evaluators look
// codes up before the NULL flags decide the result.
func (d *Dictionary) CodeSpace() int { return max(len(d.Values), 1) }

// Lookup returns the code of s, or ok=false when s is not in the dictionary.
func (d *Dictionary) Lookup(s string) (code int32, ok bool) {
	i := sort.SearchStrings(d.Values, s)
	if i < len(d.Values) && d.Values[i] == s {
		return int32(i), true
	}
	return int32(i), false
}

// LowerBound returns the first code whose string is >= s (Len() when none),
// which turns a string range predicate into a code range.
func (d *Dictionary) LowerBound(s string) int32 {
	return int32(sort.SearchStrings(d.Values, s))
}

// BuildDictionary sorts and deduplicates strs into a dictionary.
func BuildDictionary(strs []string) *Dictionary {
	vals := append([]string(nil), strs...)
	sort.Strings(vals)
	out := vals[:0]
	for i, s := range vals {
		if i == 0 || s != vals[i-1] {
			out = append(out, s)
		}
	}
	return &Dictionary{Values: out}
}

// Merge returns the dictionary of the union of d and other with, for each,
// the mapping from its old codes to the merged codes. Appending rows whose
// strings are new re-codes the existing rows through the first mapping.
func (d *Dictionary) Merge(other *Dictionary) (merged *Dictionary, fromD, fromOther []int32) {
	a, b := d.Values, other.Values
	out := make([]string, 0, len(a)+len(b))
	fromD = make([]int32, len(a))
	fromOther = make([]int32, len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			fromD[i] = int32(len(out))
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			fromOther[j] = int32(len(out))
			out = append(out, b[j])
			j++
		default:
			fromD[i] = int32(len(out))
			fromOther[j] = int32(len(out))
			out = append(out, a[i])
			i++
			j++
		}
	}
	return &Dictionary{Values: out}, fromD, fromOther
}
