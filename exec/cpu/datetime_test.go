package cpu_test

import (
	"context"
	"fmt"
	"testing"

	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// TestZoneMapsDatetime: a range filter on a clustered DATETIME column
// against string constants (bound at fsp 6, the column at fsp 0) skips the
// morsels its chunk statistics exclude and counts what brute force counts.
func TestZoneMapsDatetime(t *testing.T) {
	d := newTestDB(t, false)
	d.create("create table ev (id int, ts datetime)")
	base, _ := columnar.ParseDatetime("2024-01-01 00:00:00", 0)
	lo, _ := columnar.ParseDatetime("2024-01-02 03:00:00.5", 6)
	hi, _ := columnar.ParseDatetime("2024-01-02 03:30:00", 6)
	const n = 200_000
	lines := make([]string, n)
	want := 0
	for i := range lines {
		us := base + int64(i)*columnar.MicrosPerSecond
		lines[i] = fmt.Sprintf("%d|%s", i, columnar.FormatDatetime(us, 0))
		if us >= lo && us <= hi {
			want++
		}
	}
	d.load("ev", lines)
	p := d.plan("select count(*) from ev where ts between '2024-01-02 03:00:00.5' and '2024-01-02 03:30:00'", planner.Options{})
	res, st, err := cpu.RunAnalyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := formatResult(res)[0][0]; got != fmt.Sprint(want) {
		t.Fatalf("count %s, want %d", got, want)
	}
	for _, nd := range p.Nodes() {
		if ts, ok := nd.(*planner.TableScan); ok {
			if r := st.Ops[ts.ID].Rows; r > 65536 {
				t.Errorf("scan read %d rows; zone maps should leave one morsel", r)
			}
		}
	}
}
