package cpu_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// vectorTable fills table emb (id INT, v VECTOR(dim)) with n rows: row i's
// vector from gen(i) (nil: NULL). Rows are built straight into columns so
// benchmarks can make millions.
func vectorTable(d *testDB, n, dim int, gen func(i int) []float32) {
	d.t.Helper()
	d.create(fmt.Sprintf("CREATE TABLE emb (id INT, v VECTOR(%d))", dim))
	err := d.cat.Update("emb", func(old *columnar.Table) (*columnar.Table, error) {
		ids, vs := columnar.NewBuilder(columnar.TInt32), columnar.NewBuilder(old.Fields[1].Type)
		for i := range n {
			if err := ids.AppendInt64(int64(i)); err != nil {
				return nil, err
			}
			if v := gen(i); v == nil {
				vs.AppendNull()
			} else if err := vs.AppendVector(v); err != nil {
				return nil, err
			}
		}
		t := &columnar.Table{Name: old.Name, Fields: old.Fields, Rows: n,
			Columns: []*columnar.Column{ids.Column(), vs.Column()}}
		columnar.ComputeStats(t)
		return t, nil
	})
	if err != nil {
		d.t.Fatal(err)
	}
}

// The distance functions and top-k nearest neighbours against a brute
// force over float64 in the test: 5000 rows (not a multiple of the batch
// size) of small integer elements, whose float32 sums are exact, with
// NULL rows and duplicate vectors; ties are broken by id.
func TestVectorDistancesBruteForce(t *testing.T) {
	const n, dim = 5000, 16
	rng := rand.New(rand.NewPCG(7, 11))
	vecs := make([][]float32, n)
	for i := range vecs {
		switch {
		case i%97 == 0:
			continue // NULL
		case i%101 == 0:
			vecs[i] = vecs[i-1] // duplicate
			continue
		}
		vecs[i] = make([]float32, dim)
		for j := range vecs[i] {
			vecs[i][j] = float32(rng.IntN(21) - 10)
		}
	}
	d := newTestDB(t, false)
	vectorTable(d, n, dim, func(i int) []float32 { return vecs[i] })
	q := make([]float32, dim)
	for j := range q {
		q[j] = float32(j%5 - 2)
	}
	qText := columnar.VectorText(q)
	ref := map[string]func(a, b []float64) float64{
		"vec_l2_distance": func(a, b []float64) float64 {
			s := 0.0
			for i := range a {
				s += (a[i] - b[i]) * (a[i] - b[i])
			}
			return math.Sqrt(s)
		},
		"vec_l1_distance": func(a, b []float64) float64 {
			s := 0.0
			for i := range a {
				s += math.Abs(a[i] - b[i])
			}
			return s
		},
		"vec_negative_inner_product": func(a, b []float64) float64 {
			s := 0.0
			for i := range a {
				s -= a[i] * b[i]
			}
			return s
		},
		"vec_cosine_distance": func(a, b []float64) float64 {
			var dot, na, nb float64
			for i := range a {
				dot, na, nb = dot+a[i]*b[i], na+a[i]*a[i], nb+b[i]*b[i]
			}
			return 1 - dot/math.Sqrt(na*nb)
		},
	}
	widen := func(v []float32) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = float64(x)
		}
		return out
	}
	for name, f := range ref {
		rows := d.run(fmt.Sprintf("SELECT id, %s(v, '%s') FROM emb ORDER BY id", name, qText), planner.Options{})
		for i, r := range rows {
			if vecs[i] == nil {
				if r[1] != "NULL" {
					t.Fatalf("%s row %d: %s for a NULL vector", name, i, r[1])
				}
				continue
			}
			got, _ := strconv.ParseFloat(r[1], 64)
			if want := f(widen(vecs[i]), widen(q)); math.Abs(got-want) > 1e-6*max(1, math.Abs(want)) {
				t.Fatalf("%s row %d: %v, want %v", name, i, got, want)
			}
		}
		// Top 10 by distance, ties by id.
		var ids []int
		for i := range vecs {
			if vecs[i] != nil {
				ids = append(ids, i)
			}
		}
		slices.SortStableFunc(ids, func(a, b int) int {
			da, db := f(widen(vecs[a]), widen(q)), f(widen(vecs[b]), widen(q))
			switch {
			case math.Abs(da-db) <= 1e-9*max(1, math.Abs(da)):
				return a - b
			case da < db:
				return -1
			}
			return 1
		})
		top := d.run(fmt.Sprintf("SELECT id FROM emb WHERE v IS NOT NULL ORDER BY %s(v, '%s'), id LIMIT 10", name, qText), planner.Options{})
		var got []string
		for _, r := range top {
			got = append(got, r[0])
		}
		want := fmt.Sprint(ids[:10])
		if s := "[" + strings.Join(got, " ") + "]"; s != want {
			t.Errorf("%s top 10: %s, want %s", name, s, want)
		}
	}
}

// ORDER BY a vector column with LIMIT (the top-N prunes, with no
// one-word threshold for vectors) and MIN/MAX, against a lexicographic
// sort in the test.
func TestVectorOrderBruteForce(t *testing.T) {
	const n, dim = 20000, 3
	rng := rand.New(rand.NewPCG(3, 5))
	vecs := make([][]float32, n)
	for i := range vecs {
		if i%5000 == 7 {
			continue // NULL: 4 of them, so the top 20 hold vectors too
		}
		vecs[i] = []float32{float32(rng.IntN(4)), float32(rng.IntN(4)), float32(rng.IntN(100)) / 4}
	}
	d := newTestDB(t, false)
	vectorTable(d, n, dim, func(i int) []float32 { return vecs[i] })
	less := func(a, b int) int { // NULL first, then element by element, then id
		x, y := vecs[a], vecs[b]
		switch {
		case x == nil && y == nil:
			return a - b
		case x == nil:
			return -1
		case y == nil:
			return 1
		}
		for i := range x {
			if x[i] != y[i] {
				if x[i] < y[i] {
					return -1
				}
				return 1
			}
		}
		return a - b
	}
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	slices.SortFunc(ids, less)
	var want []string
	for _, i := range ids[:20] {
		want = append(want, strconv.Itoa(i))
	}
	var got []string
	for _, r := range d.run("SELECT id FROM emb ORDER BY v, id LIMIT 20", planner.Options{}) {
		got = append(got, r[0])
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ORDER BY v LIMIT 20: %v, want %v", got, want)
	}
	lo, hi := ids[n/5000], ids[n-1] // the least non-NULL row, the greatest
	mm := d.run("SELECT min(v), max(v) FROM emb", planner.Options{})
	if w := columnar.VectorText(vecs[lo]) + " " + columnar.VectorText(vecs[hi]); mm[0][0]+" "+mm[0][1] != w {
		t.Errorf("min, max = %v, want %s", mm[0], w)
	}
}

// BenchmarkVectorTopK is the nearest-neighbour query, ORDER BY
// VEC_L2_DISTANCE(v, q) LIMIT 10, over GPUSQL_VECTOR_ROWS (default 1M)
// rows of 128 float32: it reads rows·512 bytes, reported as GB/s against
// the machine's memory bandwidth.
func BenchmarkVectorTopK(b *testing.B) {
	n, dim := 1<<20, 128
	if s := os.Getenv("GPUSQL_VECTOR_ROWS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	d := newTestDB(b, false)
	row := make([]float32, dim)
	vectorTable(d, n, dim, func(int) []float32 {
		for j := range row {
			row[j] = rng.Float32()*2 - 1
		}
		return row
	})
	q := columnar.VectorText(row)
	for _, k := range []int{10, 1000} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			p := d.plan(fmt.Sprintf("SELECT id FROM emb ORDER BY vec_l2_distance(v, '%s') LIMIT %d", q, k), planner.Options{})
			for b.Loop() {
				if _, err := cpu.Run(context.Background(), p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(dim)*4*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
