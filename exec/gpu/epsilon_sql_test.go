//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The SQL ε-join on the GPU (planner.GPUEpsilonShape) against the CPU
// executor on the same plan and data: pairs, pairs through a filter,
// count(*) and GROUP BY a.id count(*) counted on the device, a group key
// over the right side (pairs needed), L1 and L2, <= and <, ε = 0, a
// one-row and an empty side, NULL vectors, duplicates (a coarse lattice
// puts many points on the same spot and many distances exactly at ε),
// dims 1, 2, 3, 16, 64, row counts that are not multiples of the block
// (256) or of the CPU's 4,096-row batch, and each optimization off.

// epsSQLLines are "id|grp|[v]" rows on a lattice of step 1/4 with side
// values a dimension, every 13th vector NULL; skew puts 9 in 10 points in
// one corner cell. The sets below keep the pairs to some 10^5 a query:
// the comparison renders every row.
func epsSQLLines(rng *rand.Rand, rows, dims, side int, skew bool) []string {
	lines := make([]string, rows)
	for i := range lines {
		v := `\N`
		if i%13 != 5 {
			xs := make([]string, dims)
			for d := range xs {
				x := float32(rng.Intn(side)) / 4
				if skew && i%10 != 0 {
					x = float32(rng.Intn(2)) / 64
				}
				xs[d] = fmt.Sprint(x)
			}
			v = "[" + strings.Join(xs, ",") + "]"
		}
		lines[i] = fmt.Sprintf("%d|%d|%s", i, i%5, v)
	}
	return lines
}

func epsSQLTable(t *testing.T, cat *catalog.Catalog, name string, dims int, lines []string) {
	t.Helper()
	ps, err := sql.Parse(fmt.Sprintf("create table %s (id int, grp int, v vector(%d))", name, dims))
	if err != nil {
		t.Fatal(err)
	}
	st, err := sql.Bind(cat, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	ct := st.(*sql.CreateTable)
	if err := cat.Create(ct.Name, ct.Fields, false); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".tbl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = cat.Update(name, func(old *columnar.Table) (*columnar.Table, error) {
		nt, err := columnar.LoadDelimited(old, path, columnar.DelimitedOptions{Delimiter: '|'})
		if err == nil {
			columnar.ComputeStats(nt)
		}
		return nt, err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func epsSQLQueries(tb, one, none string, eps float64) []string {
	e := fmt.Sprint(eps)
	return []string{
		"select a.id, b.id from " + tb + " a join " + tb + " b on vec_l2_distance(a.v, b.v) <= " + e,
		"select a.id, b.id, b.grp from " + tb + " a join " + tb + " b on vec_l1_distance(a.v, b.v) < " + e + " and a.grp < b.grp",
		"select count(*) from " + tb + " a join " + tb + " b on vec_l2_distance(a.v, b.v) < " + e,
		"select count(*) from " + tb + " a, " + tb + " b where " + e + " >= vec_l1_distance(b.v, a.v)",
		"select a.id, count(*) from " + tb + " a join " + tb + " b on vec_l2_distance(a.v, b.v) <= " + e + " group by a.id",
		"select a.grp, count(*) from " + tb + " a join " + tb + " b on vec_l1_distance(a.v, b.v) <= " + e + " group by a.grp",
		"select b.grp, count(*) from " + tb + " a join " + tb + " b on vec_l2_distance(a.v, b.v) <= " + e + " and a.id <> b.id group by b.grp",
		"select count(*) from " + tb + " a join " + tb + " b on vec_l2_distance(a.v, b.v) <= 0",
		"select a.id, b.id from " + tb + " a join " + tb + " b on vec_l1_distance(a.v, b.v) <= 0",
		"select a.id, b.id from " + one + " a join " + tb + " b on vec_l2_distance(a.v, b.v) <= " + e,
		"select a.id, count(*) from " + tb + " a join " + one + " b on vec_l2_distance(a.v, b.v) < " + e + " group by a.id",
		"select count(*) from " + tb + " a join " + none + " b on vec_l2_distance(a.v, b.v) <= " + e,
		"select b.id, count(*) from " + none + " a join " + tb + " b on vec_l1_distance(a.v, b.v) <= " + e + " group by b.id",
	}
}

func TestEpsilonJoinSQLDifferential(t *testing.T) {
	needGPU(t)
	testEpsilonSQLOn(t, nil)
}

// testEpsilonSQLOn runs the differential test with plans for devices ids
// (nil: the primary).
func testEpsilonSQLOn(t *testing.T, ids []int) {
	d := needGPU(t)
	prof := *d.profile
	prof.Devices = ids
	rng := rand.New(rand.NewSource(11))
	cat := catalog.New()
	type set struct {
		dims, rows, side int
		eps              float64
		skew             bool
	}
	sets := []set{{1, 5001, 1000, 0.5, false}, {2, 4099, 100, 0.5, false}, {2, 501, 40, 0.1, true},
		{3, 2999, 30, 0.5, false}, {16, 1537, 12, 2.5, false}, {64, 777, 4, 3, false}}
	opts := []planner.EpsilonOptions{{}, {NoReorder: true, NoSortIDU: true}, {NoShortC: true, NoBatching: true}, {K: 1}}
	for i, s := range sets {
		name := fmt.Sprintf("p%d_%d", s.dims, i)
		epsSQLTable(t, cat, name, s.dims, epsSQLLines(rng, s.rows, s.dims, s.side, s.skew))
		epsSQLTable(t, cat, name+"_one", s.dims, epsSQLLines(rng, 1, s.dims, s.side, false))
		epsSQLTable(t, cat, name+"_none", s.dims, nil)
		for qi, text := range epsSQLQueries(name, name+"_one", name+"_none", s.eps) {
			ps, err := sql.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			st, err := sql.Bind(cat, ps[0])
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			o := opts[qi%len(opts)]
			if o.K > s.dims {
				o.K = 0
			}
			p, err := planner.Plan(st.(*sql.Query), planner.Options{Epsilon: o, GPU: &prof})
			if err != nil {
				t.Fatal(err)
			}
			if p.GPU == nil || p.GPU.Shape != planner.GPUEpsilonShape {
				t.Fatalf("%s: not planned as a GPU ε-join:\n%s", text, p.Explain())
			}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s cpu: %v", text, err)
			}
			got, err := Run(context.Background(), p)
			if err != nil {
				t.Errorf("%s gpu: %v\n%s", text, err, p.Explain())
				continue
			}
			if qi == 0 && want.Rows == 0 {
				t.Errorf("%s: no pairs; the set should have some", text)
			}
			if diff := diffResults(sorted(got), sorted(want)); diff != "" {
				t.Errorf("%s (%s): %s\n%s", text, o, diff, p.Explain())
			}
		}
	}
}
