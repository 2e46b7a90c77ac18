package gpu

// UVABenchOptions sizes `gpusql bench uva`.
type UVABenchOptions struct {
	// BuildRows and ProbeRows are the tables' sizes in 8-byte tuples
	// (each below 2^31).
	BuildRows, ProbeRows int64
	// MatchRates are the fractions of probe rows that find a build row.
	MatchRates []float64
	// Streams and ChunkRows shape the streamed mode: chunks of ChunkRows
	// tuples copied round-robin into one device buffer per stream.
	Streams   int
	ChunkRows int64
	// Runs per measurement; the median is reported.
	Runs int
}

// UVA join modes: how the kernels reach the tables in pinned host memory.
const (
	UVAZeroCopy = "zero-copy" // read in place over unified virtual addressing
	UVACopy     = "copy"      // copied whole into device memory, then joined
	UVAStreamed = "streamed"  // copied in chunks on several streams, overlapping the join
)

// UVAModes lists the modes in the order the bench runs them.
var UVAModes = []string{UVAZeroCopy, UVACopy, UVAStreamed}

// UVAResult is one measured configuration. Times include every transfer
// the mode needs (copy mode's whole-table copies too).
type UVAResult struct {
	Mode    string  `json:"mode"`
	Cache   bool    `json:"result_cache"`
	Match   float64 `json:"match_rate"`
	Matches int64   `json:"matches"`
	BuildMs float64 `json:"build_ms"`
	ProbeMs float64 `json:"probe_ms"`
	// GB/s of input tuples (8 bytes each) over each phase and over both.
	BuildGBs float64 `json:"build_gb_per_s"`
	ProbeGBs float64 `json:"probe_gb_per_s"`
	TotalGBs float64 `json:"total_gb_per_s"`
}

// UVAReport is a `bench uva` run: the link's limits measured in the same
// run, then each configuration.
type UVAReport struct {
	Device    string `json:"device"`
	BuildRows int64  `json:"build_rows"`
	ProbeRows int64  `json:"probe_rows"`
	Streams   int    `json:"streams"`
	ChunkRows int64  `json:"chunk_rows"`
	// CopyGBs is the pinned host-to-device copy rate; ZeroCopyGBs what a
	// kernel reading pinned host memory in place gets.
	CopyGBs     float64     `json:"pinned_copy_gb_per_s"`
	ZeroCopyGBs float64     `json:"zero_copy_gb_per_s"`
	Results     []UVAResult `json:"results"`
}
