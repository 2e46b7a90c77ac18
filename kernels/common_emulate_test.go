package kernels

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestExprVMTileEmulated compiles kernels/expr_vm.cu as C++ over the CPU
// emulation (testdata/emulate: cuda_emulation.h's threads and warps,
// vm_prelude.h's remaining intrinsics, then the real common.cuh) and runs
// testdata/emulate/expr_vm_tile_main.cpp: the tile VM against the per-row VM on
// the same programs, sizes around the tile, selections and grids smaller
// than the tile count (values, validity words, the overflow flag, nothing
// written past n). The cuda tests in exec/gpu run both against exec/cpu on
// a GPU. Needs a C++20 compiler (g++).
func TestExprVMTileEmulated(t *testing.T) {
	runWithCommon(t, "expr_vm.cu", "extern __shared__ long long vt_shared[];", "long long* vt_shared = (long long*)g_dyn_shared;", "expr_vm_tile_main.cpp")
}

// TestSelectEmitEmulated runs kernels/select.cu's select_count (keeping the
// pass bits) and select_emit in the same emulation against a sequential
// filter: values of INT, BIGINT (with NULLs) and DOUBLE columns at their
// ranks, validity bits (ORed in by neighbouring threads), row numbers,
// nothing past the last row; sizes around the 2048-row tile, 0 to 100 %
// selectivity, more columns than one launch takes.
func TestSelectEmitEmulated(t *testing.T) {
	runWithCommon(t, "select.cu", "", "", "select_emit_main.cpp")
}

// TestGroupAggOneEmulated runs kernels/group_by.cu's group_agg_one (one
// group: thread and warp partials) in the same emulation against a
// sequential fold: COUNT(*), COUNT, SUM, MIN, MAX of a nullable BIGINT and
// a DOUBLE, all rows or flagged ones, sizes around a warp and a block, the
// overflow flag exactly when the total leaves int64.
func TestGroupAggOneEmulated(t *testing.T) {
	runWithCommon(t, "group_by.cu", "", "", "group_agg_main.cpp")
}

// TestStarFinishKernelEmulated runs kernels/star_finish.cu's star_finish
// in the same emulation: the star's device finish (keys through value
// tables and fact digits, four kinds of aggregate, NULLs, dense and
// compacted tables, sorts in both directions, reversal, the overflow and
// unsorted flags) against a sequential decode and std::stable_sort.
func TestStarFinishKernelEmulated(t *testing.T) {
	runWithCommon(t, "star_finish.cu", "", "", "star_finish_main.cpp")
}

// runWithCommon compiles kernel source file as C++ (its dynamic shared
// declaration dyn, when given, rewritten to rewriteTo) over
// cuda_emulation.h, vm_prelude.h and the real common.cuh, with main from
// testdata/emulate (and its emulate_launch.h), runs it and fails on a non-zero exit status.
func runWithCommon(t *testing.T, file, dyn, rewriteTo, main string) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++: the emulated kernel test needs a C++20 compiler")
	}
	src, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		t.Skip("kernel source not here (a gpu-bundle runs the kernels themselves)")
	} else if err != nil {
		t.Fatal(err)
	}
	if dyn != "" {
		if bytes.Count(src, []byte(dyn)) != 1 {
			t.Fatalf("%s should declare its dynamic shared memory once as %q", file, dyn)
		}
		src = bytes.Replace(src, []byte(dyn), []byte(rewriteTo), 1)
	}
	common, err := os.ReadFile("common.cuh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"kernel.cpp":      src,
		"real_common.cuh": common,
		"common.cuh":      []byte("#pragma once\n#include \"vm_prelude.h\"\n#include \"real_common.cuh\"\n"),
	}
	for from, to := range map[string]string{"cuda_emulation.h": "cuda_emulation.h", "vm_prelude.h": "vm_prelude.h", "emulate_launch.h": "emulate_launch.h", main: "main.cpp"} {
		if files[to], err = os.ReadFile(filepath.Join("testdata", "emulate", from)); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "emu")
	if out, err := exec.Command(gxx, "-std=c++20", "-O1", "-pthread", "-I", dir, "-o", bin, filepath.Join(dir, "main.cpp")).CombinedOutput(); err != nil {
		t.Fatalf("compile: %v\n%s", err, out)
	}
	// A kernel that leaves some lanes out of a warp ballot would hang the
	// emulation's barriers: bound it.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("emulated %s: %v (a MISMATCH line above names the case)", file, err)
	}
}
