package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// dimModel is a dimension table d(dk, dg, df) kept in Go, the brute-force
// side of TestGPUDimBuildCacheWrites.
type dimModel map[int64][2]int64 // dk → (dg, df)

// want is the star query's answer from first principles: per dg of the
// dimension rows with df = 1, the sum and count of the fact rows joining
// them (fact row i has fk = i % 130 and v = i).
func (m dimModel) want(factRows int) []string {
	sums, counts := map[int64]int64{}, map[int64]int64{}
	for i := 0; i < factRows; i++ {
		if d, ok := m[int64(i%130)]; ok && d[1] == 1 {
			sums[d[0]] += int64(i)
			counts[d[0]]++
		}
	}
	var out []string
	for g := range sums {
		out = append(out, fmt.Sprintf("%d %d %d", g, sums[g], counts[g]))
	}
	slices.Sort(out)
	return out
}

const dimCacheQuery = "SELECT d.dg, SUM(f.v), COUNT(*) FROM f, d WHERE f.fk = d.dk AND d.df = 1 GROUP BY d.dg"

// runDimQuery runs the star query on the GPU with its kernels profiled and
// returns its rows (sorted) and the dimension builds it took from the cache
// and made.
func runDimQuery(t *testing.T, db *DB) (rows []string, cached, made int) {
	t.Helper()
	prep, err := db.Prepare(dimCacheQuery)
	if err != nil {
		t.Fatal(err)
	}
	res, prof, err := db.RunGPUProfiled(context.Background(), prep)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < res.Rows; i++ {
		rows = append(rows, strings.Join(res.Row(i), " "))
	}
	slices.Sort(rows)
	return rows, prof.DimBuildsCached, prof.DimBuildsMade
}

// A star query's dimension build is cached on the device and reused by the
// next run; every kind of write to the dimension (INSERT, UPDATE, DELETE,
// LOAD DATA) makes the next run build it again from the new rows, checked
// against a brute-force model of the table.
func TestGPUDimBuildCacheWrites(t *testing.T) {
	db, err := Open(Options{Executor: "gpu"})
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	defer db.Close()
	const factRows = 5000
	var fact strings.Builder
	for i := 0; i < factRows; i++ {
		if i > 0 {
			fact.WriteString(",")
		}
		fmt.Fprintf(&fact, "(%d,%d)", i%130, i)
	}
	model := dimModel{}
	var dim strings.Builder
	for k := int64(0); k < 100; k++ {
		if k > 0 {
			dim.WriteString(",")
		}
		model[k] = [2]int64{k % 6, k % 3}
		fmt.Fprintf(&dim, "(%d,%d,%d)", k, k%6, k%3)
	}
	mustExec(t, db, "CREATE TABLE f (fk INT, v INT); CREATE TABLE d (dk INT, dg INT, df INT);"+
		"INSERT INTO f VALUES "+fact.String()+"; INSERT INTO d VALUES "+dim.String(), "")
	check := func(step string, wantMade int) {
		t.Helper()
		got, cached, made := runDimQuery(t, db)
		if want := model.want(factRows); !slices.Equal(got, want) {
			t.Errorf("%s: GPU rows\n%v\nwant\n%v", step, got, want)
		}
		if made != wantMade || cached != 1-wantMade {
			t.Errorf("%s: %d dimension builds made, %d cached; want %d made", step, made, cached, wantMade)
		}
	}
	check("first run", 1)
	check("second run", 0)

	mustExec(t, db, "INSERT INTO d VALUES (100,5,1),(101,0,1),(120,2,1),(129,4,1)", "")
	for _, k := range []int64{100, 101, 120, 129} {
		model[k] = map[int64][2]int64{100: {5, 1}, 101: {0, 1}, 120: {2, 1}, 129: {4, 1}}[k]
	}
	check("after INSERT", 1)
	check("after INSERT, again", 0)

	mustExec(t, db, "UPDATE d SET dg = 7 WHERE dk < 20", "")
	for k, v := range model {
		if k < 20 {
			model[k] = [2]int64{7, v[1]}
		}
	}
	check("after UPDATE of a group column", 1)
	mustExec(t, db, "UPDATE d SET df = 1 WHERE dk >= 90 AND dk < 100", "")
	for k, v := range model {
		if k >= 90 && k < 100 {
			model[k] = [2]int64{v[0], 1}
		}
	}
	check("after UPDATE of a filtered column", 1)
	check("after UPDATE, again", 0)

	mustExec(t, db, "DELETE FROM d WHERE dk % 7 = 0", "")
	for k := range model {
		if k%7 == 0 {
			delete(model, k)
		}
	}
	check("after DELETE", 1)
	check("after DELETE, again", 0)

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "d.tbl"), []byte("110|3|1|\n111|3|0|\n125|1|1|\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "LOAD DATA INFILE 'd.tbl' INTO TABLE d FIELDS TERMINATED BY '|'", dir)
	model[110], model[111], model[125] = [2]int64{3, 1}, [2]int64{3, 0}, [2]int64{1, 1}
	check("after LOAD DATA", 1)
	check("after LOAD DATA, again", 0)
}
