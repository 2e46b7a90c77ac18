package planner

import "gpusql/storage/columnar"

// Run-length transfers (issue 17's cold path). A fact column whose equal
// values come in runs (a table loaded in order of its orders: SSB's
// lo_orderdate and lo_custkey repeat over an order's one to seven lines)
// crosses the link in a fraction of its packed bytes as its run-length
// form (storage/columnar/runs.go: a bit a row, b bits a run), which the
// device expands into the same 4-byte form (exec/gpu/column_unpack.go).
// The statistics count every chunk's runs at load, so the plan knows the
// form's size before any copy, and the cold-read cost (gpu_cold_reads.go)
// weighs a copy by the bytes it moves.

// runsSave is the least share of the packed bytes the run-length form must
// save to be sent instead: its decode reads a start bit a row and a
// scattered run value, a little more device work than the packed form's.
const runsSave = 0.25

// runTransferBytes is the run-length form's size for column ci of t in b
// bits a run when the plan sends it so, or 0: when the statistics do not
// count its runs (a database written before they did), or it saves less
// than runsSave of packed.
func runTransferBytes(t *columnar.Table, ci, b int, packed int64, prof *GPUProfile) int64 {
	if prof.NoRunTransfer || ci >= len(t.Stats) || t.Rows == 0 {
		return 0
	}
	runs := 0
	for _, s := range t.Stats[ci] {
		if s.Runs == 0 {
			return 0 // not counted
		}
		runs += s.Runs
	}
	est := columnar.RunBytesEstimate(t.Rows, runs, b)
	if !prof.ForceRunTransfer && float64(est) > (1-runsSave)*float64(packed) {
		return 0
	}
	return est
}
