package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpusql/internal/slt"
)

// FuzzExec runs arbitrary scripts through the whole path — parse, bind,
// plan, execute — on a database holding two small tables. Any outcome but
// an internal error is fine: errors are how bad input is answered, but a
// panic, even one the binder, planner or executor recovers into "internal
// error", is a bug. Seeds: every statement of the SQL logic tests (whose
// CREATE/INSERT records build their own tables), and a few statements
// over the fixture tables.
//
//	go test ./engine -run '^$' -fuzz FuzzExec -fuzztime 30m
func FuzzExec(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(*sltDir, "*.test"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no SQL logic tests in %s: %v", *sltDir, err)
	}
	for _, path := range files {
		file, err := slt.ParseFile(path)
		if err != nil {
			f.Fatal(err)
		}
		var script strings.Builder
		for _, r := range file.Records {
			if loadsFiles(r.SQL) {
				continue
			}
			f.Add(r.SQL)
			script.WriteString(r.SQL + ";\n")
		}
		f.Add(script.String())
	}
	for _, q := range []string{
		"SELECT a, (SELECT count(*) FROM f2 WHERE f2.x < f1.a) FROM f1",
		"SELECT c, count(*), sum(d) FROM f1 GROUP BY c HAVING b > 1 ORDER BY 2",
		"SELECT * FROM f1 LEFT JOIN f2 ON f2.x = f1.a AND f2.y IN (SELECT b FROM f1) WHERE a > ALL (SELECT x FROM f2)",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if loadsFiles(text) {
			t.Skip("reads files")
		}
		db := fuzzDB(t)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		// A statement must stop soon after its context ends: one that
		// runs far past it crashes the fuzzer, which then reports it.
		watchdog := time.AfterFunc(20*time.Second, func() {
			panic(fmt.Sprintf("statement ignored its 2 s deadline: %q", text))
		})
		defer watchdog.Stop()
		_, err := db.Exec(ctx, text, t.TempDir())
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("internal error for %q: %v", text, err)
		}
	})
}

// loadsFiles reports whether a script may read files (LOAD DATA, IMPORT
// INTO): the fuzzer must not wander the file system.
func loadsFiles(text string) bool {
	u := strings.ToUpper(text)
	return strings.Contains(u, "LOAD") || strings.Contains(u, "IMPORT") || strings.Contains(u, "INFILE")
}

const fuzzFixture = `
CREATE TABLE f1 (a INT, b BIGINT, c VARCHAR(8), d DECIMAL(8,2), e DATE, g DOUBLE);
INSERT INTO f1 VALUES (1, 10, 'x', 1.50, '2024-01-02', 0.5), (2, NULL, 'y', NULL, NULL, -1),
  (NULL, 30, NULL, 2.25, '1999-12-31', NULL), (2, 20, 'x', -3.00, '2024-01-02', 2e10);
CREATE TABLE f2 (x INT, y INT, z VARCHAR(4));
INSERT INTO f2 VALUES (1, 1, 'a'), (2, NULL, 'b'), (NULL, 3, NULL), (5, 5, 'a');
`

func fuzzDB(t *testing.T) *DB {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(context.Background(), fuzzFixture, ""); err != nil {
		t.Fatal(err)
	}
	return db
}
