package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// The SQL ε-join returns exactly the nested loop's rows (the nested loop
// evaluates VEC_L2_DISTANCE / VEC_L1_DISTANCE on every pair: brute force
// over the SQL definition). The points sit on a small integer lattice, so
// many pairs lie at exactly ε, plus float points with ε set to the SQL
// distance of one of their pairs, for every metric, comparison, shape of
// query and option set.
func TestEpsilonJoinMatchesNestedLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	db := open(t)
	type set struct {
		table string
		dims  int
		eps   []string
	}
	var sets []set
	for _, dims := range []int{1, 2, 3, 8} {
		name := fmt.Sprintf("lat%d", dims)
		var rows []string
		for i := range 150 {
			v := make([]string, dims)
			for d := range v {
				v[d] = fmt.Sprint(rng.Intn(5))
			}
			rows = append(rows, fmt.Sprintf("(%d, '[%s]')", i, strings.Join(v, ",")))
		}
		rows = append(rows, "(150, NULL)")
		mustExec(t, db, fmt.Sprintf("CREATE TABLE %s (id INT, v VECTOR(%d)); INSERT INTO %s VALUES %s",
			name, dims, name, strings.Join(rows, ",")), "")
		sets = append(sets, set{name, dims, []string{"0", "1", "1.4142135", "1.4142136", "2", "2.5", "3"}})
	}
	// Float points; ε is the L2 distance of pair (0, 1) as SQL prints it.
	var rows []string
	pts := make([][]float32, 200)
	for i := range pts {
		pts[i] = []float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()}
		rows = append(rows, fmt.Sprintf("(%d, '[%v,%v,%v,%v]')", i, pts[i][0], pts[i][1], pts[i][2], pts[i][3]))
	}
	mustExec(t, db, "CREATE TABLE fl (id INT, v VECTOR(4)); INSERT INTO fl VALUES "+strings.Join(rows, ","), "")
	var s float32
	for d := range 4 {
		x := pts[0][d] - pts[1][d]
		s += float32(x * x)
	}
	sets = append(sets, set{"fl", 4, []string{fmt.Sprint(math.Sqrt(float64(s))), "0.2", "0.35"}})

	queries := []string{
		"SELECT a.id, b.id FROM %[1]s a JOIN %[1]s b ON %[2]s(a.v, b.v) %[3]s %[4]s ORDER BY 1, 2",
		"SELECT count(*) FROM %[1]s a, %[1]s b WHERE %[2]s(b.v, a.v) %[3]s %[4]s AND a.id <> b.id",
		"SELECT a.id, count(*) FROM %[1]s a JOIN %[1]s b ON %[2]s(a.v, b.v) %[3]s %[4]s GROUP BY a.id ORDER BY 1",
	}
	options := []string{"on", "noreorder", "nosortidu,noshortc", "k=1", "k=6"}
	checked := 0
	for _, st := range sets {
		for _, fn := range []string{"VEC_L2_DISTANCE", "VEC_L1_DISTANCE"} {
			for _, cmp := range []string{"<=", "<"} {
				for _, eps := range st.eps {
					for _, q := range queries {
						sqlText := fmt.Sprintf(q, st.table, fn, cmp, eps)
						mustExec(t, db, "SET epsilon_join = 'off'", "")
						want := rowsText(mustExec(t, db, sqlText, "")[0].Result)
						for _, o := range options {
							mustExec(t, db, "SET epsilon_join = '"+o+"'", "")
							res := mustExec(t, db, "EXPLAIN "+sqlText, "")[0]
							if !strings.Contains(res.Explain, "EpsilonJoin") {
								t.Fatalf("%s: not planned as an EpsilonJoin:\n%s", sqlText, res.Explain)
							}
							if got := rowsText(mustExec(t, db, sqlText, "")[0].Result); got != want {
								t.Fatalf("%s under epsilon_join=%s:\n got %.200s\nwant %.200s", sqlText, o, got, want)
							}
							checked++
						}
					}
				}
			}
		}
	}
	t.Logf("%d queries equal to the nested loop", checked)
}

// Conditions the ε-join cannot answer stay nested loops: an outer join
// (unmatched rows), a lower bound, a bound that is not a constant, both
// vectors from one side, another distance.
func TestEpsilonJoinNotPlannedElsewhere(t *testing.T) {
	db := open(t)
	mustExec(t, db, "CREATE TABLE p (id INT, v VECTOR(2)); INSERT INTO p VALUES (1, '[0,0]'), (2, '[1,1]')", "")
	for _, q := range []string{
		"SELECT * FROM p a LEFT JOIN p b ON VEC_L2_DISTANCE(a.v, b.v) <= 1",
		"SELECT * FROM p a JOIN p b ON VEC_L2_DISTANCE(a.v, b.v) >= 1",
		"SELECT * FROM p a JOIN p b ON VEC_L2_DISTANCE(a.v, b.v) <= b.id",
		"SELECT * FROM p a JOIN p b ON VEC_L2_DISTANCE(a.v, a.v) <= 1",
		"SELECT * FROM p a JOIN p b ON VEC_COSINE_DISTANCE(a.v, b.v) <= 1",
		"SELECT * FROM p a JOIN p b ON VEC_L2_DISTANCE(a.v, b.v) <= 1 OR a.id = 1",
	} {
		res := mustExec(t, db, "EXPLAIN "+q, "")[0]
		if strings.Contains(res.Explain, "EpsilonJoin") {
			t.Errorf("%s: planned as an EpsilonJoin:\n%s", q, res.Explain)
		}
	}
}

// The grid is charged to the query's memory accountant before it is
// built: past the limit the query stops with an error naming the
// EpsilonJoin, and the session goes on.
func TestEpsilonJoinMemoryLimit(t *testing.T) {
	db := open(t)
	var rows []string
	for i := range 4000 {
		v := make([]string, 32)
		for d := range v {
			v[d] = fmt.Sprint((i*7 + d) % 11)
		}
		rows = append(rows, fmt.Sprintf("(%d, '[%s]')", i, strings.Join(v, ",")))
	}
	mustExec(t, db, "CREATE TABLE big (id INT, v VECTOR(32)); INSERT INTO big VALUES "+strings.Join(rows, ","), "")
	q := "SELECT count(*) FROM big a JOIN big b ON VEC_L2_DISTANCE(a.v, b.v) <= 1"
	db.SetMemoryLimit(1 << 20)
	_, err := db.Exec(context.Background(), q, "")
	if err == nil || !strings.Contains(err.Error(), "EpsilonJoin") {
		t.Fatalf("a 1 MiB limit: %v, want an error naming the EpsilonJoin", err)
	}
	db.SetMemoryLimit(-1)
	if n := queryInt(t, db, q); n < 4000 {
		t.Errorf("without a limit: %d pairs, want at least one per row", n)
	}
}
