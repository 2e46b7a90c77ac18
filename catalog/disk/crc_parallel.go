package disk

import (
	"hash/crc32"
	"runtime"

	"gpusql/storage/columnar"
)

// checksum is b's CRC32C, taken in parallel over large sections: a cold
// query's first read of a mapped column verifies the column's whole values
// (one pass at some 10-20 GB/s a core), which on a 60-million-row column
// cost a single core 20-30 ms. The pieces' CRCs are combined in GF(2).
func checksum(b []byte) uint32 {
	const piece = 8 << 20
	n := (len(b) + piece - 1) / piece
	if n < 2 || runtime.GOMAXPROCS(0) < 2 {
		return crc32.Checksum(b, castagnoli)
	}
	crcs := make([]uint32, n)
	columnar.ParallelChunks(n, func(k int) {
		crcs[k] = crc32.Checksum(b[k*piece:min((k+1)*piece, len(b))], castagnoli)
	})
	crc := crcs[0]
	for k := 1; k < n; k++ {
		crc = crcCombine(crc, crcs[k], int64(min((k+1)*piece, len(b))-k*piece))
	}
	return crc
}

// castagnoliReflected is the CRC32C polynomial with its bits reversed, as
// the CRC's registers hold it (bit 31 the coefficient of x^0).
const castagnoliReflected = 0x82f63b78

// crcCombine is the CRC32C of A followed by B from crcA, crcB and B's
// length: appending n bytes multiplies A's remainder by x^(8n) modulo the
// polynomial, and the CRC's initial and final inversions cancel in the
// sum with B's.
func crcCombine(crcA, crcB uint32, lenB int64) uint32 {
	return gfMulMod(xPowMod(8*uint64(lenB)), crcA) ^ crcB
}

// gfMulMod is a*b modulo the polynomial, both in the reflected form.
func gfMulMod(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 {
			b = b>>1 ^ castagnoliReflected
		} else {
			b >>= 1
		}
	}
	return p
}

// xPowMod is x^n modulo the polynomial, by squaring.
func xPowMod(n uint64) uint32 {
	p, base := uint32(1)<<31, uint32(1)<<30 // x^0, x^1
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			p = gfMulMod(base, p)
		}
		base = gfMulMod(base, base)
	}
	return p
}
