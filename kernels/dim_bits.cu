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
