package engine

import (
	"context"
	"testing"
)

// BenchmarkConstraintChecks times a one-row INSERT into a 1 M-row table
// under each kind of constraint: the checks run over the whole snapshot
// the statement commits (check_constraints.go), so this is their cost per
// statement at that size, next to the same INSERT without any.
func BenchmarkConstraintChecks(b *testing.B) {
	for _, tc := range []struct{ name, ddl string }{
		{"none", "CREATE TABLE c (id INT, pid INT, n INT)"},
		{"check", "CREATE TABLE c (id INT, pid INT, n INT CHECK (n > 0))"},
		{"foreign_key", "CREATE TABLE c (id INT, pid INT, n INT, FOREIGN KEY (pid) REFERENCES p (id))"},
		{"generated", "CREATE TABLE c (id INT, pid INT, n INT, g INT AS (n * 2) STORED)"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			db, err := Open(Options{Executor: "cpu"})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			setup := `SET cte_max_recursion_depth = 2000;
				CREATE TABLE d AS WITH RECURSIVE s (x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM s WHERE x < 999) SELECT x FROM s;
				CREATE TABLE p (id INT PRIMARY KEY);
				INSERT INTO p SELECT x FROM d;
				` + tc.ddl + `;
				INSERT INTO c (id, pid, n) SELECT a.x * 1000 + b.x, b.x, a.x + 1 FROM d a, d b`
			if _, err := db.Exec(ctx, setup, ""); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := db.Exec(ctx, "INSERT INTO c (id, pid, n) VALUES (-1, 5, 5)", ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
