// Decodes packed columns written by kernels/emulate_test.go (the Go
// packer's words and frames, and the values they must decode to) through
// common.cuh's own ldi and load_i, in every tile shape the star kernels
// use (4, 8, 16 rows a thread; full tiles and the tail; the generic
// kernels' load_i over consecutive rows and the fast kernels' load_packed
// over the lane-interleaved map, narrow columns and wide), and prints a
// MISMATCH line for the first wrong value. The words are allocated to
// exactly the packed length (whole groups), so -fsanitize=address catches
// a read past them.
#include "packed_prelude.h"
#include "common.cuh"
#include <cstdio>
#include <vector>

static bool read_all(FILE* f, void* p, size_t n) { return n == 0 || fread(p, 1, n, f) == n; }

template <int IT>
static int check_tiles(const Col& c, long long n, const std::vector<long long>& want, const char* name) {
  for (long long i0 = 0; i0 < n; i0 += IT) {
    bool alive[IT];
    for (int k = 0; k < IT; k++) alive[k] = i0 + k < n;
    const bool full = i0 + IT <= n;
    long long v[IT];
    load_i<IT>(c, i0, full, alive, v);
    for (int k = 0; k < IT && i0 + k < n; k++) {
      if (v[k] != want[i0 + k]) {
        printf("MISMATCH %s: load_i<%d> row %lld (bits %d): got %lld, want %lld\n", name, IT, i0 + k, c.bits, v[k], want[i0 + k]);
        return 1;
      }
    }
  }
  // The fast kernels' map: a thread's rows i0 + 32k are slots s0..s0+IT-1
  // of one lane of one 1,024-row group; threads with no row left skip.
  for (long long g = 0; g * 1024 < n; g++)
    for (int s0 = 0; s0 < 32; s0 += IT)
      for (int lane = 0; lane < 32; lane++) {
        const long long i0 = g * 1024 + s0 * 32 + lane;
        if (i0 >= n) continue;
        int n32[IT];
        load_packed<IT>(c, i0, n32);
        for (int k = 0; k < IT && i0 + 32 * k < n; k++)
          if (n32[k] != want[i0 + 32 * k]) {
            printf("MISMATCH %s: load_packed<%d> row %lld (bits %d): got %d, want %lld\n", name, IT, i0 + 32 * k, c.bits, n32[k], want[i0 + 32 * k]);
            return 1;
          }
      }
  return 0;
}

int main(int argc, char** argv) {
  int bad = 0;
  for (int a = 1; a < argc; a++) {
    FILE* f = fopen(argv[a], "rb");
    if (!f) { printf("cannot open %s\n", argv[a]); return 2; }
    long long hdr[5];  // rows, bits, shift, words, frames
    if (!read_all(f, hdr, sizeof hdr)) { printf("short header %s\n", argv[a]); return 2; }
    const long long n = hdr[0];
    std::vector<unsigned>* words = new std::vector<unsigned>(hdr[3]);
    std::vector<int> frames(hdr[4] > 0 ? hdr[4] : 1);
    std::vector<long long> want(n);
    if (!read_all(f, words->data(), 4 * hdr[3]) || !read_all(f, frames.data(), 4 * hdr[4]) || !read_all(f, want.data(), 8 * n)) {
      printf("short file %s\n", argv[a]);
      return 2;
    }
    fclose(f);
    Col c{};
    c.data = words->data();
    c.width = 4;
    c.frame = frames.data();
    c.bits = (int)hdr[1];
    c.shift = (int)hdr[2];
    for (long long i = 0; i < n && !bad; i++) {
      if (ldi(c, i) != want[i]) {
        printf("MISMATCH %s: ldi row %lld (bits %d): got %lld, want %lld\n", argv[a], i, c.bits, ldi(c, i), want[i]);
        bad = 1;
      }
    }
    bad |= check_tiles<4>(c, n, want, argv[a]);
    bad |= check_tiles<8>(c, n, want, argv[a]);
    bad |= check_tiles<16>(c, n, want, argv[a]);
    printf("%s: %lld rows, %d bits: %s\n", argv[a], n, c.bits, bad ? "FAIL" : "ok");
    delete words;
    if (bad) return 1;
  }
  return 0;
}
