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

// check_live decodes a thread's rows of the fast map with some rows dead
// (three patterns, and each row alone): every live row decodes right, and
// a lone live row costs at most its word, the word it straddles into and
// the frame, whatever IT.
template <int IT>
static int check_live(const Col& c, long long i0, long long n, const std::vector<long long>& want, const char* name) {
  for (int pat = 0; pat < 3 + IT; pat++) {
    bool alive[IT];
    for (int k = 0; k < IT; k++) {
      const bool in = i0 + 32 * k < n;
      alive[k] = in && (pat == 0 ? k % 2 == 0 : pat == 1 ? k % 3 == 2 : pat == 2 ? (i0 + k) % 5 != 0 : k == pat - 3);
    }
    int v[IT];
    const long long before = ldg_count;
    load_packed<IT>(c, i0, v, alive);
    const long long loads = ldg_count - before;
    for (int k = 0; k < IT; k++)
      if (alive[k] && v[k] != want[i0 + 32 * k]) {
        printf("MISMATCH %s: load_packed<%d> live row %lld (bits %d, pattern %d): got %d, want %lld\n", name, IT, i0 + 32 * k, c.bits, pat, v[k], want[i0 + 32 * k]);
        return 1;
      }
    if (pat >= 3 && alive[pat - 3] && c.bits > 0 && loads > 3) {
      printf("MISMATCH %s: load_packed<%d> fetched %lld words for one live row (bits %d)\n", name, IT, loads, c.bits);
      return 1;
    }
  }
  return 0;
}

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
        if (check_live<IT>(c, i0, n, want, name)) return 1;
      }
  return 0;
}

// check_narrow reads a narrow column (the Go side's offsets and frames;
// NULL rows read as their frame) through ldi, load_i and the fast
// kernels' load_narrow over consecutive rows (vector loads in full tiles)
// and over the lane-interleaved map, live rows only where some are dead.
template <int IT>
static int check_narrow(const Col& c, long long n, const std::vector<long long>& want, const char* name) {
  for (long long i0 = 0; i0 < n; i0 += IT) {
    bool alive[IT];
    for (int k = 0; k < IT; k++) alive[k] = i0 + k < n && (k % 3 != 1 || i0 % 7 != 0);
    const bool full = i0 + IT <= n && i0 % 7 != 0;
    long long v[IT];
    int w[IT];
    load_i<IT>(c, i0, full, alive, v);
    load_narrow<IT, 1>(c, i0, full, alive, w);
    for (int k = 0; k < IT && i0 + k < n; k++) {
      if (alive[k] && (v[k] != want[i0 + k] || w[k] != want[i0 + k])) {
        printf("MISMATCH %s: narrow %d B <%d> row %lld (full %d): load_i %lld, load_narrow %d, want %lld\n", name, c.width, IT, i0 + k, full, v[k], w[k], want[i0 + k]);
        return 1;
      }
    }
  }
  for (long long g = 0; g * 1024 < n; g++)
    for (int s0 = 0; s0 < 32; s0 += IT)
      for (int lane = 0; lane < 32; lane++) {
        const long long i0 = g * 1024 + s0 * 32 + lane;
        bool alive[IT];
        for (int k = 0; k < IT; k++) alive[k] = i0 + 32 * k < n;
        if (i0 >= n) continue;
        int w[IT];
        load_narrow<IT, 32>(c, i0, false, alive, w);
        for (int k = 0; k < IT && i0 + 32 * k < n; k++)
          if (w[k] != want[i0 + 32 * k]) {
            printf("MISMATCH %s: narrow %d B load_narrow<%d, 32> row %lld: got %d, want %lld\n", name, c.width, IT, i0 + 32 * k, w[k], want[i0 + 32 * k]);
            return 1;
          }
      }
  return 0;
}

// narrow_case reads the narrow section after a case's packed one and
// checks it (cases whose values need more than 16 bits have none).
static int narrow_case(FILE* f, long long n, const std::vector<long long>& want, const char* name) {
  long long hdr[4];  // width, shift, frames, offset bytes
  if (!read_all(f, hdr, sizeof hdr)) { printf("short narrow header %s\n", name); return 2; }
  if (hdr[0] == 0) return 0;
  std::vector<int> frames(hdr[2] > 0 ? hdr[2] : 1);
  std::vector<unsigned char>* bytes = new std::vector<unsigned char>(hdr[3]);
  if (!read_all(f, frames.data(), 4 * hdr[2]) || !read_all(f, bytes->data(), hdr[3])) { printf("short narrow %s\n", name); return 2; }
  Col c{};
  c.data = bytes->data();
  c.width = (int)hdr[0];
  c.frame = frames.data();
  c.bits = 8 * c.width;
  c.shift = (int)hdr[1];
  int bad = 0;
  for (long long i = 0; i < n && !bad; i++)
    if (ldi(c, i) != want[i]) {
      printf("MISMATCH %s: narrow %d B ldi row %lld: got %lld, want %lld\n", name, c.width, i, ldi(c, i), want[i]);
      bad = 1;
    }
  if (!bad) bad = check_narrow<4>(c, n, want, name) | check_narrow<8>(c, n, want, name) | check_narrow<16>(c, n, want, name);
  printf("%s: narrow %d B a row: %s\n", name, c.width, bad ? "FAIL" : "ok");
  delete bytes;
  return bad;
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
    if (!bad) bad = narrow_case(f, n, want, argv[a]);
    fclose(f);
    if (bad) return 1;
  }
  return 0;
}
