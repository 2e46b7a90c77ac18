// conflict_bench: one small table in shared memory, hit once per fact row,
// under the three layouts `gpusql bench conflicts` compares (Sitaridi and
// Ross, "Ameliorating Memory Contention of OLAP Operators on GPU
// Processors", DaMoN 2012):
//
//   plain            one copy; entry v at word v (bank v mod 32);
//   lane-replicated  `replicas` copies `stride` words apart (stride odd, so
//                    copy r of v sits in bank (v + r·stride) mod 32); lane l
//                    of every warp uses copy l mod replicas;
//   remapped         one copy of `entries` slots; slot s holds the entry of
//                    value slotValue[s] (-1: an unused slot), and the fact
//                    column holds each row's slot instead of its value
//                    (storage/columnar/remap.go placed the slots so that a
//                    warp's 32 rows hit distinct banks).
//
// The two kernels take the same parameters; only the key column, the slot
// map and the replica count differ between layouts:
//
//   conflict_group  grouped SUM: per row, one 32-bit shared-memory atomicAdd
//                   of the row's measure into its slot (write conflicts:
//                   lanes on one bank serialize, lanes on one word too);
//                   at the end each block sums each value's copies (its
//                   replicas, or its remapped slots listed by copyStart /
//                   copySlots) and adds the non-zero sums into the global
//                   per-value sums out[value]: one 8-byte atomic per value
//                   and block, as in the plain layout, however many copies.
//                   Reads 8 B per row (key and measure).
//   conflict_join   foreign-key join: per row, the 4-byte payload of the
//                   row's dimension entry gathered from shared memory (read
//                   conflicts: lanes on one bank for different words
//                   serialize, one word broadcasts); the payloads are
//                   summed into out[0] (one atomic per warp) so that the
//                   gather cannot be optimized away. Reads 4 B per row.
//
// Row-to-thread assignment (what the remap's chunks assume): a block's tile
// is ITEMS x 256 rows; at step k thread t takes row tile + k·256 + t, so the
// 32 lanes of a warp take 32 consecutive rows starting at a multiple of 32,
// i.e. one remap chunk (row / 32). Launch: 256 threads per block, a
// persistent grid of SMs x resident blocks looping over tiles; dynamic
// shared memory of replicas x stride words. Bound: HBM reads (8 or 4 B per
// row, ~2.9 TB/s measured on the H100) when conflict-free; otherwise the
// serialization rounds per warp on the shared-memory pipe.
#include "common.cuh"

#define CB_ITEMS 8

struct ConflictParams {
  const int* keys;                 // per row: value (plain, replicated) or slot (remapped)
  const int* measure;              // per row: the value conflict_group sums
  const int* payload;              // per value: conflict_join's dimension payload
  const int* slotValue;            // remapped: per slot its value (-1 unused); else null
  const int* copyStart;            // remapped: value v's slots are copySlots[copyStart[v] .. copyStart[v+1])
  const int* copySlots;
  unsigned long long* out;         // group: per-value sums; join: out[0] the payload sum
  long long n;
  int entries;                     // values (plain, replicated) or slots (remapped)
  int replicas;                    // copies of the table (1: plain or remapped)
  int stride;                      // words from one copy to the next (odd; entries when replicas is 1)
  int distinct;                    // values
};

extern "C" __global__ void conflict_params_size(long long* out) { *out = sizeof(ConflictParams); }

// cb_value is the value whose entry word s of copy 0 holds (-1: none).
__device__ __forceinline__ int cb_value(const ConflictParams& p, int s) {
  if (s >= p.entries) return -1;
  return p.slotValue ? __ldg(p.slotValue + s) : s;
}

extern "C" __global__ void __launch_bounds__(256) conflict_group(const ConflictParams p) {
  extern __shared__ unsigned int cb_sh[];
  const int words = p.replicas * p.stride;
  for (int s = threadIdx.x; s < words; s += blockDim.x) cb_sh[s] = 0u;
  __syncthreads();
  unsigned int* tab = cb_sh + (threadIdx.x & 31) % p.replicas * p.stride;
  const long long tile = (long long)blockDim.x * CB_ITEMS;
  for (long long base = (long long)blockIdx.x * tile; base < p.n; base += (long long)gridDim.x * tile) {
    int key[CB_ITEMS], m[CB_ITEMS];
#pragma unroll
    for (int k = 0; k < CB_ITEMS; k++) {
      long long i = base + (long long)k * blockDim.x + threadIdx.x;
      key[k] = i < p.n ? __ldg(p.keys + i) : -1;
      m[k] = i < p.n ? __ldg(p.measure + i) : 0;
    }
#pragma unroll
    for (int k = 0; k < CB_ITEMS; k++)
      if (key[k] >= 0) atomicAdd(tab + key[k], (unsigned int)m[k]);
  }
  __syncthreads();
  for (int v = threadIdx.x; v < p.distinct; v += blockDim.x) {
    unsigned long long sum = 0;
    if (p.copyStart) {
      for (int c = __ldg(p.copyStart + v); c < __ldg(p.copyStart + v + 1); c++) sum += cb_sh[__ldg(p.copySlots + c)];
    } else {
      for (int r = 0; r < p.replicas; r++) sum += cb_sh[r * p.stride + v];
    }
    if (sum != 0) atomicAdd(p.out + v, sum);
  }
}

extern "C" __global__ void __launch_bounds__(256) conflict_join(const ConflictParams p) {
  extern __shared__ unsigned int cb_sh[];
  const int words = p.replicas * p.stride;
  for (int s = threadIdx.x; s < words; s += blockDim.x) {
    int v = cb_value(p, s % p.stride);
    cb_sh[s] = v >= 0 ? (unsigned int)__ldg(p.payload + v) : 0u;
  }
  __syncthreads();
  const unsigned int* tab = cb_sh + (threadIdx.x & 31) % p.replicas * p.stride;
  const long long tile = (long long)blockDim.x * CB_ITEMS;
  unsigned long long acc = 0;
  for (long long base = (long long)blockIdx.x * tile; base < p.n; base += (long long)gridDim.x * tile) {
    int key[CB_ITEMS];
#pragma unroll
    for (int k = 0; k < CB_ITEMS; k++) {
      long long i = base + (long long)k * blockDim.x + threadIdx.x;
      key[k] = i < p.n ? __ldg(p.keys + i) : -1;
    }
#pragma unroll
    for (int k = 0; k < CB_ITEMS; k++)
      if (key[k] >= 0) acc += tab[key[k]];
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if ((threadIdx.x & 31) == 0 && acc != 0) atomicAdd(p.out, acc);
}
