//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// setRows says how a set-operation table's values are drawn.
type setRows int

const (
	setMixed   setRows = iota // few distinct values per column, NULLs in every column
	setAllSame                // every row the same
	setAllNull                // every value NULL
	setSkewed                 // 9 rows in 10 one row, the rest mostly distinct
)

// setTable has every column kind the set operations compare: INT with
// negatives, BIGINT beyond 32 bits, DOUBLE with -0, 0 and NaNs of both
// signs, DATE, and strings from a dictionary of its own (words).
func setTable(name string, n int, seed uint64, words []string, how setRows) *columnar.Table {
	t := newTable(columnar.HeapAllocator, name, n, []colSpec{
		{"a", columnar.TInt32}, {"b", columnar.TInt64}, {"f", columnar.TFloat64}, {"d", columnar.TDate}, {"s", columnar.TString}})
	rng := rand.New(rand.NewPCG(seed, 11))
	codeOf := make([]int, n)
	c := t.Columns
	for i := 0; i < n; i++ {
		if how == setAllSame {
			c[0].I32[i], c[1].I64[i], c[2].F64[i], c[3].I32[i] = -3, 1<<40, 2.5, 9000
			continue
		}
		if how == setSkewed {
			c[0].I32[i], c[1].I64[i], c[2].F64[i], c[3].I32[i] = 5, 5, 5, 9005
			if rng.IntN(10) == 0 {
				c[0].I32[i], c[1].I64[i] = rng.Int32()-1<<30, rng.Int64()-1<<62
				c[2].F64[i], c[3].I32[i] = rng.NormFloat64(), int32(rng.IntN(1<<20))
				codeOf[i] = rng.IntN(len(words))
			}
			continue
		}
		c[0].I32[i] = int32(rng.IntN(7) - 3)
		c[1].I64[i] = int64(rng.IntN(5)-2) << 40
		c[2].F64[i] = float64(rng.IntN(5)-2) / 2
		switch rng.IntN(16) {
		case 0:
			c[2].F64[i] = math.Copysign(0, -1) // one row with 0
		case 1:
			c[2].F64[i] = math.NaN()
		case 2:
			c[2].F64[i] = math.Copysign(math.NaN(), -1) // one row with NaN
		}
		c[3].I32[i] = int32(rng.IntN(4) + 9000)
		codeOf[i] = rng.IntN(len(words))
	}
	setDict(t, "s", words, codeOf)
	for j, col := range c {
		col.Valid = make([]uint64, (n+63)/64)
		for i := 0; i < n; i++ {
			if how == setAllSame || how == setSkewed || how == setMixed && rng.IntN(9+j) != 0 {
				col.SetValid(i)
			}
		}
	}
	return t
}

// runSetBoth runs root on the CPU executor and on the GPU with every
// DISTINCT and set operation forced to alg, checking the GPU plan took it.
func runSetBoth(t *testing.T, root planner.Node, alg planner.SetAlgorithm) (got, want *exec.Result, explain string) {
	t.Helper()
	p := &planner.Physical{Root: root}
	for _, c := range root.Schema() {
		p.Names = append(p.Names, c.Name)
	}
	want, err := cpu.Run(t.Context(), p)
	if err != nil {
		t.Fatalf("cpu: %v", err)
	}
	prof, _ := DeviceProfile()
	prof.ForceSetOp = alg
	p.GPU = planner.PlanGPU(p, prof)
	explain = p.Explain()
	for n, c := range p.GPU.SetOps {
		if c.Algorithm != alg {
			t.Fatalf("%s runs by %s, forced %s:\n%s", planner.OpName(n), c.Algorithm, alg, explain)
		}
	}
	if got, err = Run(t.Context(), p); err != nil {
		t.Fatalf("gpu: %v\n%s", err, explain)
	}
	return got, want, explain
}

// setOpsUnderTest are DISTINCT and the six set operations that compare
// rows, plus UNION ALL.
var setOpsUnderTest = []struct {
	name string
	kind sql.SetOpKind
	all  bool
}{
	{"DISTINCT", 0, false}, // kind 0: a DISTINCT of the left input
	{"UNION", sql.SetUnion, false}, {"UNION ALL", sql.SetUnion, true},
	{"INTERSECT", sql.SetIntersect, false}, {"INTERSECT ALL", sql.SetIntersect, true},
	{"EXCEPT", sql.SetExcept, false}, {"EXCEPT ALL", sql.SetExcept, true},
}

func setOpOf(kind sql.SetOpKind, all bool, l, r planner.Node) planner.Node {
	if kind == 0 {
		return &planner.Distinct{Input: l}
	}
	return &planner.SetOp{Kind: kind, All: all, Left: l, Right: r, Out: l.Schema()}
}

// Sort-based and hash-based DISTINCT and set operations on the GPU give
// the CPU executor's rows (as multisets) on empty sides, one row, sizes
// that are no multiple of a block or sort tile, all-equal, all-NULL and
// skewed inputs (one row nine times in ten: a run spanning many tiles),
// and rows of one to five columns of every kind.
func TestSetOpSortDifferential(t *testing.T) {
	needGPU(t)
	colSets := [][]string{{"a"}, {"f"}, {"s"}, {"d", "s"}, {"a", "b", "f", "d", "s"}}
	for _, sz := range []struct {
		nl, nr int
		how    setRows
	}{
		{0, 0, setMixed}, {0, 5, setMixed}, {5, 0, setMixed}, {1, 1, setMixed}, {1, 3, setAllSame},
		{1000, 700, setMixed}, {4097, 4095, setAllSame}, {3000, 257, setAllNull}, {70001, 30007, setMixed},
		{50003, 20011, setSkewed},
	} {
		lt := setTable("l", sz.nl, uint64(sz.nl), []string{"kiwi", "apple", "fig", ""}, sz.how)
		rt := setTable("r", sz.nr, uint64(sz.nr)+1, []string{"fig", "zebra", "apple"}, sz.how)
		for _, cols := range colSets {
			for _, op := range setOpsUnderTest {
				for _, alg := range []planner.SetAlgorithm{planner.SetSort, planner.SetHash} {
					name := fmt.Sprintf("%s %dx%d rows=%d cols=%v %s", op.name, sz.nl, sz.nr, sz.how, cols, alg)
					root := setOpOf(op.kind, op.all, scanOf(lt, cols...), scanOf(rt, cols...))
					got, want, explain := runSetBoth(t, root, alg)
					if alg == planner.SetHash {
						// The hash form keeps any copy of equal rows, so
						// -0 and 0 may come back either way.
						got, want = zeroSigns(got), zeroSigns(want)
					}
					if d := diffResults(sorted(got), sorted(want)); d != "" {
						t.Fatalf("%s: %s\n%s", name, d, explain)
					}
					// The sorted form lists a set operation's rows in the
					// CPU's order (first copies, left rows in left order).
					if d := diffResults(got, want); alg == planner.SetSort && op.kind != 0 && d != "" {
						t.Fatalf("%s: not in the CPU's order: %s\n%s", name, d, explain)
					}
				}
			}
		}
	}
}

// A DISTINCT over rows already sorted on its columns (through a filter and
// a projection) skips its sort and still gives the CPU's rows; so does one
// stacked on a sort-based UNION.
func TestSetOpSortedInputDifferential(t *testing.T) {
	needGPU(t)
	for _, n := range []int{1, 999, 100003} {
		tab := setTable("t", n, uint64(n), []string{"kiwi", "apple", "fig", ""}, setMixed)
		scan := scanOf(tab, "a", "b", "d", "s")
		f := filterOf(scan, cmpOp(sql.OpGT, ref(scan, "a"), -3))
		s := sortOf(f, "-s", "a", "d", "b")
		proj := &planner.Projection{Input: s, Exprs: []sql.Expr{ref(s, "d"), ref(s, "s"), ref(s, "a"), ref(s, "b")},
			Out: sql.Schema{s.Schema()[2], s.Schema()[3], s.Schema()[0], s.Schema()[1]}}
		dist := &planner.Distinct{Input: proj}
		p := &planner.Physical{Root: dist}
		prof, _ := DeviceProfile()
		prof.ForceSetOp = planner.SetSort
		if g := planner.PlanGPU(p, prof); !g.SetOps[dist].InputSorted {
			t.Fatalf("n=%d: the plan sorts again:\n%s", n, p.Explain())
		}
		got, want, explain := runSetBoth(t, dist, planner.SetSort)
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Fatalf("n=%d sorted input: %s\n%s", n, d, explain)
		}
		other := setTable("u", n/2+1, uint64(n)+5, []string{"fig", "zebra"}, setMixed)
		u := setOpOf(sql.SetUnion, false, scanOf(tab, "a", "s"), scanOf(other, "a", "s"))
		got, want, explain = runSetBoth(t, &planner.Distinct{Input: u}, planner.SetSort)
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Fatalf("n=%d DISTINCT over UNION: %s\n%s", n, d, explain)
		}
	}
}

// The kept copy of a row is the first in input order, as on the CPU: with
// -0 before 0 on the left, UNION and INTERSECT return -0 and EXCEPT ALL
// the later copies; the rendering of -0 tells them apart.
func TestSetOpSortKeepsFirstCopy(t *testing.T) {
	needGPU(t)
	mk := func(name string, vals ...float64) *columnar.Table {
		tab := newTable(columnar.HeapAllocator, name, len(vals), []colSpec{{"f", columnar.TFloat64}})
		copy(tab.Columns[0].F64, vals)
		return tab
	}
	neg := math.Copysign(0, -1)
	lt, rt := mk("l", neg, 0, 1, 0, neg), mk("r", 0, 1)
	for _, op := range setOpsUnderTest {
		root := setOpOf(op.kind, op.all, scanOf(lt, "f"), scanOf(rt, "f"))
		got, want, explain := runSetBoth(t, root, planner.SetSort)
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Fatalf("%s: %s\n%s", op.name, d, explain)
		}
	}
}

// The Go parameter structs of set_op_sort.cu match the kernels' byte for
// byte.
func TestSetOpSortParamLayout(t *testing.T) {
	d := needGPU(t)
	var got [2]int64
	err := d.do(func() error {
		f, err := d.fn("set_op_sort_param_sizes")
		if err != nil {
			return err
		}
		out, err := d.pool.get(16)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		arg := uint64(out)
		if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&got[0]), out, 16)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := [2]int64{int64(unsafe.Sizeof(setopHeadsParams{})), int64(unsafe.Sizeof(setopKeepParams{}))}; got != want {
		t.Errorf("kernel structs are %v bytes, Go's %v", got, want)
	}
	var mask int64
	err = d.do(func() error {
		f, err := d.fn("set_op_sort_mask_size")
		if err != nil {
			return err
		}
		out, err := d.pool.get(8)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		arg := uint64(out)
		if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&mask), out, 8)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(unsafe.Sizeof(setopMaskParams{})); mask != want {
		t.Errorf("MaskParams is %d bytes, Go's %d", mask, want)
	}
}

// zeroSigns is res with every -0 made 0.
func zeroSigns(res *exec.Result) *exec.Result {
	out := *res
	out.Columns = append([]*columnar.Column(nil), res.Columns...)
	for i, c := range out.Columns {
		if c.F64 == nil {
			continue
		}
		cp := *c
		cp.F64 = append([]float64(nil), c.F64...)
		for r, v := range cp.F64 {
			if v == 0 {
				cp.F64[r] = 0
			}
		}
		out.Columns[i] = &cp
	}
	return &out
}

// A Sort or TopN over a sort-based DISTINCT or set operation that asks for
// its sorted order (every column, ascending) does not sort, and the rows
// still come in the CPU's order.
func TestSetOpSortOrdersAbove(t *testing.T) {
	needGPU(t)
	for _, n := range []int{0, 1, 4099, 50001} {
		lt := setTable("l", n, uint64(n)+7, []string{"kiwi", "apple", "fig", ""}, setMixed)
		rt := setTable("r", n/2+1, uint64(n)+8, []string{"fig", "zebra", "apple"}, setMixed)
		dist := &planner.Distinct{Input: scanOf(lt, "a", "s", "d")}
		byA := &planner.Sort{Input: dist, Keys: []sql.SortKey{{Expr: ref(dist, "a")}, {Expr: ref(dist, "s")}, {Expr: ref(dist, "d")}}}
		inter := setOpOf(sql.SetIntersect, true, scanOf(lt, "a", "d"), scanOf(rt, "a", "d"))
		top := &planner.TopN{Input: inter, Keys: []sql.SortKey{{Expr: ref(inter, "a")}, {Expr: ref(inter, "d")}}, Offset: 2, Count: 100}
		for _, root := range []planner.Node{byA, top} {
			name := fmt.Sprintf("n=%d %s", n, planner.OpName(root))
			got, want, explain := runSetBoth(t, root, planner.SetSort)
			if !strings.Contains(explain, "not sorted again") {
				t.Fatalf("%s: the plan sorts again:\n%s", name, explain)
			}
			var keys []sql.SortKey
			switch x := root.(type) {
			case *planner.Sort:
				keys = x.Keys
			case *planner.TopN:
				keys = x.Keys
			}
			checkOrdered(t, name, got, want, keys)
		}
	}
}
