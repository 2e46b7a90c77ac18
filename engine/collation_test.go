package engine

import (
	"context"
	"strings"
	"testing"

	"gpusql/exec"
)

// TestColumnCollationPersists: a column's COLLATE is kept in the database
// directory: after a reopen SHOW CREATE TABLE shows it and comparisons
// still follow it.
func TestColumnCollationPersists(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := Open(Options{Executor: "cpu", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "create table u (id int, name varchar(20) collate utf8mb4_0900_ai_ci); insert into u values (1, 'Bob'), (2, 'bob'), (3, 'alice')", ""); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(Options{Executor: "cpu", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Exec(ctx, "show create table u; select count(*) from u where name = 'BOB'", "")
	if err != nil {
		t.Fatal(err)
	}
	show := exec.FormatValue(rs[0].Result.Columns[1], 0)
	if !strings.Contains(show, "`name` varchar(20) COLLATE utf8mb4_0900_ai_ci DEFAULT NULL") {
		t.Errorf("SHOW CREATE TABLE after reopening:\n%s", show)
	}
	if n := exec.FormatValue(rs[1].Result.Columns[0], 0); n != "2" {
		t.Errorf("name = 'BOB' counts %s rows after reopening, want 2", n)
	}
}
