//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// The join stage of SortMergeJoin by merge path (kernels/merge_path_join.cu):
// once both sides are sorted on their keys, two merges of the sorted keys
// give every left row the first and one-past-last of its equal right rows
// (lo, hi), the run lengths are scanned on the device into output offsets,
// and a third merge, of the output positions against those offsets, writes
// the (left row, right row) pairs. Every stage gives each block the same
// number of elements (mpNV) whatever the keys' skew, so one key repeated
// millions of times on both sides spreads over as many blocks as its output
// needs; only the output size comes back to the host, to size the pairs.

// Tile shapes of kernels/merge_path_join.cu.
const (
	mpThreads     = 128
	mpNV          = mpThreads * 8 // MP_NV: elements merged per block
	mpScanThreads = 256
	mpScanTile    = mpScanThreads * 8 // MP_SCAN_TILE
)

// mergePathParams mirrors MergePathParams in kernels/merge_path_join.cu.
type mergePathParams struct {
	AK, BK              [maxJoinKeys]uint64
	NA, NB              int64
	NKeys, Upper, First int32
	Pad                 int32
	Corank, Lo, Counts  uint64
}

// scanParams mirrors ScanParams in kernels/merge_path_join.cu.
type scanParams struct {
	A    uint64
	N    int64
	Sums uint64
}

// expandParams mirrors ExpandParams in kernels/merge_path_join.cu.
type expandParams struct {
	M, NA                     int64
	Offsets, Lo, LPerm, RPerm uint64
	Corank, OutL, OutR        uint64
}

// mergePathPairs writes every (left row, right row) pair of equal keys of
// the sorted sides (the first right row only, when first is set) as
// original row ids.
func (r *queryRun) mergePathPairs(ls, rs *sortedSide, nk int, first bool) (pairs, error) {
	if ls.n == 0 || rs.n == 0 {
		return r.noPairs()
	}
	tiles := (ls.n + rs.n + mpNV - 1) / mpNV
	var corank, lo, counts cu.DevicePtr
	for _, b := range []struct {
		p  *cu.DevicePtr
		sz int64
	}{{&corank, 8 * (tiles + 1)}, {&lo, 4 * ls.n}, {&counts, 8 * ls.n}} {
		var err error
		if *b.p, err = r.s.alloc(b.sz); err != nil {
			return pairs{}, err
		}
	}
	mp := mergePathParams{AK: ls.keys, BK: rs.keys, NA: ls.n, NB: rs.n, NKeys: int32(nk), First: b2i(first),
		Corank: uint64(corank), Lo: uint64(lo), Counts: uint64(counts)}
	part, err := r.d.fn("mpj_partition")
	if err != nil {
		return pairs{}, err
	}
	search, err := r.d.fn("mpj_search")
	if err != nil {
		return pairs{}, err
	}
	keyBytes := int64(8 * nk)
	for _, upper := range []int32{0, 1} {
		mp.Upper = upper
		if err := launch(part, r.d.grid(tiles+1), 256, 0, unsafe.Pointer(&mp), unsafe.Sizeof(mp)); err != nil {
			return pairs{}, err
		}
		noteKernel(2*keyBytes*(tiles+1)*searchSteps(min(ls.n, rs.n)), 8*(tiles+1), tiles+1, tiles+1)
		if err := launch(search, int(tiles), mpThreads, nk*mpNV*8, unsafe.Pointer(&mp), unsafe.Sizeof(mp)); err != nil {
			return pairs{}, err
		}
		// Both sides' keys; the upper pass reads lo and writes counts.
		read, written := keyBytes*(ls.n+rs.n)+16*tiles, 4*ls.n
		if upper == 1 {
			read, written = read+4*ls.n, 8*ls.n
		}
		noteKernel(read, written, ls.n+rs.n, ls.n)
	}
	m, err := r.scanDevice(counts, ls.n)
	if err != nil {
		return pairs{}, err
	}
	if m >= 1<<31 {
		return pairs{}, fmt.Errorf("gpu: a join of %d rows is not supported on the GPU yet", m)
	}
	if m == 0 {
		return r.noPairs()
	}
	return r.expandPairs(m, ls, rs, counts, lo)
}

// expandPairs writes the m pairs: output k belongs to the left row whose
// offset range holds k (a merge of 0..m-1 against the offsets), and is
// that row's (k - offset)-th right partner.
func (r *queryRun) expandPairs(m int64, ls, rs *sortedSide, offsets, lo cu.DevicePtr) (pairs, error) {
	tiles := (m + ls.n + mpNV - 1) / mpNV
	bufs := make([]cu.DevicePtr, 3)
	for i, sz := range []int64{8 * (tiles + 1), 4 * max(m, 2), 4 * max(m, 2)} {
		var err error
		if bufs[i], err = r.s.alloc(sz); err != nil {
			return pairs{}, err
		}
	}
	ep := expandParams{M: m, NA: ls.n, Offsets: uint64(offsets), Lo: uint64(lo), LPerm: uint64(ls.perm),
		RPerm: uint64(rs.perm), Corank: uint64(bufs[0]), OutL: uint64(bufs[1]), OutR: uint64(bufs[2])}
	f, err := r.d.fn("mpj_expand_partition")
	if err != nil {
		return pairs{}, err
	}
	if err := launch(f, r.d.grid(tiles+1), 256, 0, unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
		return pairs{}, err
	}
	noteKernel(8*(tiles+1)*searchSteps(min(m, ls.n)), 8*(tiles+1), tiles+1, tiles+1)
	if f, err = r.d.fn("mpj_expand"); err != nil {
		return pairs{}, err
	}
	if err := launch(f, int(tiles), mpThreads, 0, unsafe.Pointer(&ep), unsafe.Sizeof(ep)); err != nil {
		return pairs{}, err
	}
	// Per left row its offset, lo and left row id (at most); per pair one
	// right row id gathered and two row ids written.
	noteKernel(16*ls.n+8*tiles+4*m, 8*m, ls.n, m)
	return pairs{left: bufs[1], right: bufs[2], m: m}, nil
}

// scanDevice replaces a[0..n) (int64) by its exclusive prefix sums on the
// device (scanOnDevice) and returns the total, the only value read back.
func (r *queryRun) scanDevice(a cu.DevicePtr, n int64) (int64, error) {
	total, err := r.scanOnDevice(a, n)
	if err != nil {
		return 0, err
	}
	var m int64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&m), total, 8); err != nil {
		return 0, fmt.Errorf("gpu: merge join failed: %v", err)
	}
	return m, nil
}

// scanOnDevice replaces a[0..n) (int64) by its exclusive prefix sums (tile
// sums, one block scanning them, each tile rescanned from its base) and
// returns where on the device the total lies; nothing is read back.
func (r *queryRun) scanOnDevice(a cu.DevicePtr, n int64) (cu.DevicePtr, error) {
	sums, err := r.s.alloc(8 * max(scanTiles(n), 1))
	if err != nil {
		return 0, err
	}
	total, err := r.s.alloc(8)
	if err != nil {
		return 0, err
	}
	return total, r.scanWith(a, n, sums, total)
}

// scanTiles is how many tile sums scanning n values takes.
func scanTiles(n int64) int64 { return (n + mpScanTile - 1) / mpScanTile }

// scanWith is scanOnDevice in buffers the caller holds: sums (scanTiles(n)
// words) and total (one word), so that a loop of scans allocates nothing.
func (r *queryRun) scanWith(a cu.DevicePtr, n int64, sums, total cu.DevicePtr) error {
	tiles := scanTiles(n)
	sp := scanParams{A: uint64(a), N: n, Sums: uint64(sums)}
	f, err := r.d.fn("mpj_scan_tiles")
	if err != nil {
		return err
	}
	if err := launch(f, int(tiles), mpScanThreads, 0, unsafe.Pointer(&sp), unsafe.Sizeof(sp)); err != nil {
		return err
	}
	noteKernel(8*n, 8*tiles, n, tiles)
	if err := r.scanInPlace(sums, tiles, total); err != nil {
		return err
	}
	if f, err = r.d.fn("mpj_scan_apply"); err != nil {
		return err
	}
	if err := launch(f, int(tiles), mpScanThreads, 0, unsafe.Pointer(&sp), unsafe.Sizeof(sp)); err != nil {
		return err
	}
	noteKernel(8*n+8*tiles, 8*n, n, n)
	return nil
}

// noPairs is an empty pair list (one word allocated, so that the pointers
// are valid).
func (r *queryRun) noPairs() (pairs, error) {
	p, err := r.s.alloc(8)
	return pairs{left: p, right: p}, err
}

// searchSteps is the number of probes of a binary search over n values.
func searchSteps(n int64) int64 {
	s := int64(1)
	for ; n > 1; n >>= 1 {
		s++
	}
	return s
}
