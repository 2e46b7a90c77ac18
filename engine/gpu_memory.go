package engine

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The GPU memory budget: the device memory a query's plan may use, its
// resident columns and working tables together (planner/gpu_placement.go
// decides from it which columns stay resident, stream or are read
// zero-copy). Options.GPUMemory (--gpu-memory, DSN gpu_memory=) sets it,
// SET gpu_memory changes it for the whole database (the device is one),
// SELECT @@gpu_memory reads it; 0 is the default, most of the device's free
// memory.

// gpuBudget holds the budget; a pointer, so the DB views of sessions and
// transactions share it.
type gpuBudget struct{ n atomic.Int64 }

// ParseGPUMemory reads a budget as the flag, the DSN and SET take it: a
// byte size ("8GB", "256MiB") or "default".
func ParseGPUMemory(s string) (int64, error) {
	if t := strings.ToLower(strings.TrimSpace(s)); t == "" || t == "default" {
		return 0, nil
	}
	n, err := exec.ParseBytes(s)
	if err != nil {
		return 0, fmt.Errorf("gpu memory: %w", err)
	}
	if n == 0 {
		return 0, fmt.Errorf("gpu memory: a budget of 0 bytes fits no plan (give a size, as 8GB, or default)")
	}
	return n, nil
}

// SetGPUMemory sets the GPU memory budget in bytes (0: the default).
func (db *DB) SetGPUMemory(n int64) {
	db.gpuMem.n.Store(n)
	shown := n
	if n == 0 && db.gpuProfile != nil {
		shown = db.gpuProfile.Budget()
	}
	db.session.SetEngineVariable("gpu_memory", &sql.Const{T: columnar.TInt64, I: shown})
}

// planProfile is the profile plans are made for, under the budget.
func (db *DB) planProfile() *planner.GPUProfile {
	if db.gpuProfile == nil {
		return nil
	}
	p := *db.gpuProfile
	if n := db.gpuMem.n.Load(); n != 0 {
		p.MemoryBudget = n
	}
	p.Devices = db.chosenGPUs(p.Devices)
	p.ForceSplit = db.opts.SplitEveryStar
	p.ForceSetOp = planner.SetAlgorithm(db.opts.SetOpAlgorithm)
	mode := db.packingMode()
	p.Packing, p.PackTransfer = mode == "on", mode == "transfer"
	p.ColdCopies = coldCopies
	p.CopiesWhenRead = copiesWhenRead
	p.NoRunTransfer = noRunTransfer
	return &p
}

// noRunTransfer (GPUSQL_COLD_RUNS=off) sends columns packed, never as
// runs, for comparison (planner/gpu_runs.go).
var noRunTransfer = os.Getenv("GPUSQL_COLD_RUNS") == "off"

// coldCopies (GPUSQL_COLD_IN_PLACE=off) has cold runs copy every packed
// column before the kernel, for comparison with reading selective ones in
// place (planner/gpu_cold_reads.go).
var coldCopies = os.Getenv("GPUSQL_COLD_IN_PLACE") == "off"

// copiesWhenRead (GPUSQL_COPY_AHEAD=off) has cold runs copy their fact
// columns after the dimension builds, for comparison with copying them
// ahead (planner/gpu_cold_reads.go).
var copiesWhenRead = os.Getenv("GPUSQL_COPY_AHEAD") == "off"

// setGPUMemory applies SET gpu_memory = v: a size string, a number of
// bytes, or DEFAULT ('default').
func (db *DB) setGPUMemory(v *sql.Const) error {
	switch {
	case v.Null:
		return fmt.Errorf("variable 'gpu_memory' can't be set to the value of 'NULL'")
	case v.T.ID == columnar.String:
		n, err := ParseGPUMemory(v.S)
		if err != nil {
			return fmt.Errorf("variable 'gpu_memory' can't be set to the value of '%s': %v", v.S, err)
		}
		db.SetGPUMemory(n)
	case v.T.Physical() == columnar.PhysFloat64 || v.T.Scale > 0:
		return fmt.Errorf("variable 'gpu_memory' takes a byte count or a size as '8GB', got %s", v)
	case v.I <= 0:
		return fmt.Errorf("variable 'gpu_memory' can't be set to the value of '%d' (give a size, as '8GB', or 'default')", v.I)
	default:
		db.SetGPUMemory(v.I)
	}
	return nil
}
