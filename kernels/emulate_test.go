package kernels

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMergePathKernelsEmulated compiles kernels/merge_path_join.cu as C++
// with a CPU emulation of the CUDA features it uses (testdata/emulate:
// one OS thread per CUDA thread, barriers for __syncthreads) and runs the
// merge-path join's host sequence over it against a two-pointer merge, so
// the kernels' own source is checked on machines without a GPU (the cuda
// tests in exec/gpu check them on one). Needs a C++20 compiler (g++).
func TestMergePathKernelsEmulated(t *testing.T) {
	runEmulated(t, "merge_path_join.cu", "mpj.cpp", "merge_path_join_main.cpp", func(src []byte) []byte {
		const dyn = "extern __shared__ unsigned long long sh[];"
		if bytes.Count(src, []byte(dyn)) != 1 {
			t.Fatalf("merge_path_join.cu should declare its dynamic shared memory once as %q", dyn)
		}
		return bytes.Replace(src, []byte(dyn), []byte("unsigned long long* sh = g_dyn_shared;"), 1)
	})
}

// TestRadixSortKernelsEmulated runs kernels/radix_sort.cu's passes in the
// same emulation (with warps: __match_any_sync, __shfl_sync, __syncwarp)
// under every plan exec/gpu/radix_sort.go makes, against std::stable_sort:
// the permutation must be the stable order and the written-back keys
// sorted.
func TestRadixSortKernelsEmulated(t *testing.T) {
	runEmulated(t, "radix_sort.cu", "rs.cpp", "radix_sort_main.cpp", func(src []byte) []byte { return src })
}

// TestGroupCompactKernelsEmulated runs kernels/group_compact.cu the same
// way: the star group table's device-side compaction (count, scan,
// scatter) against a sequential filter of the dense table, for tables
// around the tile size, empty, full and sparse.
func TestGroupCompactKernelsEmulated(t *testing.T) {
	runEmulated(t, "group_compact.cu", "kernel.cpp", "group_compact_main.cpp", nil)
}

// runEmulated compiles kernel source file (rewritten by rewrite when
// given) as name beside the emulation header (as common.cuh) and the
// host driver main (from testdata/emulate), runs it and fails on a
// non-zero exit status (a MISMATCH line of its output names the case).
func runEmulated(t *testing.T, file, name, main string, rewrite func([]byte) []byte) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++: the emulated kernel test needs a C++20 compiler")
	}
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.cpp")
	if err := os.WriteFile(probe, []byte("#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gxx, "-std=c++20", "-pthread", "-o", filepath.Join(dir, "probe"), probe).CombinedOutput(); err != nil {
		t.Skipf("g++ cannot build C++20 <barrier> code: %v\n%s", err, out)
	}
	src, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		t.Skip("kernel source not here (a gpu-bundle runs the kernels themselves)")
	} else if err != nil {
		t.Fatal(err)
	}
	if rewrite != nil {
		src = rewrite(src)
	}
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{"cuda_emulation.h": "common.cuh", main: "main.cpp"} {
		b, err := os.ReadFile(filepath.Join("testdata", "emulate", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "emu")
	if out, err := exec.Command(gxx, "-std=c++20", "-O1", "-pthread", "-I", dir, "-o", bin, filepath.Join(dir, "main.cpp")).CombinedOutput(); err != nil {
		t.Fatalf("compile: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("emulated %s: %v (a MISMATCH line above names the case)", file, err)
	}
}
