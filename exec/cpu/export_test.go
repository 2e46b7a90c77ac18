package cpu

// SetSpillFans sets the external sort's largest fan-in and the spilled
// aggregation's fan-out (tests of multi-pass merges and re-partitioning)
// and returns a function restoring them.
func SetSpillFans(fanIn, fanOut int) (restore func()) {
	in, out := sortMaxFanIn, aggFanOut
	sortMaxFanIn, aggFanOut = fanIn, fanOut
	return func() { sortMaxFanIn, aggFanOut = in, out }
}
