package engine

import (
	"path/filepath"
	"testing"
)

// TestReopenedTableRemembersSummaries: a table mapped from a database's
// files keeps its column summaries as a loaded one does, so that planning
// over a reopened database does not redo each multi-chunk column's
// distinct estimate (a sort over its chunks) every time it asks.
func TestReopenedTableRemembersSummaries(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	mustRun(t, db, `CREATE TABLE d (v INT);
		INSERT INTO d VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9);
		CREATE TABLE t (a INT);
		INSERT INTO t SELECT a.v + 10 * b.v + 100 * c.v + 1000 * e.v + 10000 * f.v FROM d a, d b, d c, d e, d f`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	tab, ok := db.cat.Table("t")
	if !ok || len(tab.Stats[0]) < 2 {
		t.Fatalf("table t: found %v, want several statistics chunks", ok)
	}
	first := tab.ColumnSummary(0)
	if allocs := testing.AllocsPerRun(5, func() { tab.ColumnSummary(0) }); allocs != 0 {
		t.Errorf("ColumnSummary of a reopened table allocated %.0f times a call: recomputed, not remembered", allocs)
	}
	if again := tab.ColumnSummary(0); again != first || first.Min != 0 || first.Max != 99999 {
		t.Errorf("summary %+v, then %+v; want min 0, max 99999", first, again)
	}
}
