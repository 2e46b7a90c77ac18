package main

import (
	"bytes"
	"strings"
	"testing"
)

// printMoved gives each GPU query's bytes moved over its kernel time
// against both limits, and says how many kernels went uncounted.
func TestPrintMoved(t *testing.T) {
	r := &benchReport{Executors: []string{"gpu", "cpu"}, Queries: []*queryReport{
		{Name: "project", Executors: map[string]*queryTiming{
			"gpu": {Kernels: 2, KernelMs: 1, DeviceBytes: 512e6, HBMPct: 17.7, HBMGBs: 2900, MovedBytes: 1450e6, KernelTable: "expr_vm_tile 1 ms"},
			"cpu": {WarmMs: 100}}},
		{Name: "sort", Executors: map[string]*queryTiming{
			"gpu": {Kernels: 3, Unnoted: 1, KernelMs: 2, DeviceBytes: 512e6, HBMGBs: 2900, MovedBytes: 2500e6},
			"cpu": {WarmMs: 100}}},
	}}
	var out bytes.Buffer
	printMoved(&out, r, 2500)
	s := out.String()
	for _, want := range []string{
		"against HBM reads 2900 GB/s and a device-to-device copy 2500 GB/s",
		// 1450 MB in 1 ms: 1450 GB/s, 50 % of 2900, 58 % of 2500.
		"1450.0        1450                 50.0                  58.0",
		// 2500 MB in 2 ms: 1250 GB/s, one kernel unnoted.
		"sort        3        1",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	if strings.Contains(s, "cpu:") {
		t.Errorf("a CPU executor in the GPU's byte table:\n%s", s)
	}
}

// --kernels prints each GPU query's kernel table under its name.
func TestPrintKernelTables(t *testing.T) {
	r := &benchReport{Executors: []string{"cpu", "gpu"}, Queries: []*queryReport{
		{Name: "project", Executors: map[string]*queryTiming{"gpu": {KernelTable: "expr_vm_tile 1 ms"}, "cpu": {}}},
		{Name: "sort", Executors: map[string]*queryTiming{"gpu": {}, "cpu": {}}},
	}}
	var out bytes.Buffer
	printKernelTables(&out, r)
	if got, want := out.String(), "\nproject on gpu:\nexpr_vm_tile 1 ms\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
