package columnar

import (
	"strings"
	"testing"
)

func TestAppendText(t *testing.T) {
	dec := TDecimal(5, 2)
	cases := []struct {
		typ  Type
		text string
		want string // cell text, or the error's text
		err  bool
	}{
		{TInt32, "42", "42", false},
		{TInt32, " -7 ", "-7", false},
		{TInt32, "+7", "7", false},
		{TInt32, "", "NULL", false},
		{TInt32, "2147483647", "2147483647", false},
		{TInt32, "-2147483648", "-2147483648", false},
		{TInt32, "2147483648", `"2147483648" is out of range for INT`, true},
		{TInt32, "3000000000", `"3000000000" is out of range for INT`, true},
		{TInt32, "99999999999999999999999", `is out of range for INT`, true},
		{TInt32, "abc", `"abc" is not a valid INT`, true},
		{TInt32, "1.5", `"1.5" is not a valid INT`, true},
		{TInt32, "-", `"-" is not a valid INT`, true},
		{TInt64, "9223372036854775807", "9223372036854775807", false},
		{TInt64, "-9223372036854775808", "-9223372036854775808", false},
		{TInt64, "9223372036854775808", "out of range for BIGINT", true},
		{TInt64, "12x", `"12x" is not a valid BIGINT`, true},
		{dec, "123.45", "123.45", false},
		{dec, "-1.005", "-1.01", false}, // half away from zero
		{dec, "1.004", "1.00", false},
		{dec, "1.0049999", "1.00", false},
		{dec, "0.5", "0.50", false},
		{dec, ".5", "0.50", false},
		{dec, "5.", "5.00", false},
		{dec, "-0.001", "0.00", false},
		{dec, "00012.3", "12.30", false},
		{dec, "999.99", "999.99", false},
		{dec, "999.995", `"999.995" is out of range for DECIMAL(5,2)`, true},
		{dec, "1000", `"1000" is out of range for DECIMAL(5,2)`, true},
		{dec, "1e5", `"1e5" is not a valid DECIMAL(5,2)`, true},
		{dec, ".", `is not a valid DECIMAL(5,2)`, true},
		{dec, "1.2.3", `is not a valid DECIMAL(5,2)`, true},
		{TDecimal(18, 0), "999999999999999999", "999999999999999999", false},
		{TDecimal(18, 0), "1000000000000000000", "out of range", true},
		{TFloat64, "1.5", "1.5", false},
		{TFloat64, "-2e3", "-2000", false},
		{TFloat64, "1e400", `"1e400" is out of range for DOUBLE`, true},
		{TFloat64, "one", `"one" is not a valid DOUBLE`, true},
		{TDate, "1970-01-01", "1970-01-01", false},
		{TDate, "2000-02-29", "2000-02-29", false},
		{TDate, "1992-01-01", "1992-01-01", false},
		{TDate, "0001-01-01", "0001-01-01", false},
		{TDate, "1999-02-29", `"1999-02-29" is not a valid DATE (want YYYY-MM-DD)`, true},
		{TDate, "1995-02-30", `"1995-02-30" is not a valid DATE`, true},
		{TDate, "1995-13-01", "not a valid DATE", true},
		{TDate, "19950101", "not a valid DATE", true},
		{TDate, "1995-1-01", "not a valid DATE", true},
		{TBool, "true", "1", false},
		{TBool, "FALSE", "0", false},
		{TBool, "1", "1", false},
		{TBool, "0", "0", false},
		{TBool, "yes", `"yes" is not a valid BOOLEAN`, true},
		{TString, "", "", false},
		{TString, " padded ", " padded ", false},
	}
	for _, tc := range cases {
		b := NewBuilder(tc.typ)
		err := b.AppendText([]byte(tc.text))
		if tc.err {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %q: error %v, want %q", tc.typ, tc.text, err, tc.want)
			}
			if b.Len() != 0 {
				t.Errorf("%s %q: a failed append left %d rows", tc.typ, tc.text, b.Len())
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", tc.typ, tc.text, err)
			continue
		}
		tb := &Table{Fields: []Field{{Name: "x", Type: tc.typ}}, Columns: []*Column{b.Column()}, Rows: 1}
		if got := cell(tb, 0, 0); got != tc.want {
			t.Errorf("%s %q = %q, want %q", tc.typ, tc.text, got, tc.want)
		}
	}
}

func TestBuilderStringsAndNulls(t *testing.T) {
	b := NewBuilder(TString)
	for _, s := range []string{"pear", "apple", "pear", "fig"} {
		b.AppendString(s)
	}
	b.AppendNull()
	b.AppendText([]byte("apple"))
	c := b.Column()
	if got, want := strings.Join(c.Dict.Values, ","), "apple,fig,pear"; got != want {
		t.Fatalf("dictionary %s, want %s", got, want)
	}
	wantCodes := []int32{2, 0, 2, 1, 0, 0}
	for i, w := range wantCodes {
		if c.I32[i] != w && !(i == 4 && c.IsNull(4)) {
			t.Errorf("code %d = %d, want %d", i, c.I32[i], w)
		}
	}
	if !c.IsNull(4) || c.IsNull(3) || c.IsNull(5) || c.Len != 6 {
		t.Errorf("validity wrong: %v len %d", c.Valid, c.Len)
	}

	n := NewBuilder(TInt64)
	for i := 0; i < 3000; i++ { // several growths
		if i%7 == 3 {
			n.AppendNull()
		} else if err := n.AppendInt64(int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	col := n.Column()
	for i := 0; i < 3000; i++ {
		if null := i%7 == 3; col.IsNull(i) != null || (!null && col.I64[i] != int64(i)) {
			t.Fatalf("row %d: null %v value %d", i, col.IsNull(i), col.I64[i])
		}
	}
	if len(col.I64) != 3000 || len(col.Valid) != 47 {
		t.Errorf("vector lengths %d, %d", len(col.I64), len(col.Valid))
	}
	if e := NewBuilder(TInt32).Column(); e.I32 == nil || e.Len != 0 {
		t.Errorf("an empty INT column must have a non-nil vector")
	}
	if err := NewBuilder(TInt32).AppendInt64(1 << 40); err == nil {
		t.Errorf("AppendInt64 of 2^40 into INT succeeded")
	}
}

func TestCopyBits(t *testing.T) {
	src := []uint64{0xDEADBEEFCAFEBABE, 0x0123456789ABCDEF, 0xFFFF0000FFFF0000}
	for _, sOff := range []int{0, 1, 63, 64, 70} {
		for _, dOff := range []int{0, 5, 64, 127} {
			for _, n := range []int{1, 63, 64, 65, 100} {
				if sOff+n > 192 {
					continue
				}
				dst := make([]uint64, 4)
				for i := range dst {
					dst[i] = ^uint64(0)
				}
				copyBits(dst, dOff, src, sOff, n)
				for i := 0; i < 256; i++ {
					got := dst[i>>6]>>(i&63)&1 == 1
					want := true
					if i >= dOff && i < dOff+n {
						j := sOff + i - dOff
						want = src[j>>6]>>(j&63)&1 == 1
					}
					if got != want {
						t.Fatalf("copyBits(dOff %d, sOff %d, n %d): bit %d = %v", dOff, sOff, n, i, got)
					}
				}
			}
		}
	}
}
