// radix_sort: one stable pass of an LSD radix sort of (key, row id) pairs on
// an 8-bit digit, the engine of Sort, TopN, SortMergeJoin and the sort-based
// set operations (exec/gpu/radix_sort.go drives it; kernels/sort.cu encodes
// the keys). Reduce-then-scan after Merrill and Grimshaw ("High Performance
// and Scalable Radix Sorting", 2011), with CUB's match-based block ranking
// (BlockRadixRankMatch): per pass one histogram kernel, a device-wide scan
// of the digit counts (merge_path_join.cu's scan kernels, no host round
// trip), and one scatter kernel.
//
// Keys are sorted relative to their minimum, key - sub, where sub is the
// minimum the encoder found (so a column whose values span 2^k needs
// ceil(k / 8) passes whatever their magnitude), and as 32-bit words when
// the span fits: the first pass reads the encoder's 8-byte keys and writes
// 4-byte ones (KI = u64, KO = u32), later passes read and write 4 bytes.
// The last pass writes no keys (keysOut null) unless the caller wants the
// sorted keys back, then as 8-byte (key - sub + add), add restoring the
// encoded keys (the minimum, or the high bits every key shares, that the
// 32-bit words dropped).
//
//   radix_upsweep{32,64}   per tile of RS_TILE rows, the 256-bin histogram
//                          of the digit in shared memory (lanes of a warp
//                          with equal digits add once: match_digit),
//                          written digit-major, counts[digit * tiles +
//                          tile], so that one exclusive scan of counts
//                          gives every (digit, tile) its output base.
//                          Reads KI per row; writes 8 B per 16 rows.
//   radix_downsweep_I_O    per tile: each warp ranks its 32 * RS_ITEMS
//                          consecutive rows (row order = warp, item,
//                          lane) item by item with match_digit and
//                          per-warp digit counters in shared memory; a
//                          block scan over (digit, warp) turns the
//                          counters into tile offsets, so a key's place
//                          in the tile is stable. Keys then row ids are
//                          staged in shared memory in digit order and
//                          written out from there, each thread taking
//                          consecutive slots: a tile's ~16 keys of one
//                          digit land as one contiguous run, not 16
//                          scattered words. Reads KI + 4 B (row id),
//                          writes KO (when keysOut) + 4 B per row.
//
// Launch: RS_THREADS (256) threads per block, one block per tile, tiles =
// ceil(n / RS_TILE). Static shared memory: 47 KB for 8-byte staged keys,
// 31 KB for 4-byte ones. Each thread issues its RS_ITEMS loads before
// ranking; registers are capped so that two blocks (three for the 32-bit
// middle passes) share an SM without spilling (ptxas -v, sm_90).
//
// Bound (HBM, 2.9 TB/s on an H100): a middle pass over 4-byte keys moves
// 4 (upsweep) + 8 (downsweep reads) + 8 (writes) + ~2.5 (digit counts:
// 256 * 8 B per 4096-row tile, written, scanned, read) = 22.5 B per row;
// the last pass, writing no keys, 18.5 B; the first reads 8-byte keys,
// 26.5 B (its row ids are implicit: row i's id is i). Uniform 32-bit keys
// (4 passes) plus the encoder (8 B read, 8 B written) are 106 B per row
// (exec/gpu radixPlan.bytesPerRow): 64 M keys in 2.3 ms, ~27 G keys/s at
// the limit. Scattered writes fill partial sectors at a tile's run edges
// (a run averages 16 keys = 64 B, two sectors), so expect ~70-80 % of it.
#include "common.cuh"

#define RS_THREADS 256
#define RS_WARPS (RS_THREADS / 32)
#define RS_ITEMS 16
#define RS_TILE (RS_THREADS * RS_ITEMS)
#define RS_RADIX 256

struct RadixSortParams {
  const void* keysIn;    // KI per row
  const int* valsIn;     // row ids, or null: row i's id is i (the first pass of a sort)
  void* keysOut;         // KO per row, or null: keys not written
  int* valsOut;
  long long n;
  long long tiles;
  long long* counts;     // RS_RADIX * tiles, digit-major; scanned before the downsweep
  unsigned long long sub;  // subtracted from every key read (the minimum), first pass
  unsigned long long add;  // added to every key written (8-byte keys out)
  int shift;
  int pad;
};

template <class KI>
__device__ __forceinline__ unsigned digit_of(const RadixSortParams& p, KI k) {
  return (unsigned)((((unsigned long long)k - p.sub) >> p.shift) & (RS_RADIX - 1));
}

// match_digit: the lanes of the warp whose digit equals this lane's (its
// own bit only when !ok), by eight ballots, one per digit bit, as CUB's
// MatchAny (behind BlockRadixRankMatch) does instead of __match_any_sync:
// ballots issue at full rate. Every lane calls it. (The first H100 run,
// with __match_any_sync, sorted 64 M keys at 40 % of the modelled HBM
// traffic.)
__device__ __forceinline__ unsigned match_digit(int d, bool ok, int lane) {
  unsigned peers = __ballot_sync(0xffffffffu, ok);
  for (int b = 0; b < 8; b++) {
    bool bit = (d >> b) & 1;
    unsigned vote = __ballot_sync(0xffffffffu, bit);
    peers &= bit ? vote : ~vote;
  }
  return ok ? peers : 1u << lane;
}

template <class KI>
__device__ __forceinline__ void upsweep(const RadixSortParams& p) {
  __shared__ int h[RS_RADIX];
  int t = threadIdx.x, lane = t & 31;
  h[t] = 0;
  __syncthreads();
  const KI* keys = (const KI*)p.keysIn;
  long long base = (long long)blockIdx.x * RS_TILE;
  KI k[RS_ITEMS];  // every load issued before the first match: RS_ITEMS in flight
  for (int j = 0; j < RS_ITEMS; j++) {
    long long i = base + (long long)j * RS_THREADS + t;
    k[j] = i < p.n ? __ldg(keys + i) : (KI)0;
  }
  for (int j = 0; j < RS_ITEMS; j++) {
    bool ok = base + (long long)j * RS_THREADS + t < p.n;
    int d = ok ? (int)digit_of<KI>(p, k[j]) : 0;
    unsigned peers = match_digit(d, ok, lane);
    if (ok && lane == __ffs(peers) - 1) atomicAdd(&h[d], __popc(peers));
  }
  __syncthreads();
  p.counts[(long long)t * p.tiles + blockIdx.x] = h[t];
}

extern "C" __global__ void radix_upsweep32(RadixSortParams p) { upsweep<unsigned>(p); }
extern "C" __global__ void radix_upsweep64(RadixSortParams p) { upsweep<unsigned long long>(p); }

// block_exclusive_scan256: the exclusive prefix sum of v over the block's
// RS_THREADS threads (Hillis-Steele in shared memory).
__device__ __forceinline__ int block_exclusive_scan256(int v, int* tmp) {
  int t = threadIdx.x;
  tmp[t] = v;
  __syncthreads();
  for (int off = 1; off < RS_THREADS; off <<= 1) {
    int u = t >= off ? tmp[t - off] : 0;
    __syncthreads();
    tmp[t] += u;
    __syncthreads();
  }
  int incl = tmp[t];
  __syncthreads();
  return incl - v;
}

template <class KI, class KO>
__device__ __forceinline__ void downsweep(const RadixSortParams& p) {
  __shared__ int cnt[RS_WARPS][RS_RADIX];  // per-warp digit counts, then tile offsets
  __shared__ long long gbase[RS_RADIX];    // output index of tile slot 0 for each digit
  __shared__ int tmp[RS_THREADS];
  __shared__ unsigned char slotDigit[RS_TILE];
  __shared__ KO stage[RS_TILE];            // keys, then (as ints) row ids, in digit order
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  for (int w = 0; w < RS_WARPS; w++) cnt[w][t] = 0;
  __syncthreads();
  const KI* keys = (const KI*)p.keysIn;
  long long tile = (long long)blockIdx.x * RS_TILE;
  long long seg = tile + (long long)warp * 32 * RS_ITEMS;
  long long tileN = min((long long)RS_TILE, p.n - tile);
  unsigned lt = (1u << lane) - 1;
  KI k[RS_ITEMS];
  int rank[RS_ITEMS];
  for (int j = 0; j < RS_ITEMS; j++) {  // every load issued before the first match
    long long i = seg + j * 32 + lane;
    k[j] = i < p.n ? __ldg(keys + i) : (KI)0;
  }
  for (int j = 0; j < RS_ITEMS; j++) {
    bool ok = seg + j * 32 + lane < p.n;
    int d = ok ? (int)digit_of<KI>(p, k[j]) : 0;
    unsigned peers = match_digit(d, ok, lane);
    int leader = __ffs(peers) - 1;
    int before = ok && lane == leader ? cnt[warp][d] : 0;
    before = __shfl_sync(0xffffffffu, before, leader);
    if (ok && lane == leader) cnt[warp][d] = before + __popc(peers);
    rank[j] = before + __popc(peers & lt);
    __syncwarp();
  }
  __syncthreads();
  // Thread t owns digit t: its warps' counts become offsets within the
  // digit's run, then the run's start in the tile is added.
  int run = 0;
  for (int w = 0; w < RS_WARPS; w++) {
    int c = cnt[w][t];
    cnt[w][t] = run;
    run += c;
  }
  int start = block_exclusive_scan256(run, tmp);
  for (int w = 0; w < RS_WARPS; w++) cnt[w][t] += start;
  gbase[t] = p.counts[(long long)t * p.tiles + blockIdx.x] - start;
  __syncthreads();
  int* slot = rank;  // a row's rank in its warp and digit becomes its tile slot
  for (int j = 0; j < RS_ITEMS; j++) {
    if (seg + j * 32 + lane < p.n) {
      unsigned d = digit_of<KI>(p, k[j]);
      slot[j] = cnt[warp][d] + rank[j];
      stage[slot[j]] = (KO)((unsigned long long)k[j] - p.sub + p.add);
      slotDigit[slot[j]] = (unsigned char)d;
    }
  }
  __syncthreads();
  if (p.keysOut) {
    KO* out = (KO*)p.keysOut;
    for (int x = t; x < tileN; x += RS_THREADS) out[gbase[slotDigit[x]] + x] = stage[x];
  }
  __syncthreads();
  int* vstage = (int*)stage;
  int v[RS_ITEMS];
  for (int j = 0; j < RS_ITEMS; j++) {
    long long i = seg + j * 32 + lane;
    v[j] = i >= p.n ? 0 : p.valsIn ? __ldg(p.valsIn + i) : (int)i;  // no valsIn: the identity
  }
  for (int j = 0; j < RS_ITEMS; j++)
    if (seg + j * 32 + lane < p.n) vstage[slot[j]] = v[j];
  __syncthreads();
  for (int x = t; x < tileN; x += RS_THREADS) p.valsOut[gbase[slotDigit[x]] + x] = vstage[x];
}

extern "C" __global__ void __launch_bounds__(RS_THREADS, 2) radix_downsweep_64_64(RadixSortParams p) { downsweep<unsigned long long, unsigned long long>(p); }
extern "C" __global__ void __launch_bounds__(RS_THREADS, 2) radix_downsweep_64_32(RadixSortParams p) { downsweep<unsigned long long, unsigned>(p); }
extern "C" __global__ void __launch_bounds__(RS_THREADS, 3) radix_downsweep_32_32(RadixSortParams p) { downsweep<unsigned, unsigned>(p); }
extern "C" __global__ void __launch_bounds__(RS_THREADS, 2) radix_downsweep_32_64(RadixSortParams p) { downsweep<unsigned, unsigned long long>(p); }

// radix_sort_param_size: sizeof(RadixSortParams), for exec/gpu's layout test.
extern "C" __global__ void radix_sort_param_size(long long* out) { *out = sizeof(RadixSortParams); }
