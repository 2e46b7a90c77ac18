package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// SET gpu_packing chooses how the GPU holds the star's fact columns for a
// session (transfer by default: sent packed where that saves bytes, which
// a 3-row table does not, and narrowed only where the 4-byte forms do not
// fit): EXPLAIN shows the columns packed or not,
// @@gpu_packing reads the setting, bad values are errors naming the
// variable, the plan cache keeps the plans apart, and Options.Packing sets
// the default.
func TestSetGPUPacking(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "create table f (k int, v int); insert into f values (1, 2), (3, 4), (5, 7)", "")
	explain := func() string {
		res, err := db.Exec(context.Background(), "explain select sum(v) from f where k > 1", "")
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Explain
	}
	if got := execRows(t, db.conn, "select @@gpu_packing"); !reflect.DeepEqual(got, rows("transfer")) {
		t.Errorf("@@gpu_packing before any SET: %v, want transfer", got)
	}
	if text := explain(); strings.Contains(text, "packed") || !strings.Contains(text, "f.v resident (12 B)") {
		t.Errorf("a 3-row table sent packed, or narrowed with room to spare, by default:\n%s", text)
	}
	for range 2 {
		execRows(t, db.conn, "select sum(v) from f where k > 1")
	}
	mustExec(t, db, "SET gpu_packing = ON", "")
	if text := explain(); !strings.Contains(text, "f.v resident packed 3 bits (frame per 4,096 rows") {
		t.Errorf("SET gpu_packing = ON: EXPLAIN does not show f.v packed:\n%s", text)
	}
	if got := execRows(t, db.conn, "select @@gpu_packing"); !reflect.DeepEqual(got, rows("on")) {
		t.Errorf("@@gpu_packing %v, want on", got)
	}
	before := db.PlanCacheStats()
	execRows(t, db.conn, "select sum(v) from f where k > 1")
	if s := db.PlanCacheStats(); s.Misses != before.Misses+1 {
		t.Errorf("the plan cache served the 4-byte plan with packing on: %+v then %+v", before, s)
	}
	for _, bad := range []string{"'sometimes'", "NULL", "2"} {
		if _, err := db.Exec(context.Background(), "SET gpu_packing = "+bad, ""); err == nil || !strings.Contains(err.Error(), "gpu_packing") {
			t.Errorf("SET gpu_packing = %s: %v, want an error naming the variable", bad, err)
		}
	}
	mustExec(t, db, "SET gpu_packing = DEFAULT", "")
	if text := explain(); strings.Contains(text, "packed") {
		t.Errorf("SET gpu_packing = DEFAULT: EXPLAIN still packs:\n%s", text)
	}
	mustExec(t, db, "SET gpu_packing = 'Transfer'", "")
	if got := execRows(t, db.conn, "select @@gpu_packing"); !reflect.DeepEqual(got, rows("transfer")) {
		t.Errorf("SET gpu_packing = 'Transfer': @@gpu_packing %v", got)
	}
	mustExec(t, db, "SET gpu_packing = OFF", "")
	if p := db.planProfile(); p.Packing || p.PackTransfer {
		t.Errorf("SET gpu_packing = OFF: profile packs (%v, %v)", p.Packing, p.PackTransfer)
	}
	if text := explain(); !strings.Contains(text, "f.v resident (12 B)") {
		t.Errorf("SET gpu_packing = OFF: EXPLAIN does not show f.v in 4 bytes a row:\n%s", text)
	}

	on, err := Open(Options{Executor: "cpu", GPUProfile: "h100", Packing: "on"})
	if err != nil {
		t.Fatal(err)
	}
	defer on.Close()
	if !on.planProfile().Packing {
		t.Error("Options.Packing on: plans do not pack")
	}
	if got := execRows(t, on.conn, "select @@gpu_packing"); !reflect.DeepEqual(got, rows("on")) {
		t.Errorf("Options.Packing on: @@gpu_packing %v", got)
	}
	off, err := Open(Options{Executor: "cpu", GPUProfile: "h100", Packing: "off"})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	if got := execRows(t, off.conn, "select @@gpu_packing"); !reflect.DeepEqual(got, rows("off")) || off.planProfile().PackTransfer {
		t.Errorf("Options.Packing off: @@gpu_packing %v", got)
	}
	if _, err := Open(Options{Packing: "maybe"}); err == nil {
		t.Error("Open accepted packing mode maybe")
	}
}

// Where the star's fact columns do not fit the GPU memory budget in their
// 4-byte form but fit narrow (1 or 2 bytes from frames), the plan keeps
// them resident narrow; with the default budget they stay 4 bytes; the
// answer is the same either way.
func TestNarrowUnderMemoryBudget(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "create table f as with recursive s(n) as (select 1 union all select n + 1 from s where n < 1000) select n % 100 as k, n % 7 as v from s", "")
	explain := func() string {
		res, err := db.Exec(context.Background(), "explain select sum(v) from f where k > 1", "")
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Explain
	}
	if text := explain(); !strings.Contains(text, "f.v resident (3.91 KiB)") {
		t.Errorf("default budget: f.v not 4 bytes a value:\n%s", text)
	}
	mustExec(t, db, "SET gpu_memory = 4000", "")
	if text := explain(); !strings.Contains(text, "f.k resident (1012 B; 1 B a value, frame per 65,536 rows), f.v resident (1012 B; 1 B a value") {
		t.Errorf("4,000-byte budget: f.k and f.v not narrow:\n%s", text)
	}
	if got := execRows(t, db.conn, "select sum(v) from f where k > 1"); !reflect.DeepEqual(got, rows("2940")) {
		t.Errorf("sum under the small budget: %v, want 2940", got)
	}
}
