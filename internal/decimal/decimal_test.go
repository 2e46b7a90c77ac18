package decimal

import (
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// randBig is a random integer of up to digits decimal digits, either sign.
func randBig(r *rand.Rand, digits int) *big.Int {
	n := r.Intn(digits) + 1
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.Intn(10))
	}
	v, _ := new(big.Int).SetString(string(b), 10)
	if r.Intn(2) == 0 {
		v.Neg(v)
	}
	return v
}

func mustNum(t *testing.T, v *big.Int) Num {
	t.Helper()
	n, ok := FromBig(v)
	if !ok {
		t.Fatalf("%s does not fit", v)
	}
	return n
}

// refDivRound is a/b rounded half away from zero, computed with big.Rat.
func refDivRound(a, b *big.Int) *big.Int {
	q := new(big.Rat).SetFrac(a, b)
	neg := q.Sign() < 0
	q.Abs(q)
	q.Add(q, big.NewRat(1, 2))
	out := new(big.Int).Quo(q.Num(), q.Denom())
	if neg {
		out.Neg(out)
	}
	return out
}

func TestArithmeticAgainstBig(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		a, b := randBig(r, 65), randBig(r, 65)
		x, y := mustNum(t, a), mustNum(t, b)
		if got, want := Big(Add(x, y)), new(big.Int).Add(a, b); got.Cmp(want) != 0 {
			t.Fatalf("%s + %s = %s, want %s", a, b, got, want)
		}
		if got, want := Big(Sub(x, y)), new(big.Int).Sub(a, b); got.Cmp(want) != 0 {
			t.Fatalf("%s - %s = %s, want %s", a, b, got, want)
		}
		if got, want := Cmp(x, y), a.Cmp(b); got != want {
			t.Fatalf("cmp(%s, %s) = %d, want %d", a, b, got, want)
		}
		a2, b2 := randBig(r, 33), randBig(r, 32)
		p, ok := Mul(mustNum(t, a2), mustNum(t, b2))
		if want := new(big.Int).Mul(a2, b2); !ok || Big(p).Cmp(want) != 0 {
			t.Fatalf("%s * %s = %s, want %s", a2, b2, Big(p), want)
		}
		if b.Sign() == 0 {
			continue
		}
		sa, sb, st := r.Intn(31), r.Intn(31), r.Intn(31)
		q, ok := Div(x, y, sa, sb, st)
		num, den := new(big.Int).Set(a), new(big.Int).Set(b)
		if e := st - sa + sb; e >= 0 {
			num.Mul(num, Pow10(e))
		} else {
			den.Mul(den, Pow10(-e))
		}
		want := refDivRound(num, den)
		if want.BitLen() > 255 {
			if ok {
				t.Fatalf("div %s/%s fit but should not", a, b)
			}
			continue
		}
		if !ok || Big(q).Cmp(want) != 0 {
			t.Fatalf("div(%s,%s,%d,%d,%d) = %s, want %s", a, b, sa, sb, st, Big(q), want)
		}
		m, _ := Mod(x, y)
		if want := new(big.Int).Rem(a, b); Big(m).Cmp(want) != 0 {
			t.Fatalf("%s %% %s = %s, want %s", a, b, Big(m), want)
		}
	}
}

func TestRescaleRoundsHalfAwayFromZero(t *testing.T) {
	for _, c := range []struct {
		in       string
		from, to int
		want     string
	}{
		{"125", 2, 1, "13"}, {"-125", 2, 1, "-13"}, {"124", 2, 1, "12"},
		{"-149", 2, 0, "-1"}, {"-150", 2, 0, "-2"}, {"5", 0, 3, "5000"},
	} {
		v, _ := new(big.Int).SetString(c.in, 10)
		got, ok := Rescale(mustNum(t, v), c.from, c.to)
		if !ok || Big(got).String() != c.want {
			t.Errorf("Rescale(%s, %d, %d) = %s, want %s", c.in, c.from, c.to, Big(got), c.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, c := range []struct {
		text    string
		scale   int
		want    string
		rounded bool
	}{
		{"99999999999999999999", 0, "99999999999999999999", false},
		{"12345678901234567.89", 2, "12345678901234567.89", false},
		{"-0.005", 2, "-0.01", true},
		{"0.004", 2, "0.00", true},
		{"1.5e3", 1, "1500.0", false},
		{" +7 ", 3, "7.000", false},
		{".5", 0, "1", true},
		{"-12345678901234567890123456789012345678901234567890123456789012345", 0, "-12345678901234567890123456789012345678901234567890123456789012345", false},
	} {
		n, rounded, err := Parse(c.text, c.scale)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.text, err)
		}
		if got := Format(n, c.scale); got != c.want || rounded != c.rounded {
			t.Errorf("Parse(%q, %d) = %s (rounded %v), want %s (%v)", c.text, c.scale, got, rounded, c.want, c.rounded)
		}
	}
	for _, bad := range []string{"", "abc", "1.2.3", "--1", "1e", "e5"} {
		if _, _, err := Parse(bad, 0); err == nil {
			t.Errorf("Parse(%q) gave no error", bad)
		}
	}
}

func TestFitsAndDigits(t *testing.T) {
	max65, _ := new(big.Int).SetString("99999999999999999999999999999999999999999999999999999999999999999", 10)
	n := mustNum(t, max65)
	if !Fits(n, 65) || Fits(Add(n, FromInt64(1)), 65) {
		t.Fatal("Fits wrong at 10^65")
	}
	if Digits(FromInt64(-12345), 2) != 3 || Digits(FromInt64(5), 1) != 0 {
		t.Fatal("Digits wrong")
	}
	if v, ok := Int64(FromInt64(-7)); !ok || v != -7 {
		t.Fatal("Int64(-7)")
	}
	if _, ok := Int64(FromUint64(1 << 63)); ok {
		t.Fatal("2^63 fits int64")
	}
	if f := Float64(FromInt64(-125), 2); f != -1.25 {
		t.Fatalf("Float64 = %v", f)
	}
	if v, ok := FromFloat64(0.1, 20); !ok || Format(v, 20) != "0.10000000000000000000" {
		t.Fatalf("FromFloat64(0.1) = %s", Format(v, 20))
	}
}

// FuzzParse checks Parse against big.Rat: text that both read is the same
// number, rounded half away from zero to the scale; Format reads back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-1.5", "12345678901234567890.125", "1e-3", ".5", "+7.", strings.Repeat("9", 65)} {
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, scale uint8) {
		sc := int(scale % 31)
		n, _, err := Parse(s, sc)
		r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
		if err != nil || !ok {
			return // one of them refuses the text (exponents, hex, ...)
		}
		want := refDivRound(new(big.Int).Mul(r.Num(), Pow10(sc)), r.Denom())
		if Big(n).Cmp(want) != 0 {
			t.Fatalf("Parse(%q, %d) = %s, want %s", s, sc, Big(n), want)
		}
		back, _, err := Parse(Format(n, sc), sc)
		if err != nil || Cmp(back, n) != 0 {
			t.Fatalf("Format(%s) = %q does not read back", Big(n), Format(n, sc))
		}
	})
}

// TestParseLongMantissa: a mantissa of more than 76 digits with a
// negative exponent is a number of ordinary size, not zero.
func TestParseLongMantissa(t *testing.T) {
	s := "1" + strings.Repeat("0", 150) + "e-100" // 10^50
	n, rounded, err := Parse(s, 2)
	if err != nil || rounded || Format(n, 2) != "1"+strings.Repeat("0", 50)+".00" {
		t.Fatalf("Parse(%s) = %s, %v, %v", s, Format(n, 2), rounded, err)
	}
	if _, _, err := Parse("1e80", 0); err == nil {
		t.Fatal("1e80 fit")
	}
	if n, _, err := Parse("0e80", 0); err != nil || n.Sign() != 0 {
		t.Fatalf("0e80 = %s, %v", Big(n), err)
	}
}
