package engine

import (
	"context"
	"strings"
	"testing"
)

// SET gpu_memory takes sizes, byte counts and DEFAULT, @@gpu_memory reads
// it back (the default is 0 without a GPU profile), and bad values are
// errors naming the variable that change nothing. The budget reaches the
// plans' profile.
func TestSetGPUMemory(t *testing.T) {
	db := open(t)
	for _, c := range []struct {
		set  string
		want int64
	}{
		{"'256MB'", 256 << 20}, {"'8GiB'", 8 << 30}, {"1048576", 1 << 20}, {"DEFAULT", 0}, {"'default'", 0},
	} {
		if got := queryInt(t, db, "set gpu_memory = "+c.set+"; select @@gpu_memory"); got != c.want {
			t.Errorf("SET gpu_memory = %s: @@gpu_memory %d, want %d", c.set, got, c.want)
		}
	}
	db.SetGPUMemory(64 << 20)
	for _, bad := range []string{"'2XB'", "0", "-5", "NULL", "'0MB'", "1.5"} {
		if _, err := db.Exec(context.Background(), "set gpu_memory = "+bad, ""); err == nil || !strings.Contains(err.Error(), "gpu_memory") {
			t.Errorf("SET gpu_memory = %s: %v, want an error naming the variable", bad, err)
		}
		if n := db.gpuMem.n.Load(); n != 64<<20 {
			t.Errorf("SET gpu_memory = %s changed the budget to %d", bad, n)
		}
	}

	gdb, err := Open(Options{Executor: "gpu", GPUProfile: "h100", GPUMemory: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer gdb.Close()
	if p := gdb.planProfile(); p.Budget() != 32<<20 || gdb.gpuProfile.MemoryBudget != 0 {
		t.Errorf("plan budget %d, the profile's own %d", p.Budget(), gdb.gpuProfile.MemoryBudget)
	}
	gdb.SetGPUMemory(0)
	if p := gdb.planProfile(); p.Budget() != p.GlobalMemory/4*3 {
		t.Errorf("default budget %d of %d", p.Budget(), p.GlobalMemory)
	}
}
