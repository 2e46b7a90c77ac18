package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// SET gpus takes device lists, 'all' and DEFAULT; @@gpus reads it back;
// bad lists are errors naming the variable that change nothing; the list
// reaches the plans' profile, and EXPLAIN says which devices a GPU plan
// may use.
func TestSetGPUs(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	show := func() string {
		res, err := db.Exec(context.Background(), "select @@gpus", "")
		if err != nil {
			t.Fatal(err)
		}
		c := res[len(res)-1].Result.Columns[0]
		return c.Dict.Values[c.I32[0]]
	}
	for _, c := range []struct {
		set, want string
		ids       []int
	}{
		{"'0,1'", "0,1", []int{0, 1}}, {"'1'", "1", []int{1}}, {"' 2 , 0 '", "2,0", []int{2, 0}},
		{"'all'", "all", nil}, {"3", "3", []int{3}}, {"DEFAULT", "all", nil},
	} {
		if _, err := db.Exec(context.Background(), "set gpus = "+c.set, ""); err != nil {
			t.Fatalf("SET gpus = %s: %v", c.set, err)
		}
		if got := show(); got != c.want {
			t.Errorf("SET gpus = %s: @@gpus %q, want %q", c.set, got, c.want)
		}
		if got := db.planProfile().Devices; !slices.Equal(got, c.ids) {
			t.Errorf("SET gpus = %s: plans for devices %v, want %v", c.set, got, c.ids)
		}
	}
	if _, err := db.Exec(context.Background(), "set gpus = '0,1'", ""); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"'x'", "'0,0'", "'-1'", "NULL", "1.5", "'1,'"} {
		if _, err := db.Exec(context.Background(), "set gpus = "+bad, ""); err == nil || !strings.Contains(err.Error(), "gpus") {
			t.Errorf("SET gpus = %s: %v, want an error naming the variable", bad, err)
		}
		if got := show(); got != "0,1" {
			t.Errorf("SET gpus = %s changed @@gpus to %q", bad, got)
		}
	}
	if _, err := db.Exec(context.Background(), "create table f (k int, v int); insert into f values (1, 2), (3, 4)", ""); err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(context.Background(), "explain select sum(v) from f where k > 1", "")
	if err != nil {
		t.Fatal(err)
	}
	if text := res[0].Explain; !strings.Contains(text, "devices: one of 0, 1 (the least busy); not split") {
		t.Errorf("EXPLAIN does not name the devices:\n%s", text)
	}
	if ids, err := ParseGPUs(" all "); err != nil || ids != nil {
		t.Errorf("ParseGPUs(all) = %v, %v", ids, err)
	}
}
