//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// skewedSSB is SSB SF 0.05 with lo_suppkey redrawn under Zipf theta over
// the supplier keys and 3 keys no supplier has, NULL every nullEvery-th
// row (0: none), and the remap of lo_suppkey.
func skewedSSB(t *testing.T, theta float64, nullEvery int) (*catalog.Catalog, planner.RemapLookup) {
	return skewedSSBColumn(t, "lo_suppkey", "supplier", theta, nullEvery)
}

// skewedSSBColumn is skewedSSB for fact column column, a key of table dim.
func skewedSSBColumn(t *testing.T, column, dim string, theta float64, nullEvery int) (*catalog.Catalog, planner.RemapLookup) {
	base := ssbtest.Catalog(t, 0.05, columnar.HeapAllocator)
	cat := catalog.New()
	for _, name := range base.Names() {
		tb, _ := base.Table(name)
		cat.Put(tb)
	}
	lo, _ := base.Table("lineorder")
	sup, _ := base.Table(dim)
	c := lo.ColumnIndex(column)
	col := columnar.NewColumn(lo.Fields[c].Type, lo.Rows, nullEvery > 0)
	for i, v := range ssbgen.ZipfColumn(lo.Rows, sup.Rows+3, theta, 5) {
		col.I32[i] = v + 1
	}
	for i := range col.Valid {
		col.Valid[i] = ^uint64(0)
	}
	for i := 0; nullEvery > 0 && i < lo.Rows; i += nullEvery {
		col.Valid[i>>6] &^= 1 << (uint(i) & 63)
	}
	skewed := *lo
	skewed.Fields = append([]columnar.Field(nil), lo.Fields...)
	skewed.Fields[c].Nullable = nullEvery > 0
	skewed.Columns = append([]*columnar.Column(nil), lo.Columns...)
	skewed.Columns[c] = col
	skewed.Stats = nil // recomputed, not shared with the cached table's
	columnar.ComputeStats(&skewed)
	cat.Put(&skewed)
	lookupT, _ := cat.Table("lineorder")
	minV, codes, ok := columnar.RemapCandidate(lookupT, c, 1)
	if !ok {
		t.Fatalf("%s is no remap candidate", column)
	}
	rm, err := columnar.BuildColumnRemap(lookupT, c, minV, codes, columnar.DefaultColumnRemapOptions())
	if err != nil {
		t.Fatal(err)
	}
	return cat, func(tb *columnar.Table, col int) *columnar.ColumnRemap {
		if rm.Matches(tb, col) {
			return rm
		}
		return nil
	}
}

// The star kernel reading supplier payloads in lo_suppkey's remapped
// layout returns what it returns without the remap and what the CPU
// returns, on every SSB query and kernel tuning: skewed keys, NULL keys,
// keys no supplier has, a fact table of a size that is no multiple of 32.
func TestStarRemapDifferential(t *testing.T) {
	needGPU(t)
	for _, c := range []struct {
		theta     float64
		nullEvery int
	}{{0, 0}, {1.5, 0}, {2, 37}} {
		cat, lookup := skewedSSB(t, c.theta, c.nullEvery)
		lo, _ := cat.Table("lineorder")
		t.Logf("theta %g: %d fact rows (%d mod 32), NULL every %d", c.theta, lo.Rows, lo.Rows%32, c.nullEvery)
		remapped := 0
		for _, q := range ssbtest.Queries(t, cat) {
			plain, err := planner.Plan(q.Query, planner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			withRemap, err := planner.Plan(q.Query, planner.Options{Remaps: lookup})
			if err != nil {
				t.Fatal(err)
			}
			if g := planner.PlanGPU(withRemap, nil); g.Star != nil {
				for _, d := range g.Star.Dims {
					if d.Payload.Layout == planner.PayloadSharedRemapped {
						remapped++
					}
				}
			}
			want, err := cpu.Run(context.Background(), plain)
			if err != nil {
				t.Fatalf("%s cpu: %v", q.Name, err)
			}
			eachTuningQuiet(func(tu tuning) {
				for name, p := range map[string]*planner.Physical{"plain": plain, "remapped": withRemap} {
					got, err := Run(context.Background(), p)
					if err != nil {
						t.Errorf("theta %g %s %s %s: %v", c.theta, q.Name, name, tu, err)
						continue
					}
					if d := diffResults(got, want); d != "" {
						t.Errorf("theta %g %s %s %s: %s\n%s", c.theta, q.Name, name, tu, d, p.Explain())
					}
				}
			})
		}
		if remapped == 0 {
			t.Errorf("theta %g: no plan read a remapped payload", c.theta)
		}
		fmt.Printf("theta %g: %d star dimensions read remapped payloads\n", c.theta, remapped)
	}
}

// A group table laid out by a fact column's remap (Zipf keys; lo_custkey's
// 1,503 values, too many groups for more than one shared copy; lo_suppkey's
// 103 under inner digits from a dimension or a second fact column): the
// flush adds each copy into its value's group, so the GPU returns what it
// returns without the remap and what the CPU returns, NULL keys (their own
// slot) included.
func TestStarGroupRemapDifferential(t *testing.T) {
	needGPU(t)
	single := []string{
		"select lo_custkey, count(*), sum(lo_revenue) from lineorder group by lo_custkey",
		"select lo_custkey, min(lo_quantity), max(lo_tax) from lineorder where lo_discount < 4 group by lo_custkey",
	}
	inner := []string{
		"select d_year, lo_suppkey, count(*) from lineorder join date on lo_orderdate = d_datekey group by d_year, lo_suppkey",
		"select lo_shipmode, lo_suppkey, count(*), sum(lo_quantity) from lineorder where lo_discount > 2 group by lo_shipmode, lo_suppkey",
	}
	for _, c := range []struct {
		column, dim string
		theta       float64
		nullEvery   int
		queries     []string
	}{{"lo_custkey", "customer", 1.5, 0, single}, {"lo_custkey", "customer", 1.5, 41, single}, {"lo_suppkey", "supplier", 2, 37, inner}} {
		cat, lookup := skewedSSBColumn(t, c.column, c.dim, c.theta, c.nullEvery)
		remapped := 0
		for _, text := range c.queries {
			ps, err := sql.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			st, err := sql.Bind(cat, ps[0])
			if err != nil {
				t.Fatal(err)
			}
			plain, err := planner.Plan(st.(*sql.Query), planner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			withRemap, err := planner.Plan(st.(*sql.Query), planner.Options{Remaps: lookup})
			if err != nil {
				t.Fatal(err)
			}
			if g := planner.PlanGPU(withRemap, nil); g.Star != nil && g.Star.Groups.Layout == planner.GroupSharedRemapped {
				remapped++
			}
			want, err := cpu.Run(context.Background(), plain)
			if err != nil {
				t.Fatalf("%s cpu: %v", text, err)
			}
			eachTuningQuiet(func(tu tuning) {
				for name, p := range map[string]*planner.Physical{"plain": plain, "remapped": withRemap} {
					got, err := Run(context.Background(), p)
					if err != nil {
						t.Errorf("%s theta %g %s %s %s: %v", c.column, c.theta, text, name, tu, err)
						continue
					}
					if d := diffResults(sorted(got), sorted(want)); d != "" {
						t.Errorf("%s theta %g %s %s %s: %s\n%s", c.column, c.theta, text, name, tu, d, p.Explain())
					}
				}
			})
		}
		if remapped != len(c.queries) {
			t.Errorf("%s theta %g: %d of %d plans laid their group table out by the remap", c.column, c.theta, remapped, len(c.queries))
		}
	}
}
