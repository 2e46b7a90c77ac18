package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

func open(t *testing.T) *DB {
	t.Helper()
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestOpenOptions(t *testing.T) {
	if _, err := Open(Options{Executor: "tpu"}); err == nil {
		t.Error("Open accepted executor tpu")
	}
	if _, err := Open(Options{Join: "nested"}); err == nil {
		t.Error("Open accepted join strategy nested")
	}
	if ok, why := GPUStatus(); !ok {
		_, err := Open(Options{Executor: "gpu"})
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("Open(gpu) without a GPU: %v, want %q", err, why)
		}
		db, err := Open(Options{})
		if err != nil || db.Executor() != "cpu" {
			t.Errorf("auto without a GPU: %v, executor %q", err, db.Executor())
		}
	}
}

func TestMessages(t *testing.T) {
	db := open(t)
	res, err := db.Exec(context.Background(), `create table t (a int, s varchar(5));
insert into t values (1, 'x'), (2, 'y');
insert into t select a + 10, s from t;
create table u as select * from t where a > 10;
drop table u;`, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"created table t", "inserted 2 rows into t", "inserted 2 rows into t", "created table u with 2 rows", "dropped table u"}
	for i, r := range res {
		if r.Kind != KindMessage || r.Message != want[i] {
			t.Errorf("statement %d: %q, want %q", i+1, r.Message, want[i])
		}
	}
	if res[1].RowsAffected != 2 || res[1].Line != 2 {
		t.Errorf("insert: RowsAffected %d line %d", res[1].RowsAffected, res[1].Line)
	}
}

// TestLoadFailureLeavesTable checks that a load failing halfway commits
// nothing.
func TestCancelledContext(t *testing.T) {
	db := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := db.Exec(ctx, "select 1;", "")
	if !errors.Is(err, ErrCancelled) {
		t.Errorf("error %v, want ErrCancelled", err)
	}
}

func TestAppendRecodesDictionary(t *testing.T) {
	fields := []columnar.Field{{Name: "s", Type: columnar.TString, Nullable: true}}
	old := columnar.NewEmptyTable("t", fields)
	add := func(tab *columnar.Table, vals ...string) *columnar.Table {
		c := stringColumn(vals)
		res := &exec.Result{Names: []string{"s"}, Columns: []*columnar.Column{c}, Rows: len(vals)}
		nt, err := appendResult(tab, []int{0}, res)
		if err != nil {
			t.Fatal(err)
		}
		return nt
	}
	tab := add(old, "m", "c")
	tab = add(tab, "a", "z", "m")
	var got []string
	for i := 0; i < tab.Rows; i++ {
		got = append(got, tab.Columns[0].StringAt(i))
	}
	if strings.Join(got, ",") != "m,c,a,z,m" {
		t.Errorf("rows %v", got)
	}
	if d := tab.Columns[0].Dict.Values; strings.Join(d, ",") != "a,c,m,z" {
		t.Errorf("dictionary %v", d)
	}
}

func TestAppendConverts(t *testing.T) {
	fields := []columnar.Field{{Name: "d", Type: columnar.TDecimal(8, 2), Nullable: true}, {Name: "i", Type: columnar.TInt32, Nullable: false}}
	old := columnar.NewEmptyTable("t", fields)
	src := columnar.NewColumn(columnar.TDecimal(8, 3), 2, true)
	src.I64[0] = 1235 // 1.235 → 1.24
	src.SetValid(0)
	ints := columnar.NewColumn(columnar.TInt64, 2, false)
	ints.I64[0], ints.I64[1] = 7, 8
	tab, err := appendResult(old, []int{0, 1}, &exec.Result{Columns: []*columnar.Column{src, ints}, Rows: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := exec.FormatValue(tab.Columns[0], 0); got != "1.24" {
		t.Errorf("decimal %s, want 1.24", got)
	}
	if !tab.Columns[0].IsNull(1) || tab.Columns[1].I32[1] != 8 {
		t.Errorf("row 2 wrong")
	}
	if _, err := appendResult(old, []int{0}, &exec.Result{Columns: []*columnar.Column{src}, Rows: 2}); err == nil {
		t.Error("NULL into a NOT NULL column succeeded")
	}
}
