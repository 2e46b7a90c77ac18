package engine

import (
	"context"
	"testing"

	"gpusql/exec"
)

// TestCreateTimePersists: SHOW TABLE STATUS's Create_time (and
// information_schema.TABLES.CREATE_TIME) is when CREATE TABLE ran, as
// MySQL's data dictionary keeps it (NULL before), the same after ALTER
// TABLE ... COMMENT and after the database directory is reopened.
func TestCreateTimePersists(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := Open(Options{Executor: "cpu", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	const created = "select create_time from information_schema.tables where table_name = 't'"
	rs, err := db.Exec(ctx, "create table t (a int); select now() >= create_time and create_time >= now() - interval 1 hour from information_schema.tables where table_name = 't'; "+created, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := exec.FormatValue(rs[1].Result.Columns[0], 0); got != "1" {
		t.Errorf("CREATE_TIME is not the time CREATE TABLE ran: %s", got)
	}
	first := exec.FormatValue(rs[2].Result.Columns[0], 0)
	if _, err := db.Exec(ctx, "alter table t comment = 'x'", ""); err != nil {
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
	rs, err = db.Exec(ctx, "show table status like 't'", "")
	if err != nil {
		t.Fatal(err)
	}
	res := rs[0].Result
	for i, n := range res.Names {
		if n == "Create_time" {
			if got := exec.FormatValue(res.Columns[i], 0); got != first || got == "NULL" {
				t.Errorf("Create_time after ALTER and a reopen: %s, want %s", got, first)
			}
			return
		}
	}
	t.Fatalf("SHOW TABLE STATUS has no Create_time: %v", res.Names)
}
