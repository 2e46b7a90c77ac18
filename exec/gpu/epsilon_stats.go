package gpu

// EpsilonStats says how a GPU ε-join ran (the bench prints it).
type EpsilonStats struct {
	Pairs       int64 // pairs found
	Estimated   int64 // pairs the sample predicted
	Batches     int   // kernel launches over query batches, reruns included
	Reruns      int   // batches whose results overflowed the buffer, run again split in two
	Streams     int   // CUDA streams the batches were spread over (per device)
	Devices     int   // GPUs the batches were dealt to
	BufferPairs int64 // capacity of each result buffer, in pairs
	UploadMs    float64
	EstimateMs  float64
	JoinMs      float64 // batches: kernels, result copies and the sink
}
