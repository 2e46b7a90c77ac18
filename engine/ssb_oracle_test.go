package engine

import (
	"bufio"
	"context"
	dbsql "database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"gpusql/exec"
	"gpusql/storage/ssbgen"
)

// TestSSBAgainstSQLite generates SSB data at SF 0.01, loads it into gpusql
// (through schema.sql's LOAD DATA statements) and into SQLite, and checks
// that the 13 SSB queries give the same rows on both, under every planner
// strategy.
func TestSSBAgainstSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and loads SSB data")
	}
	dir := t.TempDir()
	if _, err := ssbgen.Generate(ssbgen.Options{SF: 0.01, Out: dir, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join(dir, "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	queries := ssbQueries(t)
	lite := sqliteSSB(t, dir, string(schema))
	defer lite.Close()
	ctx := context.Background()
	want := map[string][]string{}
	nonEmpty := 0
	for _, q := range queries {
		rows, err := lite.QueryContext(ctx, q[1])
		if err != nil {
			t.Fatalf("%s on SQLite: %v", q[0], err)
		}
		want[q[0]] = sqliteRows(t, rows)
		nonEmpty += min(1, len(want[q[0]]))
	}
	if nonEmpty < 10 {
		t.Fatalf("only %d of 13 SSB queries return rows at SF 0.01: the test data is too small", nonEmpty)
	}
	for _, st := range strategies() {
		t.Run(st.name, func(t *testing.T) {
			db, err := Open(st.opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(ctx, string(schema), dir); err != nil {
				t.Fatal(err)
			}
			for _, q := range queries {
				res, err := db.Exec(ctx, q[1], "")
				if err != nil {
					t.Errorf("%s: %v", q[0], err)
					continue
				}
				got := resultRows(res[0].Result)
				if strings.Join(got, "\n") != strings.Join(want[q[0]], "\n") {
					t.Errorf("%s: gpusql gives %d rows, SQLite %d\ngpusql: %.300v\nsqlite: %.300v", q[0], len(got), len(want[q[0]]), got, want[q[0]])
				}
			}
		})
	}
}

// ssbQueries reads the queries the bench command embeds, as (name, text).
func ssbQueries(t *testing.T) [][2]string {
	b, err := os.ReadFile("../cmd/gpusql/ssb_queries.sql")
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, part := range strings.Split(string(b), "-- ")[1:] {
		name, body, _ := strings.Cut(part, "\n")
		if body = strings.TrimSpace(body); body != "" {
			out = append(out, [2]string{strings.TrimSpace(name), body})
		}
	}
	if len(out) != 13 {
		t.Fatalf("%d SSB queries, want 13", len(out))
	}
	return out
}

// sqliteSSB creates the SSB tables in SQLite and inserts the .tbl files.
func sqliteSSB(t *testing.T, dir, schema string) *dbsql.DB {
	db, err := dbsql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	var lines []string
	for _, l := range strings.Split(schema, "\n") {
		if !strings.HasPrefix(l, "--") {
			lines = append(lines, l)
		}
	}
	for _, stmt := range strings.Split(strings.Join(lines, "\n"), ";") {
		stmt = strings.TrimSpace(stmt)
		if !strings.HasPrefix(stmt, "create table") {
			continue
		}
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("SQLite: %v\n%s", err, stmt)
		}
	}
	for _, table := range []string{"lineorder", "part", "supplier", "customer", "date"} {
		f, err := os.Open(filepath.Join(dir, table+".tbl"))
		if err != nil {
			t.Fatal(err)
		}
		tx, _ := db.Begin()
		var ins *dbsql.Stmt
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Split(strings.TrimSuffix(sc.Text(), "|"), "|")
			if ins == nil {
				ins, err = tx.Prepare("insert into " + table + " values (?" + strings.Repeat(",?", len(fields)-1) + ")")
				if err != nil {
					t.Fatal(err)
				}
			}
			args := make([]any, len(fields))
			for i, v := range fields {
				args[i] = v
			}
			if _, err := ins.Exec(args...); err != nil {
				t.Fatalf("SQLite insert into %s: %v", table, err)
			}
		}
		f.Close()
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func sqliteRows(t *testing.T, rows *dbsql.Rows) []string {
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		strs := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				strs[i] = "NULL"
			case []byte:
				strs[i] = string(v)
			default:
				strs[i] = fmt.Sprint(v)
			}
		}
		out = append(out, strings.Join(strs, "|"))
	}
	return out
}

func resultRows(r *exec.Result) []string {
	out := make([]string, r.Rows)
	for i := range out {
		out[i] = strings.Join(r.Row(i), "|")
	}
	return out
}
