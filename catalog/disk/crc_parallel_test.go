package disk

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// crcCombine of two pieces' CRCs is the CRC of the whole, at every split
// of random data (the empty pieces included), and checksum equals
// crc32.Checksum on sections large enough to be taken in parallel, of
// sizes not a multiple of the piece count.
func TestChecksumCombines(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 3000)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for _, n := range []int{0, 1, 7, 64, 1000, 3000} {
		whole := crc32.Checksum(b[:n], castagnoli)
		for split := 0; split <= n; split += 1 + split/3 {
			a, c := crc32.Checksum(b[:split], castagnoli), crc32.Checksum(b[split:n], castagnoli)
			if got := crcCombine(a, c, int64(n-split)); got != whole {
				t.Fatalf("%d bytes split at %d: combined %08x, whole %08x", n, split, got, whole)
			}
		}
	}
	big := make([]byte, 64<<20+12345)
	for i := 0; i < len(big); i += 4096 {
		big[i] = byte(r.Uint32())
	}
	if got, want := checksum(big), crc32.Checksum(big, castagnoli); got != want {
		t.Fatalf("parallel checksum %08x, sequential %08x", got, want)
	}
}

func BenchmarkChecksum(b *testing.B) {
	buf := make([]byte, 240<<20)
	b.SetBytes(int64(len(buf)))
	b.Run("sequential", func(b *testing.B) {
		for b.Loop() {
			crc32.Checksum(buf, castagnoli)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		for b.Loop() {
			checksum(buf)
		}
	})
}
