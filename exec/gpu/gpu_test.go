//go:build cuda

package gpu

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

func needGPU(t testing.TB) *device {
	t.Helper()
	d, err := getDevice()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	return d
}

func TestDevice(t *testing.T) {
	d := needGPU(t)
	t.Logf("device %s: %d SMs, %d KiB opt-in shared memory per block, %.0f GB/s peak, %d MiB, cache budget %d MiB",
		d.name, d.sms, d.maxShared>>10, d.peakGBs, d.totalMem>>20, d.cache.budget>>20)
}

// The Go parameter structs must match the kernels' byte for byte.
func TestParamLayout(t *testing.T) {
	d := needGPU(t)
	for _, c := range []struct {
		kernel string
		size   uintptr
	}{{"star_params_size", unsafe.Sizeof(starParams{})}, {"dim_params_size", unsafe.Sizeof(dimBuildParams{})}, {"expr_vm_params_size", unsafe.Sizeof(exprVMParams{})}, {"expr_tile_params_size", unsafe.Sizeof(exprTileParams{})}, {"join_params_size", unsafe.Sizeof(joinParams{})}, {"select_params_size", unsafe.Sizeof(selectParams{})}, {"emit_params_size", unsafe.Sizeof(emitParams{})}, {"bitmap_params_size", unsafe.Sizeof(bitmapParams{})}, {"group_compact_params_size", unsafe.Sizeof(groupCompactParams{})}, {"star_finish_params_size", unsafe.Sizeof(finParams{})}} {
		var got int64
		err := d.do(func() error {
			f, err := d.fn(c.kernel)
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
			return cu.MemcpyDtoH(unsafe.Pointer(&got), out, 8)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got != int64(c.size) {
			t.Errorf("%s: kernel struct is %d bytes, Go's %d", c.kernel, got, c.size)
		}
	}
}

// Pinned allocations are reusable column memory that kernels can address.
func TestPinnedAllocator(t *testing.T) {
	needGPU(t)
	a := PinnedAllocator()
	b := a.Alloc(3 << 20)
	if len(b) != 3<<20 || b[12345] != 0 {
		t.Fatalf("bad pinned buffer")
	}
	b[0] = 7
	a.Free(b)
	c := a.Alloc(3 << 20)
	if c[0] != 0 {
		t.Fatalf("reused pinned buffer not zeroed")
	}
	a.Free(c)
	if s := a.Alloc(100); len(s) != 100 {
		t.Fatal("small alloc")
	}
}

// tunings are the fact kernel's launch shapes; tests run under each.
var tunings = []tuning{
	{256, 4, true, false}, {256, 8, true, false}, {256, 16, true, false}, {128, 8, true, false},
	{256, 8, true, true}, {128, 8, true, true}, {256, 4, false, false}, {256, 8, false, false},
}

func eachTuning(t *testing.T, fn func(t *testing.T)) {
	saved := starTuning
	defer func() { starTuning = saved }()
	for _, tu := range tunings {
		starTuning = tu
		t.Run(tu.String(), fn)
	}
}

func (t tuning) String() string {
	s := fmt.Sprintf("t%dx%d", t.block, t.items)
	if !t.fast {
		s += "generic"
	}
	if t.scan {
		s += "scan"
	}
	return s
}

func TestSSBSmall(t *testing.T) {
	needGPU(t)
	db := genSSB(0.05, columnar.HeapAllocator)
	plans := ssbPlans(db)
	eachTuning(t, func(t *testing.T) {
		for _, name := range ssbOrder {
			res := checkPlan(t, name, plans[name])
			t.Logf("%s: %d rows", name, res.Rows)
		}
	})
	// The same data in pinned memory, narrowed BIGINTs included.
	db = genSSB(0.01, PinnedAllocator())
	plans = ssbPlans(db)
	for _, name := range ssbOrder {
		checkPlan(t, name+"/pinned", plans[name])
	}
}

// edgeDB is a fact table f(k, g, v, w) over a dimension d(dk, da, ds):
// k references dk, g is a small group key, v and w values; nullFrac of
// k, g, v are NULL.
func edgeDB(n, ndim int, nullFrac float64, keyScale int64, dupKeys bool, seed uint64) (*columnar.Table, *columnar.Table) {
	r := rand.New(rand.NewPCG(seed, 1))
	withNulls := nullFrac > 0
	f := &columnar.Table{Name: "f", Rows: n}
	add := func(t *columnar.Table, name string, typ columnar.Type, nullable bool) *columnar.Column {
		c := columnar.NewColumnIn(columnar.HeapAllocator, typ, t.Rows, nullable)
		if nullable {
			for i := 0; i < t.Rows; i++ {
				c.SetValid(i)
			}
		}
		t.Fields = append(t.Fields, columnar.Field{Name: name, Type: typ, Nullable: nullable})
		t.Columns = append(t.Columns, c)
		t.Stats = append(t.Stats, nil)
		return c
	}
	k := add(f, "k", columnar.TInt64, withNulls)
	g := add(f, "g", columnar.TInt32, withNulls)
	v := add(f, "v", columnar.TInt64, withNulls)
	w := add(f, "w", columnar.TFloat64, false)
	for i := 0; i < n; i++ {
		k.I64[i] = (int64(r.IntN(ndim+2)) + 1) * keyScale // some keys match nothing
		g.I32[i] = int32(r.IntN(7) - 3)
		v.I64[i] = int64(r.IntN(1000)) - 300
		w.F64[i] = float64(r.IntN(100)) / 4
		if withNulls {
			if r.Float64() < nullFrac {
				k.SetNull(i)
			}
			if r.Float64() < nullFrac {
				g.SetNull(i)
			}
			if r.Float64() < nullFrac {
				v.SetNull(i)
			}
		}
	}
	d := &columnar.Table{Name: "d", Rows: ndim}
	dk := add(d, "dk", columnar.TInt64, false)
	da := add(d, "da", columnar.TInt32, withNulls)
	ds := add(d, "ds", columnar.TString, false)
	vals := []string{"apple", "banana", "cherry", "date"}
	idx := make([]int, ndim)
	for i := 0; i < ndim; i++ {
		dk.I64[i] = int64(i+1) * keyScale
		if dupKeys && i%5 == 4 {
			dk.I64[i] = dk.I64[i-1]
		}
		da.I32[i] = int32(r.IntN(5))
		if withNulls && r.Float64() < nullFrac {
			da.SetNull(i)
		}
		idx[i] = r.IntN(len(vals))
	}
	ds.Dict = columnar.BuildDictionary(vals)
	for i := range idx {
		code, _ := ds.Dict.Lookup(vals[idx[i]])
		ds.I32[i] = code
	}
	return f, d
}

func edgePlans(f, d *columnar.Table) map[string]*planner.Physical {
	phys := func(root planner.Node) *planner.Physical { return &planner.Physical{Root: root} }
	fs := func() planner.Node { return scanOf(f, "k", "g", "v", "w") }
	ds := func() planner.Node { return scanOf(d, "dk", "da", "ds") }
	all := func(a sql.Expr) []sql.AggExpr {
		return []sql.AggExpr{countStar(), {Func: sql.AggCount, Arg: a, T: columnar.TInt64}, sumOf(a),
			{Func: sql.AggMin, Arg: a, T: a.Type()}, {Func: sql.AggMax, Arg: a, T: a.Type()}}
	}
	out := map[string]*planner.Physical{}
	{
		s := fs()
		out["scalar"] = phys(aggOf(s, nil, all(ref(s, "v"))...))
	}
	{
		s := fs()
		out["float"] = phys(aggOf(s, []string{"g"}, sumOf(ref(s, "w")), sql.AggExpr{Func: sql.AggMin, Arg: ref(s, "w"), T: columnar.TFloat64},
			sql.AggExpr{Func: sql.AggMax, Arg: ref(s, "w"), T: columnar.TFloat64}))
	}
	{
		s := fs()
		fl := filterOf(s, cmpOp(sql.OpGT, ref(s, "v"), 0), &sql.IsNull{E: ref(s, "g"), Negated: true})
		out["fact-group"] = phys(aggOf(fl, []string{"g"}, all(ref(fl, "v"))...))
	}
	{
		s := fs()
		fl := filterOf(s, &sql.IsNull{E: ref(s, "g")})
		out["is-null"] = phys(aggOf(fl, []string{"g"}, countStar()))
	}
	{
		j := joinOf(fs(), ds(), "k", "dk")
		out["join-group-dim"] = phys(aggOf(j, []string{"ds", "da"}, all(ref(j, "v"))...))
	}
	{
		// As many payload ranks as dimension rows (past a byte's 254).
		j := joinOf(fs(), ds(), "k", "dk")
		out["join-group-key"] = phys(aggOf(j, []string{"dk"}, sumOf(ref(j, "v")), countStar()))
	}
	{
		dd := ds()
		j := joinOf(fs(), filterOf(dd, strEq(dd, "ds", "banana", "date")), "k", "dk")
		out["join-filter-both"] = phys(aggOf(j, []string{"g", "ds"}, sumOf(arith(sql.OpMul, ref(j, "v"), ref(j, "g"))), countStar()))
	}
	{
		dd := ds()
		j := semiOf(fs(), filterOf(dd, cmpOp(sql.OpLT, ref(dd, "da"), 3)), "k", "dk")
		out["semi"] = phys(aggOf(j, []string{"g"}, sumOf(ref(j, "v"))))
	}
	{
		// A dimension without group columns, tested as a fact filter
		// (planner/gpu_dim_filters.go) among the fact table's own.
		dd, s := ds(), fs()
		j := joinOf(filterOf(s, cmpOp(sql.OpGT, ref(s, "v"), -100)), filterOf(dd, cmpOp(sql.OpLT, ref(dd, "da"), 3)), "k", "dk")
		out["join-dim-filter"] = phys(aggOf(j, []string{"g"}, sumOf(ref(j, "v")), countStar()))
	}
	{
		// One group, a dimension that only filters: the star_scan kernels
		// where no column has NULLs.
		dd, s := ds(), fs()
		j := joinOf(filterOf(s, cmpOp(sql.OpGT, ref(s, "v"), -100)), filterOf(dd, cmpOp(sql.OpLT, ref(dd, "da"), 3)), "k", "dk")
		out["scalar-join-filter"] = phys(aggOf(j, nil, sumOf(ref(j, "v")), countStar(), sumOf(arith(sql.OpMul, ref(j, "v"), ref(j, "g")))))
	}
	{
		s := fs()
		fl := filterOf(s, cmpOp(sql.OpGT, ref(s, "v"), 10), cmpOp(sql.OpLT, ref(s, "g"), 40))
		out["scalar-preds"] = phys(aggOf(fl, nil, sumOf(ref(fl, "v")), countStar(), sumOf(arith(sql.OpSub, ref(fl, "v"), ref(fl, "g")))))
	}
	{
		s := fs()
		fl := filterOf(s, cmpOp(sql.OpGT, ref(s, "v"), 650), &sql.IsNull{E: ref(s, "k"), Negated: true})
		out["select"] = phys(&planner.Projection{Input: fl, Exprs: []sql.Expr{ref(fl, "v"), ref(fl, "g"), ref(fl, "w"), ref(fl, "k")},
			Out: sql.Schema{fl.Schema()[2], fl.Schema()[1], fl.Schema()[3], fl.Schema()[0]}})
		s2 := fs()
		fl2 := filterOf(s2, &sql.IsNull{E: ref(s2, "g")})
		out["select-sorted"] = phys(sortOf(fl2, "-v", "k"))
	}
	{
		j := joinOf(fs(), ds(), "k", "dk")
		out["sorted"] = phys(sortOf(aggOf(j, []string{"ds", "g"}, sumOf(ref(j, "v"))), "-agg0", "ds"))
	}
	{
		// Group slots laid out in the sort's order (planner/gpu_slot_order.go):
		// the fact column's digit above the dimension's two, and the
		// dimension's above the fact column's; with NULLs in a key the
		// host sorts instead.
		j := joinOf(fs(), ds(), "k", "dk")
		out["slot-order-fact-first"] = phys(sortOf(aggOf(j, []string{"ds", "da", "g"}, sumOf(ref(j, "v")), countStar()), "g", "ds", "da"))
		j = joinOf(fs(), ds(), "k", "dk")
		out["slot-order-dim-first"] = phys(sortOf(aggOf(j, []string{"g", "ds", "da"}, sumOf(ref(j, "v"))), "ds", "da", "g"))
		j = joinOf(fs(), ds(), "k", "dk")
		out["slot-order-desc"] = phys(sortOf(aggOf(j, []string{"ds", "da", "g"}, sumOf(ref(j, "v")), countStar()), "-g", "-ds", "-da"))
		j = joinOf(fs(), ds(), "k", "dk")
		a := aggOf(j, []string{"ds", "da", "g"}, countStar())
		out["slot-order-top-n"] = phys(&planner.TopN{Input: a, Keys: []sql.SortKey{{Expr: ref(a, "ds")}, {Expr: ref(a, "da")}, {Expr: ref(a, "g")}}, Offset: 2, Count: 5})
	}
	return out
}

// edgeCases are the edge databases (edgeDB) the star tests run their plans
// over: no fact rows, one, sizes around the kernels' tiles, NULL keys,
// keys that match nothing, hash-table dimensions, a larger table.
var edgeCases = []struct {
	name     string
	n, ndim  int
	nulls    float64
	keyScale int64
}{
	{"empty", 0, 10, 0, 1},
	{"one-row", 1, 3, 0, 1},
	{"odd-sizes", 1025, 7, 0, 1},
	{"tile-minus-one", 256*8 - 1, 50, 0, 1},
	{"nulls", 5000, 40, 0.2, 1},
	{"all-null-keys-mostly", 3000, 5, 0.9, 1},
	{"sparse-keys-hash-table", 20000, 3000, 0.05, 1_000_003},
	{"larger", 300001, 1000, 0.01, 1},
	{"scan-tiles-plus-17", 256*32*3 + 17, 300, 0, 1},
}

func TestStarEdgeCases(t *testing.T) {
	needGPU(t)
	for _, c := range edgeCases {
		f, d := edgeDB(c.n, c.ndim, c.nulls, c.keyScale, false, uint64(c.n))
		plans := edgePlans(f, d)
		eachTuning(t, func(t *testing.T) {
			for name, p := range plans {
				t.Run(c.name+"/"+name, func(t *testing.T) { checkPlan(t, name, p) })
			}
		})
	}
}

func TestStarSkewAndManyGroups(t *testing.T) {
	needGPU(t)
	db := genSSB(0.02, columnar.HeapAllocator)
	lo := db["lineorder"]
	// Skew: every row one group (shared-memory replicas all hit one slot).
	s := scanOf(lo, "lo_discount", "lo_revenue", "lo_quantity", "lo_partkey")
	fl := filterOf(s, cmpOp(sql.OpEQ, ref(s, "lo_discount"), 4))
	checkPlan(t, "skew", &planner.Physical{Root: aggOf(fl, []string{"lo_discount"}, sumOf(ref(fl, "lo_revenue")), countStar())})
	// 50 x 4000 groups: global atomics.
	s = scanOf(lo, "lo_discount", "lo_revenue", "lo_quantity", "lo_partkey")
	checkPlan(t, "many-groups", &planner.Physical{Root: aggOf(s, []string{"lo_quantity", "lo_partkey"}, sumOf(ref(s, "lo_revenue")))})
	// Medium: 50 x 11 groups in shared memory with one replica or few.
	s = scanOf(lo, "lo_discount", "lo_revenue", "lo_quantity", "lo_partkey")
	checkPlan(t, "medium-groups", &planner.Physical{Root: aggOf(s, []string{"lo_quantity", "lo_discount"}, sumOf(ref(s, "lo_revenue")), countStar(),
		sql.AggExpr{Func: sql.AggMax, Arg: ref(s, "lo_revenue"), T: columnar.TInt64})})
}

func TestDuplicateBuildKeys(t *testing.T) {
	needGPU(t)
	f, d := edgeDB(1000, 20, 0, 1, true, 5)
	j := joinOf(scanOf(f, "k", "g", "v", "w"), scanOf(d, "dk", "da", "ds"), "k", "dk")
	// Duplicate dimension keys refuse the star pipeline; the hash join
	// and hash group-by of the materializing executor take the plan.
	checkPlan(t, "dup", &planner.Physical{Root: aggOf(j, []string{"ds"}, countStar())})
	// A semi-join does not care.
	j = semiOf(scanOf(f, "k", "g", "v", "w"), scanOf(d, "dk", "da", "ds"), "k", "dk")
	checkPlan(t, "semi-dup", &planner.Physical{Root: aggOf(j, []string{"g"}, countStar())})
}

func TestUnsupportedNamesOperator(t *testing.T) {
	needGPU(t)
	f, _ := edgeDB(10, 3, 0, 1, false, 1)
	s := scanOf(f, "k", "g")
	// A function the expression VM does not have.
	_, err := Run(t.Context(), &planner.Physical{Root: &planner.Projection{Input: s,
		Exprs: []sql.Expr{&sql.Func{Name: "nosuch", Args: []sql.Expr{ref(s, "k")}, T: columnar.TInt64}},
		Out:   sql.Schema{{Name: "x", Type: columnar.TInt64}}}})
	if err == nil || !strings.Contains(err.Error(), "operator Projection not supported on the GPU yet") {
		t.Fatalf("got %v", err)
	}
}
