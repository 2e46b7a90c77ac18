package cpu

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// TestUnsignedArithmeticBruteForce checks + - * DIV % over every pairing
// of BIGINT and BIGINT UNSIGNED operands, into signed and unsigned
// results, against math/big: the exact value when it fits the result
// type, an error when it does not, NULL for a division by zero.
func TestUnsignedArithmeticBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	edges := []uint64{0, 1, 2, math.MaxInt64 - 1, math.MaxInt64, 1 << 63, 1<<63 + 1, math.MaxUint64 - 1, math.MaxUint64, 1 << 32, math.MaxUint32}
	pick := func() int64 {
		if rng.Intn(3) == 0 {
			return int64(edges[rng.Intn(len(edges))])
		}
		return int64(rng.Uint64() >> uint(rng.Intn(64)))
	}
	types := []columnar.Type{columnar.TInt64, columnar.TUint64}
	ops := []sql.BinOp{sql.OpAdd, sql.OpSub, sql.OpMul, sql.OpIntDiv, sql.OpMod}
	value := func(v int64, t columnar.Type) *big.Int {
		if t.Unsigned {
			return new(big.Int).SetUint64(uint64(v))
		}
		return big.NewInt(v)
	}
	for i := 0; i < 20000; i++ {
		x, y := pick(), pick()
		lt, rt, ot := types[rng.Intn(2)], types[rng.Intn(2)], types[rng.Intn(2)]
		op := ops[rng.Intn(len(ops))]
		a, b := value(x, lt), value(y, rt)
		want := new(big.Int)
		zero := b.Sign() == 0
		switch op {
		case sql.OpAdd:
			want.Add(a, b)
		case sql.OpSub:
			want.Sub(a, b)
		case sql.OpMul:
			want.Mul(a, b)
		case sql.OpIntDiv:
			if !zero {
				want.Quo(a, b) // truncates toward zero, as MySQL's DIV
			}
		case sql.OpMod:
			if !zero {
				want.Rem(a, b) // the sign of the dividend, as MySQL's %
			}
		}
		z, ok, null := combineMagnitudes(op, magnitudeOf(x, lt), magnitudeOf(y, rt))
		if null != (zero && (op == sql.OpIntDiv || op == sql.OpMod)) {
			t.Fatalf("%d %v %d: null %v", x, op, y, null)
		}
		if null {
			continue
		}
		e := &unsignedArithEval{t: ot}
		got, fits := e.store(z)
		lo, hi := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
		if ot.Unsigned {
			lo, hi = big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)
		}
		wantFits := want.Cmp(lo) >= 0 && want.Cmp(hi) <= 0
		if ok && fits != wantFits || !ok && wantFits {
			t.Fatalf("%s %v %s into %s: fits %v (ok %v), want %v (%s)", a, op, b, ot, fits, ok, wantFits, want)
		}
		if ok && fits && value(got, ot).Cmp(want) != 0 {
			t.Fatalf("%s %v %s into %s: %s, want %s", a, op, b, ot, value(got, ot), want)
		}
	}
}

// TestUnsignedCompareBruteForce checks ucompare over signed and unsigned
// operands against math/big.
func TestUnsignedCompareBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	types := []columnar.Type{columnar.TInt64, columnar.TUint64}
	for i := 0; i < 20000; i++ {
		x, y := int64(rng.Uint64()), int64(rng.Uint64())
		if i%5 == 0 {
			y = x
		}
		lt, rt := types[rng.Intn(2)], types[rng.Intn(2)]
		f := &rowFunc{types: []columnar.Type{lt, rt}}
		got := unsignedCompareBody(f, []val{{i: x}, {i: y}}).i
		a, b := big.NewInt(x), big.NewInt(y)
		if lt.Unsigned {
			a.SetUint64(uint64(x))
		}
		if rt.Unsigned {
			b.SetUint64(uint64(y))
		}
		if want := int64(a.Cmp(b)); got != want {
			t.Fatalf("ucompare(%s %s, %s %s) = %d, want %d", a, lt, b, rt, got, want)
		}
	}
}
