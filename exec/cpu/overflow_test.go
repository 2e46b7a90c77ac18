package cpu

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// edgeInts are values around the places where int64 arithmetic wraps.
var edgeInts = []int64{0, 1, -1, 2, -2, 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1,
	math.MinInt64 + 1, 1 << 31, -1 << 31, 1<<31 - 1, 1 << 32, 3037000499, 3037000500,
	-3037000500, 1 << 62, -1 << 62}

// TestOverflowChecks compares the bit tricks with exact big-integer results.
func TestOverflowChecks(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	vals := append([]int64(nil), edgeInts...)
	for i := 0; i < 200; i++ {
		vals = append(vals, r.Int63()>>uint(r.Intn(63))*int64(1-2*r.Intn(2)))
	}
	fits := func(z *big.Int) bool { return z.IsInt64() }
	for _, a := range vals {
		for _, b := range vals {
			A, B := big.NewInt(a), big.NewInt(b)
			if got, want := addOverflows(a, b), !fits(new(big.Int).Add(A, B)); got != want {
				t.Fatalf("addOverflows(%d, %d) = %v", a, b, got)
			}
			if got, want := subOverflows(a, b), !fits(new(big.Int).Sub(A, B)); got != want {
				t.Fatalf("subOverflows(%d, %d) = %v", a, b, got)
			}
			if got, want := mulOverflows(a, b), !fits(new(big.Int).Mul(A, B)); got != want {
				t.Fatalf("mulOverflows(%d, %d) = %v", a, b, got)
			}
			// The batch check agrees with the row check, both ways.
			for _, op := range []sql.BinOp{sql.OpAdd, sql.OpSub, sql.OpMul, sql.OpIntDiv} {
				if op == sql.OpIntDiv && b == 0 {
					continue
				}
				out := newVec(columnar.TInt64)
				out.ensure(1)
				o := make([]int64, 1)
				got := checkedInt64Arith(op, out, 1, []int32{0}, []int64{a}, []int64{b}, o)
				want := firstOverflow(op, out, []int32{0}, []int64{a}, []int64{b}) >= 0
				if got != want {
					t.Fatalf("checkedInt64Arith(%v, %d, %d) = %v, want %v", op, a, b, got, want)
				}
			}
		}
	}
}

// TestOverflowSkipsNulls: a NULL position's slot may hold anything; it
// never raises.
func TestOverflowSkipsNulls(t *testing.T) {
	out := newVec(columnar.TInt64)
	out.ensure(3)
	out.setNull(3, 1)
	a := []int64{1, math.MaxInt64, 2}
	b := []int64{2, math.MaxInt64, 3}
	o := make([]int64, 3)
	for _, op := range []sql.BinOp{sql.OpAdd, sql.OpMul} {
		if checkedInt64Arith(op, out, 3, []int32{0, 1, 2}, a, b, o) {
			t.Fatalf("%v: overflow reported for a NULL row", op)
		}
	}
	if checkedNeg(out, []int32{0, 1, 2}, []int64{1, math.MinInt64, 2}, o) {
		t.Fatal("neg: overflow reported for a NULL row")
	}
	out.nulls[1] = false
	if !checkedInt64Arith(sql.OpAdd, out, 3, []int32{0, 1, 2}, a, b, o) {
		t.Fatal("add: overflow of a valid row missed")
	}
}

// TestSum128 checks the 128-bit SUM/AVG accumulation against big integers.
func TestSum128(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	// 40000 values near 5e14: the total (2e19) leaves int64, the average
	// at scale 4 (5e18) does not.
	x := make([]int64, 40000)
	sel := make([]int32, len(x))
	want := new(big.Int)
	for i := range x {
		x[i] = 5e14 + r.Int63n(2e14) - 1e14
		sel[i] = int32(i)
		want.Add(want, big.NewInt(x[i]))
	}
	lo, hi := []int64{0}, []int64{0}
	sum128Kernel(lo, hi, nil, x, nil, sel)
	got := new(big.Int).Lsh(big.NewInt(hi[0]), 64)
	got.Add(got, new(big.Int).SetUint64(uint64(lo[0])))
	if got.Cmp(want) != 0 {
		t.Fatalf("sum = %v, want %v", got, want)
	}
	a := &sumAcc{avg: true, argT: columnar.TInt64, t: columnar.TDecimal(18, 4)}
	v, ok := a.exactResult(lo[0], hi[0], int64(len(x)), 0)
	// AVG with scale 4: want*10^4/n rounded half away from zero.
	w := bigDivRound(new(big.Int).Mul(want, big.NewInt(10000)), big.NewInt(int64(len(x))))
	if !ok || v != w.Int64() {
		t.Fatalf("avg = %d (%v), want %v", v, ok, w)
	}
	a.avg = false
	a.t = columnar.TInt64
	if _, ok := a.exactResult(lo[0], hi[0], 1, 0); ok {
		t.Fatalf("sum %v reported in range", want)
	}
	// A running total that leaves int64 and comes back is exact.
	lo[0], hi[0] = 0, 0
	y := []int64{math.MaxInt64, math.MaxInt64, math.MinInt64, math.MinInt64, 7}
	sum128Kernel(lo, hi, nil, y, nil, sel[:len(y)])
	if v, ok := a.exactResult(lo[0], hi[0], 1, 0); !ok || v != 5 {
		t.Fatalf("sum = %d (%v), want 5", v, ok)
	}
}

// TestSumMergeNegative merges partial 128-bit totals of mixed sign, as the
// parallel aggregation does: a negative partial's low word has its top bit
// set and must be added unsigned, its sign carried by the high word only.
func TestSumMergeNegative(t *testing.T) {
	parts := [][]int64{{-5, 3}, {-48, -1}, {40}, {math.MinInt64 + 10, 7}, {math.MaxInt64, -9}}
	total := &sumAcc{argT: columnar.TInt64, t: columnar.TInt64}
	total.grow(1)
	want := new(big.Int)
	for _, xs := range parts {
		p := &sumAcc{argT: columnar.TInt64, t: columnar.TInt64}
		p.grow(1)
		sel := make([]int32, len(xs))
		for i, x := range xs {
			sel[i] = int32(i)
			want.Add(want, big.NewInt(x))
		}
		sum128Kernel(p.s, p.hi, nil, xs, nil, sel)
		total.merge(p, nil, 1)
	}
	got := new(big.Int).Lsh(big.NewInt(total.hi[0]), 64)
	got.Add(got, new(big.Int).SetUint64(uint64(total.s[0])))
	if got.Cmp(want) != 0 {
		t.Fatalf("merged sum = %v, want %v", got, want)
	}
}
