// The host side of exec/gpu/hash_join_passes.go over
// kernels/join_partition.cu run in CPU emulation (warp_emulation.h): two
// inputs of one or two 8-byte keys with NULLs, duplicates (one key on every
// row; few keys; mostly distinct), sizes around the warp and block, 2, 16
// and 4096 partitions. Checked from first principles, not against the
// kernel's own hash: the histogram counts every non-NULL row once; the
// scatter puts each non-NULL row once, with its keys, inside its
// partition's range; equal keys of both inputs land in the same partition;
// compacting one partition gives that range's rows; the map turns local
// positions into row numbers; distinct keys spread over the partitions.
// Then the whole partitioned join as exec/gpu/hash_join_passes.go runs it
// (scatter both sides; per partition hash_join.cu's join_build and
// join_probe over the partition's keys, rerun at the counted size when the
// pair output overflows; join_part_map to row numbers; the passes' pairs
// appended) must give exactly the pairs of a nested loop (NULL keys never
// matching). Exit status 1 on any mismatch. Built and run by
// kernels/emulate_test.go.
#include "jp.cpp"
#include "hj.cpp"
#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
std::barrier<>* g_bar;
std::barrier<>* g_warp_bar[32];
unsigned long long g_warp_slot[32][32];
int g_block_flag[1024];

template <class... A>
void launch(void (*k)(A...), int grid, int block, A... a) {
  gridDim.x = grid;
  blockDim.x = block;
  std::barrier<> bar(block);
  g_bar = &bar;
  std::vector<std::barrier<>*> warps;
  for (int w = 0; w < block / 32; w++) warps.push_back(g_warp_bar[w] = new std::barrier<>(32));
  std::vector<std::thread> ts;
  for (int t = 0; t < block; t++)
    ts.emplace_back([&, t] {
      threadIdx.x = t;
      for (int b = 0; b < grid; b++) {
        blockIdx.x = b;
        k(a...);
        bar.arrive_and_wait();
      }
    });
  for (auto& t : ts) t.join();
  for (auto* w : warps) delete w;
}

static int fails = 0;
#define CHECK(c, ...)                       \
  if (!(c)) {                               \
    fails++;                                \
    printf("MISMATCH " __VA_ARGS__);        \
    printf("\n");                           \
    if (fails > 20) exit(1);                \
  }

struct Side {
  int n, nk;
  std::vector<std::vector<long long>> keys;
  std::vector<unsigned long long> valid;
  std::vector<unsigned> counts;
  std::vector<long long> offs;
  std::vector<std::vector<long long>> sk;
  std::vector<int> rows;
  PartParams params(int shift, int nparts) {
    PartParams p{};
    p.n = n, p.nkeys = nk, p.shift = shift, p.only = -1, p.nparts = nparts;
    for (int k = 0; k < nk; k++) p.keys[k] = Col{keys[k].data(), k == 0 ? valid.data() : nullptr, 8, 0};
    return p;
  }
  bool isNull(int i) const { return !((valid[i >> 6] >> (i & 63)) & 1); }
  std::vector<long long> tuple(int i) const {
    std::vector<long long> t;
    for (int k = 0; k < nk; k++) t.push_back(keys[k][i]);
    return t;
  }
};

Side make(std::mt19937_64& rng, int n, int nk, int distinct) {
  Side s{n, nk};
  s.keys.assign(nk, std::vector<long long>(n));
  s.valid.assign((n + 63) / 64 + 1, 0);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < nk; k++) s.keys[k][i] = (long long)(rng() % distinct) * 1000000007LL - 5 * k;
    if (rng() % 13) s.valid[i >> 6] |= 1ULL << (i & 63);
  }
  return s;
}

void partition(Side& s, int bits) {
  int np = 1 << bits;
  s.counts.assign(np, 0);
  PartParams p = s.params(64 - bits, np);
  p.counts = s.counts.data();
  launch(join_part_hist, 3, 64, p);
  s.offs.assign(np, 0);
  long long at = 0;
  std::vector<unsigned> cur(np);
  for (int i = 0; i < np; i++) s.offs[i] = at, cur[i] = (unsigned)at, at += s.counts[i];
  s.sk.assign(s.nk, std::vector<long long>(at + 1, -7));
  s.rows.assign(at + 1, -7);
  p.counts = cur.data();
  for (int k = 0; k < s.nk; k++) p.outKeys[k] = s.sk[k].data();
  p.outRows = s.rows.data();
  launch(join_part_scatter, 2, 64, p);
  for (int i = 0; i < np; i++) CHECK(cur[i] == s.offs[i] + s.counts[i], "cursor %d ends at %u, want %lld", i, cur[i], s.offs[i] + s.counts[i]);
}

int main() {
  std::mt19937_64 rng(7);
  for (int nk = 1; nk <= 2; nk++)
    for (int n : {0, 31, 257, 5003})
      for (int distinct : {1, 7, 1000000})
        for (int bits : {1, 4, 12}) {
          if (nk == 2 && n != 5003) continue;
          Side a = make(rng, n, nk, distinct), b = make(rng, n / 2 + 3, nk, distinct);
          partition(a, bits);
          partition(b, bits);
          int np = 1 << bits;
          std::map<std::vector<long long>, int> partOf;  // key tuple -> partition, over both sides
          for (Side* s : {&a, &b}) {
            long long nonNull = 0;
            for (int i = 0; i < s->n; i++) nonNull += !s->isNull(i);
            CHECK(s->offs[np - 1] + s->counts[np - 1] == nonNull, "n=%d: %lld partitioned rows, want %lld", s->n, s->offs[np - 1] + s->counts[np - 1], nonNull);
            std::vector<int> seen(s->n, 0);
            for (int p = 0; p < np; p++)
              for (long long j = s->offs[p]; j < s->offs[p] + s->counts[p]; j++) {
                int r = s->rows[j];
                CHECK(r >= 0 && r < s->n && !s->isNull(r), "n=%d part %d: row %d", s->n, p, r);
                if (r < 0 || r >= s->n) continue;
                seen[r]++;
                for (int k = 0; k < s->nk; k++) CHECK(s->sk[k][j] == s->keys[k][r], "key %d of row %d", k, r);
                auto [it, fresh] = partOf.emplace(s->tuple(r), p);
                CHECK(it->second == p, "n=%d nk=%d: equal keys in partitions %d and %d", s->n, nk, it->second, p);
              }
            for (int i = 0; i < s->n; i++) CHECK(seen[i] == (s->isNull(i) ? 0 : 1), "row %d scattered %d times", i, seen[i]);
            // compacting one partition gives its range's rows
            int only = np / 2;
            unsigned cur = 0;
            std::vector<std::vector<long long>> ok(s->nk, std::vector<long long>(s->counts[only] + 1));
            std::vector<int> orows(s->counts[only] + 1, -7);
            PartParams p = s->params(64 - bits, np);
            p.only = only, p.counts = &cur, p.outRows = orows.data();
            for (int k = 0; k < s->nk; k++) p.outKeys[k] = ok[k].data();
            launch(join_part_scatter, 2, 64, p);
            std::multiset<int> want(s->rows.begin() + s->offs[only], s->rows.begin() + s->offs[only] + s->counts[only]);
            std::multiset<int> got(orows.begin(), orows.begin() + cur);
            CHECK(cur == s->counts[only] && got == want, "n=%d only %d: %u rows, want %u", s->n, only, cur, s->counts[only]);
          }
          if (distinct == 1000000 && n == 5003 && bits == 4) {
            unsigned most = *std::max_element(a.counts.begin(), a.counts.end());
            unsigned least = *std::min_element(a.counts.begin(), a.counts.end());
            CHECK(least > 0 && most < 2 * (n / np), "spread over 16 partitions: %u .. %u rows", least, most);
          }
        }
  // the whole partitioned join
  for (int nk = 1; nk <= 2; nk++)
    for (auto [nb, np] : std::vector<std::pair<int, int>>{{0, 50}, {50, 0}, {1, 1}, {37, 1000}, {701, 1203}})
      for (int distinct : {1, 5, 100000})
        for (int bits : {1, 3}) {
          if (nk == 2 && (distinct != 5 || bits != 3)) continue;
          if (distinct == 1 && nb > 100) continue;  // one key: every pair, one a round per probe row
          Side b = make(rng, nb, nk, distinct), a = make(rng, np, nk, distinct);
          partition(b, bits);
          partition(a, bits);
          std::vector<std::pair<int, int>> got, want;
          for (int p = 0; p < (1 << bits); p++) {
            long long cb = b.counts[p], cp = a.counts[p];
            if (cb == 0 || cp == 0) continue;
            JoinParams jp{};
            jp.nProbe = cp, jp.nBuild = cb, jp.nkeys = nk;
            for (int k = 0; k < nk; k++) {
              jp.probe[k] = Col{a.sk[k].data() + a.offs[p], nullptr, 8, 0};
              jp.build[k] = Col{b.sk[k].data() + b.offs[p], nullptr, 8, 0};
            }
            long long size = 16;
            while (size < 2 * cb) size *= 2;
            std::vector<int> slots(size, -1);
            jp.slots = slots.data(), jp.mask = size - 1;
            launch(join_build, 1, 32, jp);
            unsigned long long total = 0;
            long long cap = 64;
            std::vector<int> lp, lb;
            for (;;) {
              lp.assign(cap, -7), lb.assign(cap, -7);
              total = 0;
              jp.total = &total, jp.cap = cap, jp.outProbe = lp.data(), jp.outBuild = lb.data();
              launch(join_probe, 2, 32, jp);
              if ((long long)total <= cap) break;
              cap = total;
            }
            std::vector<int> gp(total), gb(total);
            launch(join_part_map, 1, 32, (const int*)lp.data(), (long long)total, (const int*)(a.rows.data() + a.offs[p]), gp.data());
            launch(join_part_map, 1, 32, (const int*)lb.data(), (long long)total, (const int*)(b.rows.data() + b.offs[p]), gb.data());
            for (unsigned long long i = 0; i < total; i++) got.push_back({gp[i], gb[i]});
          }
          for (int i = 0; i < a.n; i++)
            for (int j = 0; j < b.n; j++)
              if (!a.isNull(i) && !b.isNull(j) && a.tuple(i) == b.tuple(j)) want.push_back({i, j});
          std::sort(got.begin(), got.end());
          std::sort(want.begin(), want.end());
          CHECK(got == want, "join nk=%d %dx%d distinct=%d P=%d: %zu pairs, want %zu", nk, np, nb, distinct, 1 << bits, got.size(), want.size());
        }
  // join_part_map
  std::vector<int> local = {3, 0, 2, 2}, rows = {10, 11, 12, 13}, out(4, -7);
  launch(join_part_map, 1, 32, (const int*)local.data(), 4LL, (const int*)rows.data(), out.data());
  CHECK((out == std::vector<int>{13, 10, 12, 12}), "join_part_map");
  printf("join_partition: %s\n", fails ? "FAIL" : "ok");
  return fails ? 1 : 0;
}
