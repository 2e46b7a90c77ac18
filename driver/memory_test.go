package driver

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// openNumbers opens a database (DSN options dsn) whose table t holds 1..n
// (n a power of two, at least 8).
func openNumbers(t *testing.T, dsn string, n int) *sql.DB {
	t.Helper()
	db, err := sql.Open("gpusql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "create table t (x int)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "insert into t values (1),(2),(3),(4),(5),(6),(7),(8)"); err != nil {
		t.Fatal(err)
	}
	for k := 8; k < n; k *= 2 {
		if _, err := db.ExecContext(ctx, "insert into t select x + ? from t", k); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestDSNMemoryLimit(t *testing.T) {
	cfg, err := ParseDSN("executor=cpu;memory_limit=512MiB")
	if err != nil || cfg.Options.MemoryLimit != 512<<20 {
		t.Fatalf("memory_limit=512MiB: %+v, %v", cfg.Options, err)
	}
	if _, err := ParseDSN("memory_limit=lots"); err == nil || !strings.Contains(err.Error(), "memory_limit") {
		t.Errorf("memory_limit=lots: %v", err)
	}
	db := openNumbers(t, "executor=cpu;memory_limit=1MB", 2048)
	var limit int64
	if err := db.QueryRow("select @@memory_limit").Scan(&limit); err != nil || limit != 1<<20 {
		t.Fatalf("@@memory_limit = %d, %v", limit, err)
	}
	// 4M pairs to sort: past 1 MiB. The connection goes on after it.
	_, err = db.Query("select a.x, b.x from t a, t b order by a.x - b.x")
	if err == nil || !strings.Contains(err.Error(), "memory limit of 1.0 MiB exceeded by ") {
		t.Fatalf("sort under 1 MiB: %v", err)
	}
	// The count needs no pairs: a RangeJoinCount under the same limit.
	var n int64
	if err := db.QueryRow("select count(*) from t a, t b where a.x < b.x").Scan(&n); err != nil || n != 2048*2047/2 {
		t.Errorf("count after the error: %d, %v", n, err)
	}
	if _, err := db.Exec("set memory_limit = '64MB'"); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("select @@memory_limit").Scan(&limit); err != nil || limit != 64<<20 {
		t.Errorf("after SET: @@memory_limit = %d, %v", limit, err)
	}
}

// A context deadline stops a query whose pairs would take minutes; the
// bound checked is generous (not a timing test).
func TestDeadline(t *testing.T) {
	db := openNumbers(t, "executor=cpu", 16384)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	var n int64
	err := db.QueryRowContext(ctx, "select count(*) from t a, t b where (a.x * 7 + b.x) % 13 = 5").Scan(&n)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("query past its deadline: %v (count %d), want context.DeadlineExceeded", err, n)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
	// The database goes on.
	if err := db.QueryRow("select count(*) from t").Scan(&n); err != nil || n != 16384 {
		t.Errorf("count after the deadline: %d, %v", n, err)
	}
}

// gpus= picks the devices plans use; a bad list names the key.
func TestDSNGPUs(t *testing.T) {
	cfg, err := ParseDSN("executor=cpu;gpus=0,1")
	if err != nil || len(cfg.Options.GPUs) != 2 || cfg.Options.GPUs[1] != 1 {
		t.Fatalf("gpus=0,1: %+v, %v", cfg.Options.GPUs, err)
	}
	if cfg, err := ParseDSN("gpus=all"); err != nil || cfg.Options.GPUs != nil {
		t.Errorf("gpus=all: %+v, %v", cfg.Options.GPUs, err)
	}
	if _, err := ParseDSN("gpus=one"); err == nil || !strings.Contains(err.Error(), "gpus") {
		t.Errorf("gpus=one: %v", err)
	}
}

// TestDSNSpill: tmpdir and max_spill reach the queries, which spill there
// past the memory limit and leave nothing behind.
func TestDSNSpill(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ParseDSN("tmpdir=" + dir + ";max_spill=1GB")
	if err != nil || cfg.Options.TmpDir != dir || cfg.Options.MaxSpill != 1<<30 {
		t.Fatalf("tmpdir, max_spill: %+v, %v", cfg.Options, err)
	}
	if _, err := ParseDSN("max_spill=lots"); err == nil || !strings.Contains(err.Error(), "max_spill") {
		t.Errorf("max_spill=lots: %v", err)
	}
	db := openNumbers(t, "executor=cpu;memory_limit=256KB;tmpdir="+dir, 16384)
	// Sorting 16384 INTs in memory needs about 450 KiB: it spills.
	var plan strings.Builder
	ex, err := db.Query("explain analyze select x from t order by x desc")
	if err != nil {
		t.Fatal(err)
	}
	for ex.Next() {
		var line string
		if err := ex.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	if !strings.Contains(plan.String(), "spilled") {
		t.Errorf("the sort did not spill:\n%s", plan.String())
	}
	var x int64
	rows, err := db.Query("select x from t order by x desc")
	if err != nil {
		t.Fatal(err)
	}
	want := int64(16384)
	for rows.Next() {
		if err := rows.Scan(&x); err != nil || x != want {
			t.Fatalf("row %d: %d, %v", 16384-want, x, err)
		}
		want--
	}
	if err := rows.Err(); err != nil || want != 0 {
		t.Fatalf("after the rows: %v, %d left", err, want)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d spill entries left behind", len(ents))
	}
}
