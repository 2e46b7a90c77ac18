package engine

import (
	"context"
	dbsql "database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// TestPlanCacheAgainstSQLite runs random sequences of writes,
// transactions and repeated queries on gpusql (plan cache on, so most
// queries run a cached plan, each write invalidating some) and on SQLite,
// and compares every query's rows: SQLite is the oracle, sharing no code
// with gpusql.
func TestPlanCacheAgainstSQLite(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			runPlanCacheOracle(t, rand.New(rand.NewPCG(seed, 17)), 500)
		})
	}
}

// planCacheQueries are the repeated queries; %d and %s take a small
// domain of values, so texts repeat and hit the cache.
var planCacheQueries = []string{
	"SELECT s, COUNT(*), SUM(a) FROM t GROUP BY s ORDER BY s",
	"SELECT a, s FROM t WHERE a > %d ORDER BY a, s",
	"SELECT COUNT(*) FROM t WHERE s = '%s'",
	"SELECT u.n, COUNT(*) FROM t JOIN u ON t.a = u.a GROUP BY u.n ORDER BY u.n",
	"SELECT a FROM t WHERE a NOT IN (SELECT a FROM u) ORDER BY a",
	"SELECT MAX(a), MIN(s) FROM t WHERE s <> '%s'",
}

var planCacheStrings = []string{"a", "b", "m", "x", "zz"}

func runPlanCacheOracle(t *testing.T, rng *rand.Rand, steps int) {
	db := open(t)
	lite, err := dbsql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	lite.SetMaxOpenConns(1)
	ctx := context.Background()
	both := func(stmt string) {
		t.Helper()
		if _, err := db.Exec(ctx, stmt, ""); err != nil {
			t.Fatalf("gpusql: %s: %v", stmt, err)
		}
		if _, err := lite.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("sqlite: %s: %v", stmt, err)
		}
	}
	both("CREATE TABLE t (a INT, s VARCHAR(5))")
	both("CREATE TABLE u (a INT, n VARCHAR(5))")
	both("INSERT INTO u VALUES (1, 'one'), (2, 'two'), (3, 'three'), (5, 'five')")
	inTx := false
	str := func() string { return planCacheStrings[rng.IntN(len(planCacheStrings))] }
	for step := range steps {
		var stmt string
		switch r := rng.IntN(40); {
		case r < 4:
			stmt = fmt.Sprintf("INSERT INTO t VALUES (%d, '%s'), (%d, '%s')", rng.IntN(8), str(), rng.IntN(8), str())
		case r < 5:
			stmt = fmt.Sprintf("UPDATE t SET s = '%s' WHERE a = %d", str(), rng.IntN(8))
		case r < 6:
			stmt = fmt.Sprintf("DELETE FROM t WHERE a = %d", rng.IntN(8))
		case r < 7:
			stmt = fmt.Sprintf("INSERT INTO u VALUES (%d, '%s')", rng.IntN(8), str())
		case r < 8:
			switch {
			case !inTx:
				stmt, inTx = "BEGIN", true
			case rng.IntN(2) == 0:
				stmt, inTx = "COMMIT", false
			default:
				stmt, inTx = "ROLLBACK", false
			}
		default:
			q := planCacheQueries[rng.IntN(len(planCacheQueries))]
			switch {
			case strings.Contains(q, "%d"):
				q = fmt.Sprintf(q, rng.IntN(4))
			case strings.Contains(q, "%s"):
				q = fmt.Sprintf(q, str())
			}
			got := execRowsErr(db.conn, q)
			want, err := sqliteRows(ctx, lite, q)
			if err != nil {
				t.Fatalf("sqlite: %s: %v", q, err)
			}
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("step %d: %s\ngpusql %v\nsqlite %v", step, q, got, want)
			}
			continue
		}
		both(stmt)
	}
	s := db.PlanCacheStats()
	if s.Hits == 0 {
		t.Errorf("no query ran a cached plan (%+v)", s)
	}
	t.Logf("%d queries from the cache, %d planned", s.Hits, s.Misses)
}

// sqliteRows runs q on SQLite and renders its rows as gpusql's cells are
// (NULL as NULL).
func sqliteRows(ctx context.Context, lite *dbsql.DB, q string) ([][]string, error) {
	rows, err := lite.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	out := [][]string{}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				row[i] = "NULL"
			case []byte:
				row[i] = string(v)
			default:
				row[i] = fmt.Sprint(v)
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}
