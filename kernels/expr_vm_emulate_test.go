package kernels

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestExprVMOverflowEmulated compiles kernels/expr_vm.cu as C++ with the
// warp emulation and the real common.cuh, and runs integer ABS and
// negation over a BIGINT column holding -2^63 (in a valid row, in NULL
// rows only, or not at all): results, validity bits and the overflow flag
// must be what exec/cpu decides (testdata/emulate/expr_vm_main.cpp). The
// cuda tests in exec/gpu (TestOverflowDifferential) run it on a GPU.
func TestExprVMOverflowEmulated(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++: the emulated kernel test needs a C++20 compiler")
	}
	dir := t.TempDir()
	for from, to := range map[string]string{
		"expr_vm.cu":                        "ev.cpp",
		"common.cuh":                        "common_real.cuh",
		"testdata/emulate/warp_emulation.h": "common.cuh",
		"testdata/emulate/expr_vm_main.cpp": "main.cpp",
	} {
		b, err := os.ReadFile(from)
		if os.IsNotExist(err) {
			t.Skip("kernel source not here (a gpu-bundle runs the kernels themselves)")
		} else if err != nil {
			t.Fatal(err)
		}
		// The tile kernels' dynamic shared memory: this harness launches
		// only the per-row VM (TestExprVMTileEmulated runs the others).
		b = bytes.Replace(b, []byte("extern __shared__ long long vt_shared[];"), []byte("long long* vt_shared = nullptr;"), 1)
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
		t.Fatalf("emulated expr_vm: %v (a MISMATCH line above names the case)", err)
	}
}
