package main

import (
	"bytes"
	"strings"
	"testing"
)

// bench ssb prints the GPU's kernel time, host time, bytes at device width,
// the plan's estimate of the bytes fetched (the device bytes without one)
// and share of the HBM limit per query, and their sums with the limit
// named; a CPU-only report has none of it.
func TestPrintBenchGPUProfile(t *testing.T) {
	r := &benchReport{Executors: []string{"gpu"}, TotalWarm: map[string]float64{}, Queries: []*queryReport{
		{Name: "Q1.1", Bytes: 1200e6, Executors: map[string]*queryTiming{"gpu": {WarmMs: 0.5, Kernels: 2, KernelMs: 0.4, HostMs: 0.1, DeviceBytes: 960e6, HBMPct: 82.8, HBMGBs: 2900}}},
		{Name: "Q4.1", Bytes: 1900e6, PlanMs: 0.35, CachedPlanMs: 0.0012, Executors: map[string]*queryTiming{"gpu": {WarmMs: 1, Kernels: 8, KernelMs: 0.75, HostMs: 0.25, DeviceBytes: 1440e6, FetchBytes: 610e6, HBMPct: 28.0, HBMGBs: 2900}}},
	}}
	var b bytes.Buffer
	printBench(&b, r)
	s := b.String()
	for _, want := range []string{"kern ms  host ms   dev MB  read MB  %HBM", "2    0.400    0.100    960.0    960.0  82.8", "8    0.750    0.250   1440.0    610.0  28.0", "read MB: the plan's estimate",
		"gpu: kernels 1.150 ms + host 0.350 ms over all queries", "against the measured 2900 GB/s",
		"plan ms cached ms", "1900.0    0.350    0.0012", "0.350 ms over all queries, 0.0012 ms from the plan cache"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	r = &benchReport{Executors: []string{"cpu"}, TotalWarm: map[string]float64{}, Queries: []*queryReport{
		{Name: "Q1.1", Bytes: 1200e6, Executors: map[string]*queryTiming{"cpu": {WarmMs: 20}}}}}
	b.Reset()
	printBench(&b, r)
	if s := b.String(); strings.Contains(s, "kern ms") || strings.Contains(s, "gpu:") {
		t.Errorf("GPU columns in a CPU report:\n%s", s)
	}
}
