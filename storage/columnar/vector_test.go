package columnar

import (
	"math"
	"strings"
	"testing"
)

func TestParseVector(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"[1,2,3]", "[1,2,3]", ""},
		{" [ 0.5 , -1e2,3.25 ] ", "[0.5,-100,3.25]", ""},
		{"[]", "[]", ""},
		{"[0.1]", "[0.1]", ""},
		{"[1,,2]", "", "invalid vector text"},
		{"[1,2,]", "", "invalid vector text"},
		{"1,2", "", "invalid vector text"},
		{"[a]", "", "invalid vector text"},
		{"[NaN]", "", "NaN not allowed"},
		{"[1,-Inf]", "", "infinite value not allowed"},
		{"[1e39]", "", "out of range for float32"},
		{"[1e400]", "", "out of range for float32"},
	} {
		v, err := ParseVector(nil, []byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseVector(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || VectorText(v) != tc.want {
			t.Errorf("ParseVector(%q) = %s, %v; want %s", tc.in, VectorText(v), err, tc.want)
		}
	}
}

func TestVectorBuilder(t *testing.T) {
	for _, typ := range []Type{{ID: Vector, Dim: 2}, {ID: Vector}} {
		b := NewBuilder(typ)
		for _, f := range []string{"[1,2]", "", "[3, 4.5]"} {
			if err := b.AppendText([]byte(f)); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.AppendVector([]float32{5, 6}); err != nil {
			t.Fatal(err)
		}
		err := b.AppendText([]byte("[1,2,3]"))
		if typ.Dim > 0 && (err == nil || !strings.Contains(err.Error(), "vector has 3 dimensions, does not fit VECTOR(2)")) {
			t.Fatalf("%s: dimension error %v", typ, err)
		}
		c := b.Column()
		var got []string
		for i := range 4 {
			if c.IsNull(i) {
				got = append(got, "NULL")
			} else {
				got = append(got, VectorText(c.VectorAt(i)))
			}
		}
		if s := strings.Join(got, " "); s != "[1,2] NULL [3,4.5] [5,6]" {
			t.Errorf("%s: rows %s", typ, s)
		}
		// Appending to a snapshot copies the old rows.
		nb := NewBuilder(typ)
		nb.seed(c, 1)
		if err := nb.AppendVector([]float32{7, 8}); err != nil {
			t.Fatal(err)
		}
		c2 := nb.Column()
		if c2.Len != c.Len+1 || VectorText(c2.VectorAt(0)) != "[1,2]" || VectorText(c2.VectorAt(c.Len)) != "[7,8]" || !c2.IsNull(1) {
			t.Errorf("%s: seeded column wrong", typ)
		}
	}
}

// Any text either fails to parse or reads back, through its text form, to
// the same float32 bits; parsing never panics.
func FuzzParseVector(f *testing.F) {
	for _, s := range []string{"[1,2,3]", "[]", " [ -0 , 1e-45, 3.4028235e38 ] ", "[0.1,16777217]", "[1,,2]", "[NaN]", "[1e39]", "[", "[-]", "[1e]", "[.5]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVector(nil, []byte(s))
		if err != nil {
			return
		}
		text := VectorText(v)
		w, err := ParseVector(nil, []byte(text))
		if err != nil || len(w) != len(v) {
			t.Fatalf("%q → %s does not read back: %v", s, text, err)
		}
		for i := range v {
			if math.Float32bits(v[i]) != math.Float32bits(w[i]) {
				t.Fatalf("%q → %s: element %d %v reads back as %v", s, text, i, v[i], w[i])
			}
		}
	})
}
