package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The GPUs plans may use (issue 18): all visible by default; --gpus, DSN
// gpus= and SET gpus = '0,1' choose some. A star query large enough to pay
// for it is split over them (EXPLAIN shows the split), any other query runs
// on the least busy. Like gpu_memory, the setting is the database's: the
// devices are the process's.

// gpuSet holds the chosen device indices (nil: all); a pointer, so the DB
// views of sessions and transactions share it.
type gpuSet struct{ ids atomic.Pointer[[]int] }

// ParseGPUs reads a device list as the flag, the DSN and SET take it:
// comma-separated device indices ("0,1"), or "all" / "default".
func ParseGPUs(s string) ([]int, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" || t == "all" || t == "default" {
		return nil, nil
	}
	var ids []int
	for _, f := range strings.Split(t, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("gpus: %q is not a device index (want indices as 0,1 or all)", strings.TrimSpace(f))
		}
		if slices.Contains(ids, n) {
			return nil, fmt.Errorf("gpus: device %d named twice", n)
		}
		ids = append(ids, n)
	}
	return ids, nil
}

// SetGPUs chooses the devices plans may use (nil: all visible). Indices
// past the devices of this machine are refused when plans are made for
// the device present (a named --gpu-profile plans for any count).
func (db *DB) SetGPUs(ids []int) error {
	if db.opts.GPUProfile == "" && db.gpuProfile != nil {
		n := max(len(db.gpuProfile.Devices), 1)
		for _, i := range ids {
			if i >= n {
				return fmt.Errorf("gpus: device %d does not exist (%d GPUs visible)", i, n)
			}
		}
	}
	if ids == nil {
		db.gpus.ids.Store(nil)
	} else {
		db.gpus.ids.Store(&ids)
	}
	db.session.SetEngineVariable("gpus", &sql.Const{T: columnar.TString, S: formatGPUs(ids)})
	return nil
}

func formatGPUs(ids []int) string {
	if ids == nil {
		return "all"
	}
	parts := make([]string, len(ids))
	for i, d := range ids {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, ",")
}

// chosenGPUs is the device list plans name: the chosen one, else every
// device of the profile (none when there is one).
func (db *DB) chosenGPUs(all []int) []int {
	if p := db.gpus.ids.Load(); p != nil {
		return *p
	}
	if len(all) < 2 {
		return nil
	}
	return all
}

// setGPUsVar applies SET gpus = v.
func (db *DB) setGPUsVar(v *sql.Const) error {
	var s string
	switch {
	case v.Null:
		return fmt.Errorf("variable 'gpus' can't be set to the value of 'NULL'")
	case v.T.ID == columnar.String:
		s = v.S
	case v.T.ID == columnar.Int32 || v.T.ID == columnar.Int64:
		s = strconv.FormatInt(v.I, 10)
	default:
		return fmt.Errorf("variable 'gpus' takes device indices as '0,1' or 'all', got %s", v)
	}
	ids, err := ParseGPUs(s)
	if err == nil {
		err = db.SetGPUs(ids)
	}
	if err != nil {
		return fmt.Errorf("variable 'gpus' can't be set to the value of '%s': %v", s, err)
	}
	return nil
}
