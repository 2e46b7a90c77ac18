package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"gpusql/catalog"
)

// TestUpdateRowCounts checks the affected-rows count and message MySQL
// gives: UPDATE counts rows changed, reporting rows matched beside them;
// a multi-table UPDATE counts each row of each table once.
func TestUpdateRowCounts(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, `CREATE TABLE a (id INT, v INT);
		INSERT INTO a VALUES (1, 5), (2, 5), (3, 7), (4, 8);
		CREATE TABLE b (id INT, w INT);
		INSERT INTO b VALUES (1, 5), (1, 5), (2, 6), (9, 1)`, "")
	cases := []struct {
		sql      string
		affected int64
		message  string
	}{
		{"UPDATE a SET v = 5 ORDER BY id LIMIT 3", 1, "1 row affected (Rows matched: 3  Changed: 1  Warnings: 0)"},
		{"UPDATE a SET v = 5 LIMIT 2", 0, "0 rows affected (Rows matched: 2  Changed: 0  Warnings: 0)"},
		// a: rows 1 and 2 (row 1 matched twice, unchanged); b: rows 1, 1, 2.
		{"UPDATE a JOIN b ON a.id = b.id SET a.v = b.w, b.w = b.w + 1", 4, "4 rows affected (Rows matched: 5  Changed: 4  Warnings: 0)"},
		{"DELETE a, b FROM a LEFT JOIN b ON a.id = b.id WHERE a.id <= 3", 6, "6 rows affected"},
		{"DELETE FROM b ORDER BY id LIMIT 5", 1, "1 row affected"},
	}
	for _, c := range cases {
		res := mustExec(t, db, c.sql, "")
		r := res[len(res)-1]
		if r.RowsAffected != c.affected || r.Message != c.message {
			t.Errorf("%s: %d, %q; want %d, %q", c.sql, r.RowsAffected, r.Message, c.affected, c.message)
		}
	}
	if n := queryInt(t, db, "SELECT count(*) * 100 + sum(id) FROM a"); n != 104 {
		t.Errorf("a after the deletes: count*100+sum(id) = %d, want 104", n)
	}
}

// TestMultiTableDMLBruteForce runs multi-table DELETE and UPDATE over
// random tables with NULLs, duplicate keys and skew, of sizes that are not
// multiples of a block, and checks every row against a brute-force
// evaluation of the join in Go.
func TestMultiTableDMLBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 6; round++ {
		na, nb := 1+rng.Intn(300), rng.Intn(200)
		if round == 0 {
			nb = 0 // empty side
		}
		a := randomKeys(rng, na, 40)
		b := randomKeys(rng, nb, 40)
		db, err := Open(Options{Executor: "cpu"})
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, db, "CREATE TABLE a (id INT, k INT, m INT); CREATE TABLE b (k INT, v INT)", "")
		loadPairs(t, db, "a", a, func(i int) string { return fmt.Sprintf("(%d, %s, -1)", i, a[i]) })
		loadPairs(t, db, "b", b, func(i int) string { return fmt.Sprintf("(%s, %d)", b[i], i) })

		// UPDATE: a row of a joined to b gets some matching b.v (MySQL
		// does not say which), once; other rows keep -1.
		res := mustExec(t, db, "UPDATE a JOIN b ON a.k = b.k SET a.m = b.v WHERE b.v % 3 <> 0", "")
		matches := make([]map[int64]bool, na)
		matched := 0
		for i := range a {
			for j := range b {
				if a[i] != "NULL" && a[i] == b[j] && j%3 != 0 {
					if matches[i] == nil {
						matches[i] = map[int64]bool{}
						matched++
					}
					matches[i][int64(j)] = true
				}
			}
		}
		if !strings.Contains(res[0].Message, fmt.Sprintf("Rows matched: %d ", matched)) {
			t.Errorf("round %d: %q, want %d rows matched", round, res[0].Message, matched)
		}
		m := queryColumn(t, db, "SELECT m FROM a ORDER BY id")
		for i, v := range m {
			if (matches[i] == nil && v != -1) || (matches[i] != nil && !matches[i][v]) {
				t.Fatalf("round %d: a row %d: m = %d, matches %v", round, i, v, matches[i])
			}
		}

		// DELETE of both sides of an inner join, then of a's orphans.
		mustExec(t, db, "DELETE a, b FROM a JOIN b ON a.k = b.k WHERE b.v % 2 = 0", "")
		goneA, goneB := make([]bool, na), make([]bool, nb)
		for i := range a {
			for j := range b {
				if a[i] != "NULL" && a[i] == b[j] && j%2 == 0 {
					goneA[i], goneB[j] = true, true
				}
			}
		}
		checkRemaining(t, db, "SELECT id FROM a ORDER BY id", goneA)
		checkRemaining(t, db, "SELECT v FROM b ORDER BY v", goneB)
	}
}

// randomKeys draws n keys from a skewed range, a tenth of them NULL.
func randomKeys(rng *rand.Rand, n, distinct int) []string {
	out := make([]string, n)
	for i := range out {
		switch {
		case rng.Intn(10) == 0:
			out[i] = "NULL"
		case rng.Intn(3) == 0:
			out[i] = "1" // skew: a third of the rows share one key
		default:
			out[i] = fmt.Sprint(rng.Intn(distinct))
		}
	}
	return out
}

func loadPairs(t *testing.T, db *DB, table string, keys []string, row func(i int) string) {
	t.Helper()
	if len(keys) == 0 {
		return
	}
	rows := make([]string, len(keys))
	for i := range keys {
		rows[i] = row(i)
	}
	mustExec(t, db, "INSERT INTO "+table+" VALUES "+strings.Join(rows, ", "), "")
}

func queryColumn(t *testing.T, db *DB, q string) []int64 {
	t.Helper()
	res, err := db.Exec(context.Background(), q, "")
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	r := res[len(res)-1].Result
	out := make([]int64, r.Rows)
	for i := range out {
		out[i] = r.Columns[0].Int64At(i)
	}
	return out
}

// checkRemaining checks the query lists exactly the row numbers not gone.
func checkRemaining(t *testing.T, db *DB, q string, gone []bool) {
	t.Helper()
	var want []int64
	for i, g := range gone {
		if !g {
			want = append(want, int64(i))
		}
	}
	got := queryColumn(t, db, q)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: %v, want %v", q, got, want)
	}
}

// TestMultiTableDMLTransactions: a multi-table UPDATE inside a transaction
// is invisible to other connections until COMMIT, and loses (applying to
// neither table) when another connection changed one of its tables first.
func TestMultiTableDMLTransactions(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, b := db.Conn(), db.Conn()
	run := func(c *Conn, q string) error {
		_, err := c.Exec(ctx, q, "")
		return err
	}
	sum := func(c *Conn, q string) int64 {
		t.Helper()
		res, err := c.Exec(ctx, q, "")
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res[0].Result.Columns[0].Int64At(0)
	}
	setup := "CREATE TABLE p (id INT, v INT); CREATE TABLE q (id INT, w INT);" +
		"INSERT INTO p VALUES (1, 1), (2, 2); INSERT INTO q VALUES (1, 10), (2, 20)"
	if err := run(a, setup); err != nil {
		t.Fatal(err)
	}
	multi := "UPDATE p JOIN q ON p.id = q.id SET p.v = q.w, q.w = q.w + 1"
	if err := run(a, "BEGIN; "+multi); err != nil {
		t.Fatal(err)
	}
	if got := sum(b, "SELECT sum(v) FROM p"); got != 3 {
		t.Errorf("another connection sees the uncommitted UPDATE: sum(v) = %d, want 3", got)
	}
	if err := run(a, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if got, got2 := sum(b, "SELECT sum(v) FROM p"), sum(b, "SELECT sum(w) FROM q"); got != 30 || got2 != 32 {
		t.Errorf("after COMMIT: sum(v) = %d (want 30), sum(w) = %d (want 32)", got, got2)
	}

	if err := run(a, "BEGIN; "+multi); err != nil {
		t.Fatal(err)
	}
	if err := run(b, "INSERT INTO q VALUES (3, 30)"); err != nil {
		t.Fatal(err)
	}
	var ce *catalog.ConflictError
	if err := run(a, "COMMIT"); !errors.As(err, &ce) {
		t.Fatalf("COMMIT after another connection changed q: %v, want a conflict", err)
	}
	if got, got2 := sum(b, "SELECT sum(v) FROM p"), sum(b, "SELECT sum(w) FROM q"); got != 30 || got2 != 62 {
		t.Errorf("after the conflict: sum(v) = %d (want 30: p untouched), sum(w) = %d (want 62)", got, got2)
	}
}
