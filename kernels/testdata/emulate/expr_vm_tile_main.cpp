// kernels/expr_vm.cu run in CPU emulation (cuda_emulation.h, one OS thread
// per CUDA thread): every program below runs through the per-row VM
// (expr_vm, one launch per output) and the tile VM (expr_vm_tile8/4, all
// outputs in one launch) over the same columns, and the two must agree on
// every value, every validity word and the overflow flag. The programs
// are written as exec/gpu/expr_vm_regs.go leaves them (registers reused,
// a result written over an operand, Pad holding the operand mask);
// instruction semantics are shared (vm_op), so what this checks is the
// tile kernel's own work: rows per thread and tiles, the grid-stride loop,
// the tail past n (read nothing, flag nothing), selections through row ids,
// several outputs per launch and their validity ballots; both kernels (8
// and 4 rows a thread). Sizes around the 1024- and 2048-row tiles, with
// grids smaller than the tile count. Exit status 1 on any mismatch. Built
// and run by kernels/common_emulate_test.go.
#include "kernel.cpp"
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
WarpEmu* g_warps;
unsigned long long g_dyn_shared[1 << 16];

#include "emulate_launch.h"

enum { A = 1, B = 2, C = 4 };

static VMIns ins(int op, int dst, int a, int b, int c, int used, long long imm = 0, long long imm2 = 0) {
  VMIns x{};
  x.op = op, x.dst = dst, x.a = a, x.b = b, x.c = c, x.pad = used, x.imm = imm, x.imm2 = imm2;
  return x;
}

struct Program {
  std::string name;
  std::vector<VMIns> code;
  int nreg;
  std::vector<int> outRegs, outKinds;
};

static unsigned int overflow_word;

struct Output {
  std::vector<unsigned char> data;
  std::vector<unsigned int> valid;
};

static int width_of(int kind) { return kind == VM_OUT_I32 ? 4 : kind == VM_OUT_FLAG ? 1 : 8; }

static Output alloc_out(long long n, int kind) {
  Output o;
  o.data.assign(n * width_of(kind) + 64, 0xab);
  o.valid.assign((n + 63) / 64 * 2 + 2, 0xcdcdcdcdu);
  return o;
}

// run_rowwise runs each output of pr through expr_vm (one launch each).
static std::vector<Output> run_rowwise(const Program& pr, const Col* cols, int ncols, long long n, const int* rowids, unsigned* flag) {
  std::vector<Output> outs;
  overflow_word = 0;
  for (size_t o = 0; o < pr.outRegs.size(); o++) {
    Output out = alloc_out(n, pr.outKinds[o]);
    ExprVMParams p{};
    p.n = n, p.rowids = rowids, p.prog = pr.code.data(), p.nins = (int)pr.code.size(), p.ncols = ncols;
    for (int i = 0; i < ncols; i++) p.cols[i] = cols[i];
    p.out = out.data.data();
    p.outValid = pr.outKinds[o] == VM_OUT_FLAG ? nullptr : out.valid.data();
    p.outKind = pr.outKinds[o], p.outReg = pr.outRegs[o];
    long long n32 = (n + 31) & ~31LL;
    int grid = (int)std::min<long long>((n32 + 255) / 256, 3);
    if (grid > 0) launch(expr_vm, grid, 256, p);
    outs.push_back(std::move(out));
  }
  *flag = overflow_word;
  return outs;
}

// run_tile runs all outputs of pr through expr_vm_tile8 or expr_vm_tile4
// (items rows a thread) in one launch.
static std::vector<Output> run_tile(const Program& pr, const Col* cols, int ncols, long long n, const int* rowids, int items, int grid, unsigned* flag) {
  std::vector<Output> outs;
  overflow_word = 0;
  ExprTileParams p{};
  p.n = n, p.rowids = rowids, p.prog = pr.code.data(), p.nins = (int)pr.code.size(), p.ncols = ncols, p.nreg = pr.nreg;
  p.nout = (int)pr.outRegs.size();
  for (int i = 0; i < ncols; i++) p.cols[i] = cols[i];
  for (size_t o = 0; o < pr.outRegs.size(); o++) outs.push_back(alloc_out(n, pr.outKinds[o]));
  for (size_t o = 0; o < pr.outRegs.size(); o++) {
    p.outs[o].data = outs[o].data.data();
    p.outs[o].valid = pr.outKinds[o] == VM_OUT_FLAG ? nullptr : outs[o].valid.data();
    p.outs[o].kind = pr.outKinds[o], p.outs[o].reg = pr.outRegs[o];
  }
  const long long tile = items * 256;
  size_t shmem = (size_t)pr.nreg * tile * 9 + pr.code.size() * sizeof(VMIns);
  if (shmem > sizeof(g_dyn_shared)) {
    printf("MISMATCH %s: %zu bytes of shared memory, the harness has %zu\n", pr.name.c_str(), shmem, sizeof(g_dyn_shared));
    exit(1);
  }
  long long tiles = (n + tile - 1) / tile;
  if (tiles > 0) launch(items == 8 ? expr_vm_tile8 : expr_vm_tile4, (int)std::min<long long>(tiles, grid), 256, p);
  *flag = overflow_word;
  return outs;
}

int main() {
  gpusql_overflow = &overflow_word;
  std::mt19937_64 rng(5);
  const long long INT64_MAXV = 0x7fffffffffffffffLL;
  // Columns: k INT without NULLs, v INT with NULLs, w BIGINT with NULLs.
  const long long cap = 5000;
  std::vector<int> k(cap), v(cap);
  std::vector<long long> w(cap);
  std::vector<unsigned long long> vValid((cap + 63) / 64), wValid((cap + 63) / 64);
  for (long long i = 0; i < cap; i++) {
    k[i] = (int)(rng() % 2001) - 1000;
    v[i] = (int)(rng() % 200001) - 100000;
    w[i] = (long long)(rng() >> 2) * ((rng() & 1) ? 1 : -1);
    if (rng() % 5) vValid[i / 64] |= 1ULL << (i % 64);
    if (rng() % 3) wValid[i / 64] |= 1ULL << (i % 64);
  }
  Col cols[3] = {};
  cols[0].data = k.data(), cols[0].width = 4;
  cols[1].data = v.data(), cols[1].valid = vValid.data(), cols[1].width = 4;
  cols[2].data = w.data(), cols[2].valid = wValid.data(), cols[2].width = 8;

  std::vector<Program> progs = {
      // k + v*3, k - v: both loads shared, the product written over v.
      {"k+v*3, k-v",
       {ins(VM_LDCOL, 0, 0, 0, 0, 0), ins(VM_LDCOL, 1, 1, 0, 0, 0), ins(VM_MULK, 2, 1, 0, 0, A, 3, 1),
        ins(VM_IADD, 2, 0, 2, 0, A | B, 0, 1), ins(VM_ISUB, 1, 0, 1, 0, A | B, 0, 1)},
       3, {2, 1}, {VM_OUT_I64, VM_OUT_I64}},
      // A filter: k > 5 AND v IS NOT NULL, as flag bytes; and k as INT.
      {"flags",
       {ins(VM_LDCOL, 0, 0, 0, 0, 0), ins(VM_CONST, 1, 0, 0, 0, 0, 5), ins(VM_ICMP, 1, 0, 1, 0, A | B, 4),
        ins(VM_LDCOL, 2, 1, 0, 0, 0), ins(VM_ISNULL, 2, 2, 0, 0, A, 1), ins(VM_AND, 1, 1, 2, 0, A | B),
        ins(VM_WRAP32, 2, 0, 0, 0, A)},
       3, {1, 2}, {VM_OUT_FLAG, VM_OUT_I32}},
      // CASE WHEN v IS NULL THEN w ELSE k * w END, COALESCE(v, k): checked
      // products of BIGINTs overflow on some rows.
      {"case, coalesce, overflow",
       {ins(VM_LDCOL, 0, 1, 0, 0, 0), ins(VM_ISNULL, 1, 0, 0, 0, A, 0), ins(VM_LDCOL, 2, 2, 0, 0, 0),
        ins(VM_LDCOL, 3, 0, 0, 0, 0), ins(VM_IMUL, 4, 3, 2, 0, A | B, 0, 1), ins(VM_SELECT, 1, 1, 2, 4, A | B | C),
        ins(VM_SELNN, 0, 0, 3, 0, A | B)},
       5, {1, 0}, {VM_OUT_I64, VM_OUT_I64}},
      // ISNULL(k) + INT64_MAX: NULL-free k gives 0 + MAX on every live row,
      // no overflow; a row past n evaluated as NULL would give 1 + MAX.
      {"tail flags nothing",
       {ins(VM_LDCOL, 0, 0, 0, 0, 0), ins(VM_ISNULL, 0, 0, 0, 0, A, 0), ins(VM_CONST, 1, 0, 0, 0, 0, INT64_MAXV),
        ins(VM_IADD, 0, 0, 1, 0, A | B, 0, 1)},
       2, {0}, {VM_OUT_I64}},
  };
  int bad = 0;
  for (const auto& pr : progs) {
    for (long long n : {1LL, 31LL, 33LL, 1023LL, 1025LL, 2047LL, 2049LL, 5000LL}) {
      for (int sel = 0; sel < 2; sel++) {
        // With sel, output i reads row rowids[i] (an ascending selection of
        // about a third of the rows, as select.cu writes them).
        std::vector<int> rowids;
        long long m = n;
        if (sel) {
          for (long long i = 0; i < cap && (long long)rowids.size() < n; i++)
            if (rng() % 3 == 0) rowids.push_back((int)i);
          m = (long long)rowids.size();
        }
        const int* rp = sel ? rowids.data() : nullptr;
        unsigned f1;
        auto want = run_rowwise(pr, cols, 3, m, rp, &f1);
        for (int shape = 0; shape < 6; shape++) {
          const int items = shape < 3 ? 8 : 4, grid = (int[]){1, 2, 64}[shape % 3];
          unsigned f2;
          auto got = run_tile(pr, cols, 3, m, rp, items, grid, &f2);
          std::string where = pr.name + " n=" + std::to_string(m) + " sel=" + std::to_string(sel) + " items=" + std::to_string(items) + " grid=" + std::to_string(grid);
          if (f1 != f2) {
            printf("MISMATCH %s: overflow flag %u, the row-wise VM %u\n", where.c_str(), f2, f1);
            bad = 1;
          }
          for (size_t o = 0; o < want.size(); o++) {
            size_t bytes = m * width_of(pr.outKinds[o]);
            for (size_t b = 0; b < bytes && !bad; b++)
              if (want[o].data[b] != got[o].data[b]) {
                printf("MISMATCH %s output %zu: byte %zu is %d, the row-wise VM wrote %d\n", where.c_str(), o, b, got[o].data[b], want[o].data[b]);
                bad = 1;
              }
            if (got[o].data[bytes] != 0xab) {
              printf("MISMATCH %s output %zu: wrote past row %lld\n", where.c_str(), o, m);
              bad = 1;
            }
            if (pr.outKinds[o] == VM_OUT_FLAG) continue;
            for (long long j = 0; j < (m + 31) / 32 && !bad; j++)
              if (want[o].valid[j] != got[o].valid[j]) {
                printf("MISMATCH %s output %zu: validity word %lld is %08x, the row-wise VM wrote %08x\n", where.c_str(), o, j, got[o].valid[j], want[o].valid[j]);
                bad = 1;
              }
            if (got[o].valid[(m + 31) / 32] != 0xcdcdcdcdu) {
              printf("MISMATCH %s output %zu: validity written past word %lld\n", where.c_str(), o, (m + 31) / 32);
              bad = 1;
            }
          }
          if (bad) return 1;
        }
      }
    }
    printf("ok %s\n", pr.name.c_str());
  }
  return 0;
}
