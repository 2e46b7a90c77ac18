package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"gpusql/exec"
)

// numbers opens a CPU database with table t(x) holding 1..n (n a power of
// two times 8), built by doubling.
func numbers(t *testing.T, n int) *DB {
	t.Helper()
	db := open(t)
	var sb strings.Builder
	sb.WriteString("create table t (x int);\ninsert into t values (1),(2),(3),(4),(5),(6),(7),(8);\n")
	for k := 8; k < n; k *= 2 {
		fmt.Fprintf(&sb, "insert into t select x + %d from t;\n", k)
	}
	if _, err := db.Exec(context.Background(), sb.String(), ""); err != nil {
		t.Fatal(err)
	}
	return db
}

func queryInt(t *testing.T, db *DB, q string) int64 {
	t.Helper()
	res, err := db.Exec(context.Background(), q, "")
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	r := res[len(res)-1].Result
	return r.Columns[0].Int64At(0)
}

func TestMemoryLimitStopsQuery(t *testing.T) {
	db := numbers(t, 4096)
	db.SetMemoryLimit(1 << 20)
	// 16M pairs of two INTs: 128 MiB to sort.
	_, err := db.Exec(context.Background(), "select a.x, b.x from t a, t b order by a.x + b.x", "")
	var me *exec.MemoryLimitError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "memory limit of 1.0 MiB exceeded by ") {
		t.Fatalf("sort of a cross join under 1 MiB: %v, want the memory limit error", err)
	}
	if !strings.Contains(me.Op, "#") {
		t.Errorf("operator %q is not named as EXPLAIN names it", me.Op)
	}
	if u := db.mem.Used(); u != 0 {
		t.Errorf("%d bytes still reserved after the failed query", u)
	}
	// The session goes on, under the same limit.
	if n := queryInt(t, db, "select count(*) from t"); n != 4096 {
		t.Errorf("count after the error: %d", n)
	}
	db.SetMemoryLimit(-1)
	if n := queryInt(t, db, "select count(*) from (select a.x from t a, t b where a.x < 64 order by a.x + b.x) s"); n != 63*4096 {
		t.Errorf("count without a limit: %d", n)
	}
}

func TestSetMemoryLimit(t *testing.T) {
	db := open(t)
	for _, c := range []struct {
		set  string
		want int64
	}{
		{"'2GB'", 2 << 30}, {"'512MiB'", 512 << 20}, {"'1.5 GiB'", 3 << 29}, {"1048576", 1 << 20},
		{"0", 0}, {"'unlimited'", 0}, {"DEFAULT", exec.DefaultMemoryLimit()},
	} {
		got := queryInt(t, db, "set memory_limit = "+c.set+"; select @@memory_limit")
		if got != c.want || db.MemoryLimit() != c.want {
			t.Errorf("SET memory_limit = %s: @@memory_limit %d, limit %d, want %d", c.set, got, db.MemoryLimit(), c.want)
		}
	}
	db.SetMemoryLimit(64 << 20)
	for _, bad := range []string{"'2XB'", "-5", "NULL", "'lots'", "1.5"} {
		if _, err := db.Exec(context.Background(), "set memory_limit = "+bad, ""); err == nil ||
			!strings.Contains(err.Error(), "memory_limit") {
			t.Errorf("SET memory_limit = %s: %v, want an error naming the variable", bad, err)
		}
		if db.MemoryLimit() != 64<<20 {
			t.Errorf("SET memory_limit = %s changed the limit to %d", bad, db.MemoryLimit())
		}
	}
	if d := exec.DefaultMemoryLimit(); d <= 0 {
		t.Errorf("default limit %d", d)
	}
}

// A deadline stops a nested-loop join that would run for minutes; the
// bound is generous (no timing is asserted beyond "not stuck").
func TestDeadlineStopsCrossJoin(t *testing.T) {
	db := numbers(t, 16384)
	for _, q := range []string{
		"select count(*) from t a, t b where (a.x * 7 + b.x) % 13 = 5",
		"select count(*) from t a, t b, t c",
		"select a.x from t a, t b order by a.x * b.x limit 3",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := db.Exec(ctx, q, "")
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want the deadline's error", q, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: stopped after %v", q, d)
		}
	}
}
