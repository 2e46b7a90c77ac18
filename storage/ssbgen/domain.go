package ssbgen

import (
	"slices"
	"strconv"

	"gpusql/storage/columnar"
)

// domain is the known vocabulary of a generated string column: the
// generator draws an index into values, and code[i] is the code of
// values[i] in the column's sorted dictionary, which is known before a
// row is drawn. A column then costs a table lookup per row, never a hash
// of its string.
//
// The loader's dictionary holds only the strings that occur. At small
// scale factors some of a vocabulary may not occur, so workers record the
// codes they wrote (codeSet) and finish drops the absent ones, rewriting
// the codes.
type domain struct {
	sorted []string
	code   []int32
}

func newDomain(values []string) domain {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	d := domain{sorted: sorted, code: make([]int32, len(values))}
	for i, v := range values {
		r, _ := slices.BinarySearch(sorted, v)
		d.code[i] = int32(r)
	}
	return d
}

// codeSet records which codes of a domain occur, one bit per code.
type codeSet []uint64

func (d domain) newSet() codeSet { return make(codeSet, (len(d.sorted)+63)/64) }

func (s codeSet) add(code int32) { s[code>>6] |= 1 << (code & 63) }

func (s codeSet) has(code int) bool { return s[code>>6]&(1<<(code&63)) != 0 }

// union of the workers' sets.
func union(sets []codeSet) codeSet {
	out := slices.Clone(sets[0])
	for _, s := range sets[1:] {
		for i, w := range s {
			out[i] |= w
		}
	}
	return out
}

// finish gives col the dictionary of the codes in used and, when some of
// the domain is absent, renumbers col's codes to that dictionary's.
func (d domain) finish(col *columnar.Column, used codeSet, workers int) {
	var present []string
	remap := make([]int32, len(d.sorted))
	for r, s := range d.sorted {
		if used.has(r) {
			remap[r] = int32(len(present))
			present = append(present, s)
		}
	}
	col.Dict = &columnar.Dictionary{Values: present}
	if len(present) == len(d.sorted) {
		return
	}
	const span = 1 << 20
	parallelFor((col.Len+span-1)/span, workers, func(_, b int) {
		v := col.I32[b*span : min(col.Len, (b+1)*span)]
		for i, c := range v {
			v[i] = remap[c]
		}
	})
}

// vocabulary builds the domain of n values, value i made by appendValue.
func vocabulary(n int, appendValue func(dst []byte, i int) []byte) domain {
	values := make([]string, n)
	for i := range values {
		values[i] = string(appendValue(nil, i))
	}
	return newDomain(values)
}

// The string vocabularies of lineorder, customer, supplier and part, each
// indexed as the generator draws it.
var (
	priorityDomain     = newDomain(priorities[:])
	shipModeDomain     = newDomain(shipModes[:])
	shipPriorityDomain = newDomain([]string{"0"})

	nationDomain  = vocabulary(len(nations), func(d []byte, i int) []byte { return append(d, nations[i].name...) })
	regionDomain  = newDomain(regions[:])
	segmentDomain = newDomain(segments[:])
	// cityDomain is indexed nation×10 + digit.
	cityDomain = vocabulary(len(nations)*10, func(d []byte, i int) []byte {
		return appendCity(d, nations[i/10].name, i%10)
	})

	colorDomain = newDomain(colors[:])
	// partNameDomain is indexed first color×len(colors) + second color;
	// the pairs of one color twice never occur.
	partNameDomain = vocabulary(len(colors)*len(colors), func(d []byte, i int) []byte {
		return appendPartName(d, i/len(colors), i%len(colors))
	})
	// mfgrDomain is indexed m−1, categoryDomain (m−1)×5 + c−1 and
	// brandDomain ((m−1)×5 + c−1)×40 + b−1.
	mfgrDomain = vocabulary(5, func(d []byte, i int) []byte {
		return strconv.AppendInt(append(d, "MFGR#"...), int64(i+1), 10)
	})
	categoryDomain = vocabulary(25, func(d []byte, i int) []byte { return appendCategory(d, i/5+1, i%5+1) })
	brandDomain    = vocabulary(1000, func(d []byte, i int) []byte {
		return appendBrand(d, i/200+1, i/40%5+1, i%40+1)
	})
	// typeDomain is indexed (s1×5 + s2)×5 + s3, containerDomain s1×8 + s2.
	typeDomain = vocabulary(len(typeSyllable1)*len(typeSyllable2)*len(typeSyllable3), func(d []byte, i int) []byte {
		n2, n3 := len(typeSyllable2), len(typeSyllable3)
		return appendType(d, [3]int{i / (n2 * n3), i / n3 % n2, i % n3})
	})
	containerDomain = vocabulary(len(containerSyllable1)*len(containerSyllable2), func(d []byte, i int) []byte {
		n2 := len(containerSyllable2)
		return appendContainer(d, [2]int{i / n2, i % n2})
	})
)
