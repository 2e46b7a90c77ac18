//go:build cuda

package gpu

import (
	"testing"

	"gpusql/planner"
	"gpusql/sql"
)

// Dimensions tested as fact filters (planner/gpu_dim_filters.go) give the
// answers of the CPU executor: the SSB queries that have them (Q1.x's
// date, Q4.x's supplier or customer) beside the fact table's own filters,
// and the edge tables' inner and semi joins with NULL fact keys, keys
// that match nothing, an empty and a one-row fact table, every kernel
// tuning.
func TestDimFilterDifferential(t *testing.T) {
	needGPU(t)
	prof, err := DeviceProfile()
	if err != nil {
		t.Fatal(err)
	}
	filters := ssbStarDifferential(t, prof, func(d *planner.GPUStarDim) bool { return d.AsFilter })
	if filters == 0 {
		t.Error("no SSB plan tested a dimension as a fact filter")
	}
	for _, c := range []struct {
		name  string
		n     int
		nulls float64
	}{{"empty", 0, 0}, {"one-row", 1, 0}, {"odd", 2049, 0}, {"nulls", 5000, 0.2}} {
		f, d := edgeDB(c.n, 40, c.nulls, 1, false, uint64(c.n)+11)
		plans := edgePlans(f, d)
		// The dimension's surviving keys: scattered, one run (the filter
		// trimmed to a few bitmap words), none.
		for name, cond := range map[string]func(dd planner.Node) sql.Expr{
			"keys-scattered": func(dd planner.Node) sql.Expr { return cmpOp(sql.OpEQ, ref(dd, "da"), 4) },
			"keys-one-run":   func(dd planner.Node) sql.Expr { return between(ref(dd, "dk"), 35, 38) },
			"keys-none":      func(dd planner.Node) sql.Expr { return cmpOp(sql.OpGT, ref(dd, "da"), 10) },
		} {
			dd, s := scanOf(d, "dk", "da", "ds"), scanOf(f, "k", "g", "v", "w")
			j := joinOf(s, filterOf(dd, cond(dd)), "k", "dk")
			plans[name] = &planner.Physical{Root: aggOf(j, []string{"g"}, sumOf(ref(j, "v")), countStar())}
		}
		for _, name := range []string{"join-dim-filter", "semi", "keys-scattered", "keys-one-run", "keys-none"} {
			p := plans[name]
			g := planner.PlanGPU(p, prof)
			if g.Star == nil || len(g.Star.Dims) != 1 || !g.Star.Dims[0].AsFilter {
				t.Fatalf("%s/%s: the dimension is not a fact filter:\n%s", c.name, name, p.Explain())
			}
			eachTuning(t, func(t *testing.T) {
				t.Run(c.name+"/"+name, func(t *testing.T) { checkPlan(t, name, p) })
			})
		}
	}
}
