package driver

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	"gpusql/engine"
)

// A program using the driver gets the engine's progress reports through
// the context it passes.
func TestProgressThroughContext(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mu sync.Mutex
	var got []engine.Progress
	ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	})
	if _, err := db.ExecContext(ctx, "create table t (a int)"); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, "select count(*) from t")
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 4 || got[0].Task != "create" || !got[1].Finished || got[2].Task != "select" || !got[3].Finished {
		t.Errorf("reports %+v", got)
	}
}
