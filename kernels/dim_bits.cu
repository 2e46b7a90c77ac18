// dim_bits: the bitmap of a star dimension's direct join table — bit o set
// when entry o (key keyMin + o) has a surviving row — so that the fused
// kernel tests one bit per fact row (Kruliš & Yaghob's bitmap join: 256
// keys a 32-byte sector instead of 8, a table 32× smaller that stays in L1)
// and reads the 4 B payload only for rows that pass, or never when the
// dimension contributes no group column.
//
// Launch: one thread per map entry, 256 per block; each warp ballots 32
// consecutive entries into one word. Reads 4 B and writes 1/8 B an entry:
// bound by the map's size (a few MB at most), microseconds, once per
// dimension build (the build cache keeps it).
#include "common.cuh"

extern "C" __global__ void dim_bits(const int* map, long long n, unsigned int* bits) {
  long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  bool set = o < n && __ldg(map + o) >= 0;
  unsigned int word = __ballot_sync(0xffffffffu, set);
  if ((threadIdx.x & 31) == 0 && o < n) bits[o >> 5] = word;
}

// dim_bits_bounds finds the first and last non-zero words of a bitmap of
// `words` words: out[0] and out[1] (words and -1 when every word is
// zero). A dimension tested as a fact filter is trimmed to them, so that
// fact keys outside its surviving keys' range fail on a compare, without
// reading the bitmap (SSB Q1.3's week: 7 keys of 61,130). Launch: one
// block of THREADS threads striding over the words; microseconds, once
// per dimension build.
extern "C" __global__ void dim_bits_bounds(const unsigned int* bits, long long words, long long* out) {
  __shared__ long long lo[THREADS], hi[THREADS];
  long long l = words, h = -1;
  for (long long w = threadIdx.x; w < words; w += blockDim.x) {
    if (__ldg(bits + w) != 0) {
      l = min(l, w);
      h = max(h, w);
    }
  }
  lo[threadIdx.x] = l;
  hi[threadIdx.x] = h;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      lo[threadIdx.x] = min(lo[threadIdx.x], lo[threadIdx.x + s]);
      hi[threadIdx.x] = max(hi[threadIdx.x], hi[threadIdx.x + s]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    out[0] = lo[0];
    out[1] = hi[0];
  }
}
