package engine

import (
	"context"
	"testing"
)

// TestInsertValuesUnderGPUExecutor: rows written out in an INSERT are
// evaluated on the host whatever the executor, so literals the GPU does
// not hold (VECTOR, JSON, TIME) insert under --executor gpu; a query over
// them is still refused by name there (runs on a GPU machine; skips
// without one).
func TestInsertValuesUnderGPUExecutor(t *testing.T) {
	db, err := Open(Options{Executor: "gpu"})
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Exec(ctx, `create table r (id int, v vector(2), j json, t time);
insert into r values (1, '[1,2]', '{"a": 1}', '10:20:30'), (2, '[0,0]', '[]', '-01:00:00')`, ""); err != nil {
		t.Fatalf("INSERT of VECTOR/JSON/TIME literals under the GPU executor: %v", err)
	}
	res, err := db.Exec(ctx, "select count(*) from r where id > 0", "")
	if err != nil {
		t.Fatalf("count over the inserted rows: %v", err)
	}
	if got := res[0].Result.Row(0)[0]; got != "2" {
		t.Fatalf("count(*) = %s, want 2", got)
	}
	if _, err := db.Exec(ctx, "select vec_dims(v) from r", ""); err == nil {
		t.Error("a vector query ran under --executor gpu; the plan keeps it on the CPU, which the gpu executor must report")
	}
}
