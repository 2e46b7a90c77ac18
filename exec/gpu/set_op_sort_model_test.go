package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// A Go model of kernels/set_op_sort.cu, run without a GPU: the stable
// sort by canonical keys (what sortPerm does over setop_canon's columns),
// setop_heads' adjacent difference, the compaction of heads into run
// starts, and setop_keep's per-position rule, statement for statement,
// checked against the set operations worked out from their definitions
// (which rows, and which copy of equal rows: the first in input order).

// modelCell is one value: NULL, an integer (codes, dates, ints) or a double.
type modelCell struct {
	null  bool
	float bool
	i     int64
	f     float64
}

type modelRow []modelCell

// canonKey is the value setop_canon and sort_encode give the radix sort
// (NULL as 0 with its flag; -0 as 0; every NaN as one).
func canonKey(c modelCell) (bool, uint64) {
	if c.null {
		return false, 0
	}
	if !c.float {
		return true, uint64(c.i) ^ 1<<63
	}
	d := c.f
	if d == 0 {
		d = 0
	}
	if d != d {
		d = math.Float64frombits(0x7ff8000000000001)
	}
	b := math.Float64bits(d)
	if b>>63 != 0 {
		return true, ^b
	}
	return true, b | 1<<63
}

// modelPerm is sortPerm with nullsLast false: rows by every column, the
// first most significant, NULLs first, stable.
func modelPerm(rows []modelRow) []int32 {
	perm := make([]int32, len(rows))
	for i := range perm {
		perm[i] = int32(i)
	}
	sort.SliceStable(perm, func(a, b int) bool {
		for k := range rows[perm[a]] {
			va, ka := canonKey(rows[perm[a]][k])
			vb, kb := canonKey(rows[perm[b]][k])
			if va != vb {
				return !va
			}
			if ka != kb {
				return ka < kb
			}
		}
		return false
	})
	return perm
}

// radixModelPerm is rowsPerm (set_op_sort_perm.go): per column, last
// first, a stable pass per digit on which setop_digit_masks' AND and OR
// of the encoded values differ (NULLs encoded 0), then one on the NULL
// flag when the column has both NULLs and values.
func radixModelPerm(rows []modelRow) []int32 {
	perm := make([]int32, len(rows))
	for i := range perm {
		perm[i] = int32(i)
	}
	if len(rows) == 0 {
		return perm
	}
	byDigit := func(key func(int32) uint64, shift uint) {
		sort.SliceStable(perm, func(a, b int) bool { return (key(perm[a])>>shift)&0xff < (key(perm[b])>>shift)&0xff })
	}
	for c := len(rows[0]) - 1; c >= 0; c-- {
		value := func(r int32) uint64 { _, k := canonKey(rows[r][c]); return k }
		flag := func(r int32) uint64 {
			if ok, _ := canonKey(rows[r][c]); ok {
				return 1
			}
			return 0
		}
		va, vo, fa, fo := ^uint64(0), uint64(0), ^uint64(0), uint64(0)
		for r := range rows {
			va, vo = va&value(int32(r)), vo|value(int32(r))
			fa, fo = fa&flag(int32(r)), fo|flag(int32(r))
		}
		for d := uint(0); d < 8; d++ {
			if ((va^vo)>>(8*d))&0xff != 0 {
				byDigit(value, 8*d)
			}
		}
		if fa != fo {
			byDigit(flag, 0)
		}
	}
	return perm
}

// sameValue is setop_heads' same_value.
func sameValue(a, b modelCell) bool {
	if a.null != b.null {
		return false
	}
	if a.null {
		return true
	}
	if a.float {
		return a.f == b.f || (a.f != a.f && b.f != b.f)
	}
	return a.i == b.i
}

// modelStarts is setop_heads then the compaction of its flags.
func modelStarts(rows []modelRow, perm []int32) []int32 {
	var starts []int32
	for i := range perm {
		head := i == 0
		for k := 0; i > 0 && k < len(rows[0]) && !head; k++ {
			head = !sameValue(rows[perm[i]][k], rows[perm[i-1]][k])
		}
		if head {
			starts = append(starts, int32(i))
		}
	}
	return starts
}

// firstAtLeast is set_op_sort.cu's first_at_least.
func firstAtLeast(a []int32, lo, hi, v int64) int64 {
	for lo < hi {
		mid := lo + (hi-lo)/2
		if int64(a[mid]) < v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// modelKeep is setop_keep for every position, then the compaction and
// map_index through perm: the rows of left ++ right kept.
func modelKeep(perm, starts []int32, nLeft int64, except, all bool) []int32 {
	n, runs := int64(len(perm)), int64(len(starts))
	var out []int32
	for i := int64(0); i < n; i++ {
		run := firstAtLeast(starts, 0, runs, i+1) - 1
		s := int64(starts[run])
		e := n
		if run+1 < runs {
			e = int64(starts[run+1])
		}
		a := firstAtLeast(perm, s, e, nLeft) - s
		b := (e - s) - a
		j := i - s
		var keep bool
		if all {
			if except {
				keep = j >= b && j < a
			} else {
				keep = j < a && j < b
			}
		} else {
			keep = j == 0 && a > 0 && (except && b == 0 || !except && b > 0)
		}
		if keep {
			out = append(out, perm[i])
		}
	}
	return out
}

// rowKey renders a row as the CPU executor's key words compare it.
func rowKey(r modelRow) string {
	s := ""
	for _, c := range r {
		ok, k := canonKey(c)
		s += fmt.Sprintf("%v:%x|", ok, k)
	}
	return s
}

// wantSetOp is the operation from its definition: the left rows kept, in
// left order, each group's copies taken first to last.
func wantSetOp(left, right []modelRow, except, all bool) []int32 {
	inRight := map[string]int{}
	for _, r := range right {
		inRight[rowKey(r)]++
	}
	seen := map[string]bool{}
	var out []int32
	for i, r := range left {
		k := rowKey(r)
		switch {
		case all && !except:
			if inRight[k] > 0 {
				inRight[k]--
				out = append(out, int32(i))
			}
		case all:
			if inRight[k] > 0 {
				inRight[k]--
			} else {
				out = append(out, int32(i))
			}
		default:
			if !seen[k] && (inRight[k] > 0) != except {
				out = append(out, int32(i))
			}
			seen[k] = true
		}
	}
	return out
}

func modelRows(rng *rand.Rand, n, domain int) []modelRow {
	rows := make([]modelRow, n)
	for i := range rows {
		f := float64(rng.IntN(domain)) / 2
		switch rng.IntN(12) {
		case 0:
			f = math.Copysign(0, -1)
		case 1:
			f = math.NaN()
		case 2:
			f = math.Copysign(math.NaN(), -1)
		}
		rows[i] = modelRow{
			{i: int64(rng.IntN(domain) - domain/2)},
			{float: true, f: f},
			{i: int64(rng.IntN(3)) << 40},
		}
		for k := range rows[i] {
			rows[i][k].null = rng.IntN(7) == 0
		}
	}
	return rows
}

func TestSetOpSortModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, sz := range [][3]int{{0, 3, 2}, {3, 0, 2}, {1, 1, 1}, {50, 40, 2}, {1000, 700, 3}, {5000, 100, 50}, {300, 4000, 4}} {
		left, right := modelRows(rng, sz[0], sz[2]), modelRows(rng, sz[1], sz[2])
		cat := append(slices.Clone(left), right...)
		perm := modelPerm(cat)
		if lsd := radixModelPerm(cat); !slices.Equal(lsd, perm) {
			t.Fatalf("%v: the digit-skipping LSD sort's order differs from the lexicographic one", sz)
		}
		starts := modelStarts(cat, perm)
		// DISTINCT / UNION: the first row of each run, which is the first
		// copy in input order.
		var distinct []int32
		firstOf := map[string]int32{}
		for i, r := range cat {
			if _, ok := firstOf[rowKey(r)]; !ok {
				firstOf[rowKey(r)] = int32(i)
				distinct = append(distinct, int32(i))
			}
		}
		var got []int32
		for _, s := range starts {
			got = append(got, perm[s])
		}
		slices.Sort(got)
		if !slices.Equal(got, distinct) {
			t.Fatalf("%v UNION: rows %v, want %v", sz, got, distinct)
		}
		if len(left) == 0 || len(cat) == 0 {
			continue
		}
		for _, op := range []struct {
			name        string
			except, all bool
		}{{"INTERSECT", false, false}, {"INTERSECT ALL", false, true}, {"EXCEPT", true, false}, {"EXCEPT ALL", true, true}} {
			got := modelKeep(perm, starts, int64(len(left)), op.except, op.all)
			slices.Sort(got)
			want := wantSetOp(left, right, op.except, op.all)
			if !slices.Equal(got, want) {
				t.Fatalf("%v %s: rows %v, want %v", sz, op.name, got, want)
			}
		}
	}
}
