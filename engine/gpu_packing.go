package engine

import (
	"fmt"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Bit-packed fact columns on the GPU (planner/gpu_packing.go): "transfer"
// (the default) sends the star's fact columns packed and unpacks them on
// the device, "on" keeps them packed there (the kernel decodes them; slower
// warm, measured on the H100, but a quarter to an eighth of the device
// memory), "off" copies them 4 bytes a value. Options.Packing (--packing,
// DSN packing=) sets the database's default and SET gpu_packing a
// session's, so that tests and bench can compare them. The setting reaches
// the planner through the GPU profile (planProfile), so the plan cache's
// key includes it.

// packingModes are the values of Options.Packing and DSN packing=.
var packingModes = map[string]bool{"": true, "on": true, "off": true, "transfer": true}

// packingMode is gpu_packing's value: SET gpu_packing where the session
// set it, the database's option otherwise.
func (db *DB) packingMode() string {
	if v, ok := db.session.Variable("gpu_packing"); ok && !v.Null {
		return v.S
	}
	return defaultGPUPacking(db.opts.Packing)
}

// setGPUPacking applies SET gpu_packing = 'on' | 'off' | 'transfer' (ON,
// OFF, TRANSFER, 1, 0).
func (db *DB) setGPUPacking(v *sql.Const) error {
	if !v.Null && v.T.ID == columnar.String && strings.EqualFold(strings.TrimSpace(v.S), "transfer") {
		db.session.SetEngineVariable("gpu_packing", &sql.Const{T: columnar.TString, S: "transfer"})
		return nil
	}
	if err := db.setSwitch("gpu_packing", v); err != nil {
		return fmt.Errorf("variable 'gpu_packing' takes 'transfer', 'on' or 'off', got %s", v)
	}
	return nil
}

// SetGPUPacking sets gpu_packing ("transfer", "on" or "off") as SET does.
func (db *DB) SetGPUPacking(mode string) error {
	return db.setGPUPacking(&sql.Const{T: columnar.TString, S: mode})
}

// defaultGPUPacking is gpu_packing's value before any SET.
func defaultGPUPacking(opt string) string {
	if opt == "" {
		return "transfer"
	}
	return opt
}
