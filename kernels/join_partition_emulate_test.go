package kernels

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestJoinPartitionKernelsEmulated compiles kernels/join_partition.cu as
// C++ with a CPU emulation of the CUDA features it uses, warps included
// (testdata/emulate/warp_emulation.h), and runs the partitioned join's
// host sequence over it with hash_join.cu's build and probe per pass
// (testdata/emulate/join_partition_main.cpp checks the histogram,
// scatter, compaction and map, then every join's pairs against a nested
// loop), so
// the kernels' own source is checked on machines without a GPU; the cuda
// tests in exec/gpu run the partitioned joins on one. Needs g++ (C++20).
func TestJoinPartitionKernelsEmulated(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++: the emulated kernel test needs a C++20 compiler")
	}
	dir := t.TempDir()
	files := map[string]string{ // source -> name in dir
		"join_partition.cu":                        "jp.cpp",
		"hash_join.cu":                             "hj.cpp",
		"common.cuh":                               "common_real.cuh",
		"testdata/emulate/warp_emulation.h":        "common.cuh",
		"testdata/emulate/join_partition_main.cpp": "main.cpp",
	}
	for from, to := range files {
		b, err := os.ReadFile(from)
		if os.IsNotExist(err) {
			t.Skip("kernel source not here (a gpu-bundle runs the kernels themselves)")
		} else if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "emu")
	if out, err := exec.Command(gxx, "-std=c++20", "-O1", "-pthread", "-I", dir, "-o", bin, filepath.Join(dir, "main.cpp")).CombinedOutput(); err != nil {
		probe := exec.Command(gxx, "-std=c++20", "-pthread", "-x", "c++", "-o", filepath.Join(dir, "probe"), "-")
		probe.Stdin = strings.NewReader("#include <barrier>\n#include <atomic>\nint main() { int x = 0; std::atomic_ref<int>(x).fetch_add(1); std::barrier<> b(1); b.arrive_and_wait(); }\n")
		if probe.Run() != nil {
			t.Skipf("g++ cannot build C++20 code here: %v", err)
		}
		t.Fatalf("compile: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("emulated join partition kernels: %v (a MISMATCH line above names the case)", err)
	}
}
