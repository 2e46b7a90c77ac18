package columnar

import "testing"

func TestRowRange(t *testing.T) {
	c := NewColumnIn(HeapAllocator, TInt32, 200, true)
	for i := 0; i < 200; i++ {
		c.I32[i] = int32(i * 3)
		if i%7 != 0 {
			c.SetValid(i)
		}
	}
	v, err := c.RowRange(64, 200)
	if err != nil {
		t.Fatal(err)
	}
	if v.Len != 136 {
		t.Fatalf("len %d, want 136", v.Len)
	}
	for i := 0; i < v.Len; i++ {
		if v.I32[i] != c.I32[64+i] || v.IsNull(i) != c.IsNull(64+i) {
			t.Fatalf("row %d: got %d null=%v, want %d null=%v", i, v.I32[i], v.IsNull(i), c.I32[64+i], c.IsNull(64+i))
		}
	}
	for _, r := range [][2]int{{1, 10}, {-64, 10}, {64, 201}, {128, 64}} {
		if _, err := c.RowRange(r[0], r[1]); err == nil {
			t.Errorf("RowRange(%d, %d) accepted", r[0], r[1])
		}
	}
	for _, at := range []int{192, 200, 0} {
		if e, err := c.RowRange(at, at); err != nil || e.Len != 0 || e.Valid == nil {
			t.Fatalf("empty range at %d: %+v, %v", at, e, err)
		}
	}
}
