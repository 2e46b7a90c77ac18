// uva_join: the hash join of Kaldewey et al., "GPU Join Processing
// Revisited" (DaMoN 2012), as `gpusql bench uva` runs it
// (exec/gpu/uva_bench.go): two tables of 8-byte tuples {int32 key, int32
// payload} that live in pinned host memory, joined on key. The kernels read
// their input either in place through unified virtual addressing (the
// device alias of pinned host memory: zero-copy) or from device buffers the
// host copied into (whole, or chunk by chunk on several streams); they are
// the same kernels either way, which is the experiment's point.
//
// The hash table is open addressing with linear probing, 2^bits slots of
// {key, payload} (at least twice the build rows), keys hashed
// multiplicatively (Knuth) on their high bits; UVA_EMPTY marks a free slot,
// so build keys must differ from it.
#include "common.cuh"

#define UVA_EMPTY (-1)
#define UVA_ITEMS 4         // tuples per thread per round: 4 loads in flight
#define UVA_CACHE 2048      // result-cache entries per block (16 KB of shared)

// Parameters are all 8 bytes wide, so the Go structs that carry them
// (exec/gpu/uva_join.go) have no trailing padding the launch would reject.
__device__ __forceinline__ unsigned uva_slot(int key, int bits) {
  return (unsigned)(((unsigned)key * 2654435769u) >> (32 - bits));
}

// uva_build inserts n tuples of r into table.
// Per row: reads 8 B of input (PCIe when r is a host alias), one atomicCAS
// and one 4-byte store into the table (random device accesses).
// Launch: 256 threads, grid of 8 blocks per SM (4 tuples per thread per
// round, so 256 KB of loads in flight per SM, enough to cover PCIe
// latency), grid-stride. Bound: the input link (PCIe ~51-55 GB/s on an
// H100) when reading host memory; device atomics otherwise.
extern "C" __global__ void __launch_bounds__(256) uva_build(const int2* r, long long n, int2* table, long long bits) {
  const unsigned mask = (1u << bits) - 1;
  const long long step = (long long)gridDim.x * blockDim.x * UVA_ITEMS;
  for (long long base = (long long)blockIdx.x * blockDim.x * UVA_ITEMS + threadIdx.x; base < n; base += step) {
    int2 t[UVA_ITEMS];
#pragma unroll
    for (int k = 0; k < UVA_ITEMS; k++) {
      long long i = base + (long long)k * blockDim.x;
      t[k] = i < n ? r[i] : make_int2(UVA_EMPTY, 0);
    }
#pragma unroll
    for (int k = 0; k < UVA_ITEMS; k++) {
      if (t[k].x == UVA_EMPTY) continue;
      unsigned s = uva_slot(t[k].x, bits);
      while (atomicCAS(&table[s].x, UVA_EMPTY, t[k].x) != UVA_EMPTY) s = (s + 1) & mask;
      table[s].y = t[k].y;
    }
  }
}

// uva_probe looks up n tuples of s in table and writes one {build payload,
// probe payload} pair per match to out, counting them in *count (which
// also gives each match its place). out must hold every match.
//
// Without the result cache (cache == 0) every match takes its place with
// one global atomicAdd and writes 8 scattered bytes. With it, a block
// gathers its matches in shared memory (UVA_CACHE entries) and flushes
// them with one atomicAdd per flush and coalesced stores: the paper's
// shared-memory result cache, which keeps the output from throttling a
// probe that must run at the input link's rate.
// Per row: reads 8 B of input, one to a few 8-byte table slots (device
// memory, random); per match writes 8 B. Launch: 256 threads, 8 blocks per
// SM, grid-stride, 4 tuples per thread per round. Bound: the input link
// when reading host memory (zero-copy or chunk copies), else the table's
// random reads.
extern "C" __global__ void __launch_bounds__(256) uva_probe(const int2* s, long long n, const int2* table,
                                                            long long bits, int2* out, unsigned long long* count,
                                                            long long cache) {
  __shared__ int2 buf[UVA_CACHE];
  __shared__ unsigned fill;
  __shared__ unsigned long long at;
  const unsigned mask = (1u << bits) - 1;
  if (threadIdx.x == 0) fill = 0;
  __syncthreads();
  const long long step = (long long)gridDim.x * blockDim.x * UVA_ITEMS;
  // Every thread of a block runs the same number of rounds (the loop bound
  // does not depend on threadIdx), so the barriers below are uniform.
  for (long long base = (long long)blockIdx.x * blockDim.x * UVA_ITEMS; base < n; base += step) {
    int2 t[UVA_ITEMS];
#pragma unroll
    for (int k = 0; k < UVA_ITEMS; k++) {
      long long i = base + (long long)k * blockDim.x + threadIdx.x;
      t[k] = i < n ? s[i] : make_int2(UVA_EMPTY, 0);
    }
#pragma unroll
    for (int k = 0; k < UVA_ITEMS; k++) {
      if (t[k].x == UVA_EMPTY) continue;
      unsigned h = uva_slot(t[k].x, bits);
      for (;;) {
        int2 e = table[h];
        if (e.x == t[k].x) {
          int2 m = make_int2(e.y, t[k].y);
          if (cache) buf[atomicAdd(&fill, 1u)] = m;
          else out[atomicAdd(count, 1ull)] = m;
          break;
        }
        if (e.x == UVA_EMPTY) break;
        h = (h + 1) & mask;
      }
    }
    if (!cache) continue;
    __syncthreads();
    // Every thread reads the fill before any adds to it in the next round,
    // so all take the same branch. Flush before a round could overflow the
    // cache (a round adds at most blockDim.x * UVA_ITEMS matches, build
    // keys being unique).
    const unsigned f = fill;
    __syncthreads();
    if (f > UVA_CACHE - blockDim.x * UVA_ITEMS) {
      if (threadIdx.x == 0) at = atomicAdd(count, (unsigned long long)f);
      __syncthreads();
      for (unsigned j = threadIdx.x; j < f; j += blockDim.x) out[at + j] = buf[j];
      __syncthreads();
      if (threadIdx.x == 0) fill = 0;
      __syncthreads();
    }
  }
  if (!cache) return;
  __syncthreads();
  if (fill == 0) return;
  if (threadIdx.x == 0) at = atomicAdd(count, (unsigned long long)fill);
  __syncthreads();
  for (unsigned j = threadIdx.x; j < fill; j += blockDim.x) out[at + j] = buf[j];
}

// uva_read_rate sums n 16-byte words (reads only): run on the device alias
// of pinned host memory it measures the zero-copy read rate the joins above
// are held to. Per row: 16 B read; one atomic per warp. Launch: 256
// threads, 8 blocks per SM, grid-stride, 4 loads in flight per thread.
// Bound: PCIe read bandwidth.
extern "C" __global__ void __launch_bounds__(256) uva_read_rate(const int4* in, long long n, unsigned long long* out) {
  long long sum = 0;
  const long long step = (long long)gridDim.x * blockDim.x * UVA_ITEMS;
  for (long long base = (long long)blockIdx.x * blockDim.x * UVA_ITEMS + threadIdx.x; base < n; base += step) {
    int4 v[UVA_ITEMS];
#pragma unroll
    for (int k = 0; k < UVA_ITEMS; k++) {
      long long i = base + (long long)k * blockDim.x;
      v[k] = i < n ? in[i] : make_int4(0, 0, 0, 0);
    }
#pragma unroll
    for (int k = 0; k < UVA_ITEMS; k++) sum += (long long)v[k].x + v[k].y + v[k].z + v[k].w;
  }
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, (unsigned long long)sum);
}
