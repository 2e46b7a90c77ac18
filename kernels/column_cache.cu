// column_cache: the work done once when a column enters the GPU column
// cache (exec/gpu/column_cache.go).
//
// cache_scan reads a 4- or 8-byte integer vector, writes it narrowed to
// int32 when out is set, and folds the min and max of its non-NULL values
// into mm[0], mm[1] (the executor sizes dense tables and direct-mapped
// joins from them, and keeps a BIGINT/DECIMAL column as int32 when they fit:
// SSB's lo_revenue, lo_extendedprice, lo_supplycost). Its input may be the
// device alias of pinned host memory (zero-copy over UVA): an int64 column
// is then read once across PCIe, 8 B/row, and only its int32 form lands in
// device memory, with no staging copy and no host-side scan. Otherwise it
// runs on the device copy right after the host-to-device DMA.
//
// Per row: reads width B (+1 bit of validity), writes 4 B when narrowing.
// Launch: grid-stride, 256 threads per block, 8 blocks per SM (2 MB of
// 8-byte loads in flight, enough to cover PCIe latency); one atomicMin and
// one atomicMax per warp. Bound: PCIe bandwidth (~55 GB/s on an H100) when
// reading host memory, device memory bandwidth (~3 TB/s) otherwise.
//
// narrow_i64_i32 is the plain device-to-device narrowing (kept for
// callers that already know the range).
//
// unpack_packed writes a packed column (common.cuh, ld_packed) that
// crossed the link packed as its 4-byte form: thread per row, so the 32
// lanes of a warp read word j of one group's 32 lane streams (one line)
// and write 32 consecutive rows. Reads b/8 B and writes 4 B a row: device
// bandwidth.
//
// narrow_column writes a column's narrow form (common.cuh, ld_narrow):
// each non-NULL value's offset from its chunk's frame in width (1 or 2)
// bytes, a NULL row 0. The frames come from the plan (the chunks' least
// values in the statistics); a value below its frame or too far above
// it means the statistics do not describe the column, and sets *bad
// (the executor then fails the load rather than return wrong values).
// Reads the 4-byte form once (or a packed form: ldi decodes it), writes
// width bytes a row: device bandwidth.
#include "common.cuh"

extern "C" __global__ void narrow_column(const Col c, long long n, int width, const int* frames, int shift, void* out,
                                         unsigned int* bad) {
  const unsigned top = width == 1 ? 0xffu : 0xffffu;
  bool wrong = false;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned o = 0;
    if (isvalid(c, i)) {
      o = (unsigned)(int)ldi(c, i) - (unsigned)__ldg(frames + (i >> shift));
      wrong = wrong || o > top;
    }
    if (width == 1)
      ((unsigned char*)out)[i] = (unsigned char)o;
    else
      ((unsigned short*)out)[i] = (unsigned short)o;
  }
  if (wrong) *bad = 1u;
}

extern "C" __global__ void unpack_packed(const Col c, long long n, int* out) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = ld_packed(c, i);
}

// unpack_runs expands a column sent in its run-length form
// (storage/columnar/runs.go: frames, each chunk's first word of values, a
// start bit a row, each run's offset in bits bits) into its 4-byte form:
// a block a chunk of 4,096 rows at a time. The chunk's 128 start words'
// popcounts, scanned in shared memory, give each word's runs before it; a
// thread then writes rows t, t + 256, ... (a warp's lanes consecutive
// rows), each row's run the start bits up to it. Reads a bit a row and
// bits bits a run, writes 4 B a row: device bandwidth. blockDim.x must be
// RUNS_THREADS.
#define RUNS_THREADS 256
extern "C" __global__ void __launch_bounds__(RUNS_THREADS)
    unpack_runs(const unsigned* form, long long chunks, long long n, int bits, int* out) {
  __shared__ unsigned before[128];
  __shared__ unsigned warpRuns[4];
  const int* frames = (const int*)form;
  const unsigned* valueStart = form + chunks;
  const unsigned* starts = form + 2 * chunks + 1;
  const unsigned* values = starts + ((n + 31) >> 5);
  const int t = threadIdx.x;
  for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
    const long long row0 = c << 12;
    const int rows = (int)min(4096LL, n - row0);
    const unsigned* st = starts + (row0 >> 5);
    const unsigned own = t < ((rows + 31) >> 5) ? __popc(st[t]) : 0u;
    unsigned upTo = own;  // inclusive scan over the warp
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned y = __shfl_up_sync(0xffffffffu, upTo, o);
      if ((t & 31) >= o) upTo += y;
    }
    if (t < 128 && (t & 31) == 31) warpRuns[t >> 5] = upTo;
    __syncthreads();
    if (t < 128) {
      unsigned add = 0;
      for (int w = 0; w < (t >> 5); w++) add += warpRuns[w];
      before[t] = upTo - own + add;
    }
    __syncthreads();
    const unsigned* vals = values + valueStart[c];
    const unsigned frame = (unsigned)frames[c];
    for (int i = t; i < rows; i += RUNS_THREADS) {
      const unsigned run = before[i >> 5] + __popc(st[i >> 5] & (0xffffffffu >> (31 - (i & 31)))) - 1u;
      unsigned d = 0;
      if (bits > 0) {
        const unsigned long long pos = (unsigned long long)run * (unsigned)bits;
        const unsigned long long pair =
            (unsigned long long)vals[pos >> 5] | ((unsigned long long)vals[(pos >> 5) + 1] << 32);
        d = (unsigned)(pair >> (pos & 31));
        if (bits < 32) d &= (1u << bits) - 1u;
      }
      out[row0 + i] = (int)(frame + d);
    }
    __syncthreads();  // before[] and warpRuns[] serve the next chunk
  }
}

extern "C" __global__ void narrow_i64_i32(const long long* in, int* out, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = (int)in[i];
}

extern "C" __global__ void cache_scan(const void* in, long long width, int* out, const unsigned long long* valid,
                                      long long n, long long* mm) {
  long long lo = 0x7fffffffffffffffLL, hi = (long long)0x8000000000000000ULL;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    long long v = width == 4 ? (long long)((const int*)in)[i] : ((const long long*)in)[i];
    if (out) out[i] = (int)v;
    if (valid == 0 || ((valid[i >> 6] >> (i & 63)) & 1ULL)) {
      lo = min(lo, v);
      hi = max(hi, v);
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    lo = min(lo, __shfl_down_sync(0xffffffffu, lo, o));
    hi = max(hi, __shfl_down_sync(0xffffffffu, hi, o));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(mm, lo);
    atomicMax(mm + 1, hi);
  }
}

// store_words writes n <= STORE_WORDS words carried in its own launch
// parameters to dst: a small upload (a predicate's set, a rank map) that
// must not queue on the copy engine behind the megabytes a cold run's
// copies ahead have queued there, as a copy would (exec/gpu/upload.go).
#define STORE_WORDS 1000
struct StoreArgs {
  unsigned* dst;
  int n;
  unsigned w[STORE_WORDS];
};
extern "C" __global__ void store_words(const __grid_constant__ StoreArgs a) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += gridDim.x * blockDim.x) a.dst[i] = a.w[i];
}
