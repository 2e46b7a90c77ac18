package engine

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Bit-packed fact columns on the GPU (planner/gpu_packing.go): off by
// default until the packed kernels are measured faster on the device;
// Options.Packing (--packing, DSN packing=) sets the database's default
// and SET gpu_packing = ON | OFF a session's, so that tests and bench can
// compare the two. The setting reaches the planner through the GPU
// profile (planProfile), so the plan cache's key includes it.

// packingModes are the values of Options.Packing and DSN packing=.
var packingModes = map[string]bool{"": true, "on": true, "off": true}

// packingOn reports whether plans pack fact columns: SET gpu_packing where
// the session set it, the database's option otherwise.
func (db *DB) packingOn() bool {
	if v, ok := db.session.Variable("gpu_packing"); ok && !v.Null {
		return v.S == "on"
	}
	return db.opts.Packing == "on"
}

// setGPUPacking applies SET gpu_packing = 'on' | 'off' (ON, OFF, 1, 0).
func (db *DB) setGPUPacking(v *sql.Const) error { return db.setSwitch("gpu_packing", v) }

// SetGPUPacking sets gpu_packing ("on" or "off") as SET does.
func (db *DB) SetGPUPacking(mode string) error {
	return db.setGPUPacking(&sql.Const{T: columnar.TString, S: mode})
}

// defaultGPUPacking is gpu_packing's value before any SET.
func defaultGPUPacking(opt string) string {
	if opt == "on" {
		return "on"
	}
	return "off"
}
