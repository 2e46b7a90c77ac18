//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// sortTable has every key kind Sort encodes: integers and dates (sign bit),
// doubles with negatives and -0 (IEEE trick), decimals, dictionary strings,
// each with NULLs, and few distinct values so that ties are common.
func sortTable(n int, seed uint64) *columnar.Table {
	t := newTable(columnar.HeapAllocator, fmt.Sprintf("s%d", n), n, []colSpec{
		{"i32", columnar.TInt32}, {"i64", columnar.TInt64}, {"f", columnar.TFloat64},
		{"s", columnar.TString}, {"d", columnar.TDate}, {"dec", columnar.Type{ID: columnar.Decimal, Precision: 12, Scale: 2}},
		{"id", columnar.TInt64}})
	words := []string{"apple", "kiwi", "banana", "zebra", "", "mango", "fig"}
	codeOf := make([]int, n)
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < n; i++ {
		c := t.Columns
		c[0].I32[i] = int32(rng.IntN(200) - 100)
		c[1].I64[i] = rng.Int64() - (1 << 62)
		if i%3 == 0 {
			c[1].I64[i] = int64(rng.IntN(5)) - 2
		}
		c[2].F64[i] = float64(rng.IntN(41)-20) / 4
		if i%97 == 0 {
			c[2].F64[i] = math.Copysign(0, -1) // -0 sorts with 0
		}
		codeOf[i] = rng.IntN(len(words))
		c[4].I32[i] = int32(rng.IntN(3000) - 1000)
		c[5].I64[i] = int64(rng.IntN(1000)) - 500
		c[6].I64[i] = int64(i)
	}
	setDict(t, "s", words, codeOf)
	for j, c := range t.Columns[:6] {
		c.Valid = make([]uint64, (n+63)/64)
		for i := 0; i < n; i++ {
			if (i*7+j*13)%11 != 0 {
				c.SetValid(i)
			}
		}
	}
	return t
}

// runBoth runs root on both executors.
func runBoth(t *testing.T, root planner.Node) (got, want *exec.Result) {
	t.Helper()
	p := &planner.Physical{Root: root}
	for _, c := range root.Schema() {
		p.Names = append(p.Names, c.Name)
	}
	want, err := cpu.Run(t.Context(), p)
	if err != nil {
		t.Fatalf("cpu: %v", err)
	}
	if got, err = Run(t.Context(), p); err != nil {
		t.Fatalf("gpu: %v\n%s", err, p.Explain())
	}
	return got, want
}

// keysInOrder renders the sort key columns of res row by row: both
// executors sort stably, but ties are only required to agree as multisets.
func keysInOrder(res *exec.Result, keys []sql.SortKey) []string {
	out := make([]string, res.Rows)
	for r := range out {
		for _, k := range keys {
			out[r] += cellString(res.Columns[k.Expr.(*sql.ColRef).Index], r) + "|"
		}
	}
	return out
}

func checkOrdered(t *testing.T, name string, got, want *exec.Result, keys []sql.SortKey) {
	t.Helper()
	if got.Rows != want.Rows {
		t.Fatalf("%s: %d rows, want %d", name, got.Rows, want.Rows)
	}
	g, w := keysInOrder(got, keys), keysInOrder(want, keys)
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("%s: row %d keys %s, want %s", name, i, g[i], w[i])
		}
	}
	if d := diffResults(sorted(got), sorted(want)); d != "" {
		t.Fatalf("%s: %s", name, d)
	}
}

func TestSortDifferential(t *testing.T) {
	needGPU(t)
	keySets := [][]string{{"i32"}, {"-i32"}, {"f"}, {"-f"}, {"s", "-f"}, {"-s"}, {"dec", "-i64"}, {"i64"}, {"d", "s", "i32"}, {"-d", "-dec", "f", "s"}}
	for _, n := range []int{0, 1, 1000, 65537, 1000001} {
		tab := sortTable(n, uint64(n))
		scan := scanOf(tab, "i32", "i64", "f", "s", "d", "dec", "id")
		for _, ks := range keySets {
			if n == 1000001 && len(ks) < 2 && ks[0] != "f" && ks[0] != "i64" {
				continue // the largest size runs the multi-key and widest sorts
			}
			name := fmt.Sprintf("n=%d keys=%v", n, ks)
			s := sortOf(scan, ks...)
			got, want := runBoth(t, s)
			checkOrdered(t, name, got, want, s.Keys)
			for _, lim := range []struct{ off, count int64 }{{0, 10}, {5, 100}, {0, 70000}, {3, 0}} {
				// The CPU's TopN merges its workers' survivors, so ties at
				// the cut are not in input order: id makes the order total.
				keys := append(append([]sql.SortKey{}, s.Keys...), sql.SortKey{Expr: ref(scan, "id")})
				tn := &planner.TopN{Input: scan, Keys: keys, Offset: lim.off, Count: lim.count}
				got, want := runBoth(t, tn)
				if d := diffResults(got, want); d != "" {
					t.Fatalf("%s topn %d,%d: %s", name, lim.off, lim.count, d)
				}
			}
		}
	}
}

// A sort above a filter and an expression key runs on the device too.
func TestSortOverFilterAndExpression(t *testing.T) {
	needGPU(t)
	tab := sortTable(100000, 3)
	scan := scanOf(tab, "i32", "i64", "f", "s", "d", "dec", "id")
	f := filterOf(scan, cmpOp(sql.OpGT, ref(scan, "i32"), -50))
	neg := &sql.Neg{E: ref(f, "f")}
	s := &planner.Sort{Input: f, Keys: []sql.SortKey{{Expr: ref(f, "s")}, {Expr: neg, Desc: true}, {Expr: ref(f, "id")}}}
	got, want := runBoth(t, s)
	if d := diffResults(got, want); d != "" {
		t.Fatal(d)
	}
}

// joinTables are two sides of a merge join: duplicate keys on both sides,
// NULL keys, one heavy key (skew), keys on one side only, and a second key
// column of strings from different dictionaries.
func joinTables(nl, nr int, seed uint64) (*columnar.Table, *columnar.Table) {
	mk := func(name string, n int, words []string, salt uint64) *columnar.Table {
		t := newTable(columnar.HeapAllocator, name, n, []colSpec{{name + "k", columnar.TInt32}, {name + "s", columnar.TString}, {name + "v", columnar.TFloat64}, {name + "id", columnar.TInt64}})
		rng := rand.New(rand.NewPCG(seed, salt))
		skew := 10 // the heavy key's share: 1/skew of the rows, bounding the output
		if nl > 20000 {
			skew = 40
		}
		codeOf := make([]int, n)
		k := t.Columns[0]
		k.Valid = make([]uint64, (n+63)/64)
		for i := 0; i < n; i++ {
			switch {
			case rng.IntN(skew) == 0:
				k.I32[i] = 7 // one heavy key
			default:
				k.I32[i] = int32(rng.IntN(n/2+1) - int(salt))
			}
			if rng.IntN(20) != 0 {
				k.SetValid(i)
			}
			codeOf[i] = rng.IntN(len(words))
			t.Columns[2].F64[i] = float64(rng.IntN(9) - 4)
			t.Columns[3].I64[i] = int64(i)
		}
		setDict(t, name+"s", words, codeOf)
		return t
	}
	return mk("l", nl, []string{"a", "b", "c", "d"}, 1), mk("r", nr, []string{"b", "c", "e"}, 2)
}

func mergeJoinOf(kind sql.JoinKind, l, r planner.Node, lk, rk []string, residual sql.Expr) *planner.SortMergeJoin {
	j := &planner.SortMergeJoin{Kind: kind, Left: l, Right: r, Residual: residual}
	for i := range lk {
		j.LeftKeys = append(j.LeftKeys, ref(l, lk[i]))
		j.RightKeys = append(j.RightKeys, ref(r, rk[i]))
	}
	j.Out = append(sql.Schema{}, l.Schema()...)
	if kind == sql.JoinInner || kind == sql.JoinLeft {
		j.Out = append(j.Out, r.Schema()...)
	}
	return j
}

func TestSortMergeJoinDifferential(t *testing.T) {
	needGPU(t)
	for _, sz := range [][2]int{{0, 0}, {0, 100}, {100, 0}, {1, 1}, {1000, 300}, {20000, 3000}, {100000, 20000}} {
		lt, rt := joinTables(sz[0], sz[1], uint64(sz[0]+sz[1]))
		l, r := scanOf(lt, "lk", "ls", "lv", "lid"), scanOf(rt, "rk", "rs", "rv", "rid")
		for _, kind := range []sql.JoinKind{sql.JoinInner, sql.JoinLeft, sql.JoinSemi, sql.JoinAnti} {
			for _, keys := range [][2][]string{{{"lk"}, {"rk"}}, {{"lk", "ls"}, {"rk", "rs"}}, {{"lv"}, {"rv"}}} {
				for _, withRes := range []bool{false, true} {
					var res sql.Expr
					if withRes {
						lr := append(append(sql.Schema{}, l.Schema()...), r.Schema()...)
						res = &sql.Binary{Op: sql.OpLT, L: &sql.ColRef{Index: 3, Col: lr[3]}, R: &sql.ColRef{Index: 7, Col: lr[7]}, T: columnar.TBool}
					}
					j := mergeJoinOf(kind, l, r, keys[0], keys[1], res)
					if keys[0][0] == "lv" && sz[0] > 20000 {
						continue // float keys with 9 values: quadratic output
					}
					got, want := runBoth(t, j)
					if d := diffResults(sorted(got), sorted(want)); d != "" {
						t.Fatalf("%v kind=%v keys=%v residual=%v: %s", sz, kind, keys, withRes, d)
					}
				}
			}
		}
		// NOT IN: NULL-aware anti join on one key.
		j := mergeJoinOf(sql.JoinAnti, l, r, []string{"lk"}, []string{"rk"}, nil)
		j.NullAware = true
		got, want := runBoth(t, j)
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Fatalf("%v not in: %s", sz, d)
		}
	}
}

func TestSortParamLayout(t *testing.T) {
	d := needGPU(t)
	var got [2]int64
	var merge, radix int64
	err := d.do(func() error {
		out, err := d.pool.get(32)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		for _, k := range []struct {
			fn  string
			dst unsafe.Pointer
			n   int64
		}{{"sort_param_sizes", unsafe.Pointer(&got[0]), 16}, {"merge_params_size", unsafe.Pointer(&merge), 8},
			{"radix_sort_param_size", unsafe.Pointer(&radix), 8}} {
			f, err := d.fn(k.fn)
			if err != nil {
				return err
			}
			arg := uint64(out)
			if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
				return err
			}
			if err := cu.MemcpyDtoH(k.dst, out, k.n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [2]int64{int64(unsafe.Sizeof(encodeParams{})), int64(unsafe.Sizeof(countValidParams{}))}
	if got != want || merge != int64(unsafe.Sizeof(mergeParams{})) || radix != int64(unsafe.Sizeof(radixSortParams{})) {
		t.Errorf("kernel struct sizes %v / %d / %d, Go's %v / %d / %d", got, merge, radix, want,
			unsafe.Sizeof(mergeParams{}), unsafe.Sizeof(radixSortParams{}))
	}
}
