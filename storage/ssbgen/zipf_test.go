package ssbgen

import (
	"math"
	"slices"
	"testing"
)

// The top value's share matches 1/H(c, theta) (the Zipf normalizer) within
// sampling error, every value is in range, and the column is reproducible.
func TestZipfColumn(t *testing.T) {
	const n, c = 200_003, 1024
	for _, theta := range []float64{0, 0.5, 1, 1.5, 2} {
		col := ZipfColumn(n, c, theta, 7)
		count := make([]int, c)
		for i, v := range col {
			if v < 0 || v >= c {
				t.Fatalf("theta %g: row %d: value %d outside [0, %d)", theta, i, v, c)
			}
			count[v]++
		}
		h := 0.0
		for k := 1; k <= c; k++ {
			h += 1 / math.Pow(float64(k), theta)
		}
		want := float64(n) / h
		got := float64(slices.Max(count))
		// The most frequent value: the rank-1 value, within 5 sigma (for
		// uniform data the maximum of c counts sits a few sigma above).
		sigma := math.Sqrt(want)
		if theta > 0 && math.Abs(got-want) > 5*sigma || theta == 0 && (got < want || got > want+6*sigma) {
			t.Errorf("theta %g: top value has %v rows, want about %.0f", theta, got, want)
		}
		if !slices.Equal(col, ZipfColumn(n, c, theta, 7)) {
			t.Errorf("theta %g: two draws with one seed differ", theta)
		}
	}
	if got := ZipfColumn(0, c, 1, 7); len(got) != 0 {
		t.Errorf("empty column has %d rows", len(got))
	}
}

// With Skew, lo_custkey and lo_partkey follow Zipf θ: every key is in
// range, the top key takes about 1/H(n, θ) of the rows; without it the
// draws are dbgen's (no customer key a multiple of 3).
func TestSkewedKeys(t *testing.T) {
	const seed, theta = 3, 1.5
	sz := sizesFor(0.01)
	sz.custKeys, sz.partKeys = newZipfKeys(sz.customers, theta), newZipfKeys(sz.parts, theta)
	lo := fillAll(lineorderSpecs, sz.orders, orderBlock, func(bt *batch, a, b int64) { fillLineorder(bt, seed, sz, a, b) })
	for _, c := range []struct {
		col string
		n   int64
	}{{"lo_custkey", sz.customers}, {"lo_partkey", sz.parts}} {
		count := map[int64]int{}
		for _, v := range lo.cols[colIndex(lo.specs, c.col)].ints {
			if v < 1 || v > c.n {
				t.Fatalf("%s %d outside 1..%d", c.col, v, c.n)
			}
			count[v]++
		}
		top := 0
		for _, k := range count {
			top = max(top, k)
		}
		h := 0.0
		for k := int64(1); k <= c.n; k++ {
			h += 1 / math.Pow(float64(k), theta)
		}
		want := float64(lo.rows) / h
		if math.Abs(float64(top)-want) > 5*math.Sqrt(want) {
			t.Errorf("%s: top key has %d of %d rows, want about %.0f", c.col, top, lo.rows, want)
		}
	}
	plain := sizesFor(0.01)
	uni := fillAll(lineorderSpecs, plain.orders, orderBlock, func(bt *batch, a, b int64) { fillLineorder(bt, seed, plain, a, b) })
	for _, v := range uni.cols[colIndex(uni.specs, "lo_custkey")].ints {
		if v%3 == 0 {
			t.Fatalf("uniform lo_custkey %d is a multiple of 3", v)
		}
	}
}
