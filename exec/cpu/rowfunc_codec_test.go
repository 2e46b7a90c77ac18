package cpu

import (
	"hash/crc32"
	"math/rand/v2"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

// TestSoundex: the manual's examples and cases that tell MySQL's original
// algorithm (vowels dropped before duplicates, no length cap) from Knuth's
// (Tymczak is T522 there, T520 here).
func TestSoundex(t *testing.T) {
	for in, want := range map[string]string{
		"Hello": "H400", "Quadratically": "Q36324", "Ashcraft": "A2613", "Pfister": "P236",
		"Tymczak": "T520", "Honeyman": "H500", "Lloyd": "L300", "Robert": "R163", "Rupert": "R163",
		"  9x": "X000", "123": "", "": "", "Ödön": "Ö350", "a-b c": "A120",
	} {
		if got := soundex(in); got != want {
			t.Errorf("soundex(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCRC32: CRC32() is hash/crc32's IEEE checksum, over the bytes.
func TestCRC32(t *testing.T) {
	body := stringBodies["crc32"]
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		b := make([]byte, rng.IntN(40))
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		got := body(nil, []val{{s: string(b)}}).i
		if want := int64(crc32.ChecksumIEEE(b)); got != want {
			t.Fatalf("crc32(%x) = %d, want %d", b, got, want)
		}
	}
	if got := body(nil, []val{{s: "MySQL"}}).i; got != 3259397556 { // the manual's example
		t.Errorf("crc32('MySQL') = %d, want 3259397556", got)
	}
}

// TestIPv6Text: every address written by ipv6Text reads back (through Go's
// parser) as the same 16 bytes, '::' stands for the first longest run of
// zero groups, and addresses with an IPv4 tail are written dotted.
func TestIPv6Text(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		var b [16]byte
		for g := 0; g < 8; g++ {
			if rng.IntN(2) == 0 { // many zero groups, so runs of every length occur
				b[2*g], b[2*g+1] = byte(rng.IntN(256)), byte(rng.IntN(256))
			}
		}
		s := ipv6Text(b[:])
		a, err := netip.ParseAddr(s)
		if err != nil || a.As16() != b {
			t.Fatalf("%x: ipv6Text = %q, reads back as %v (%v)", b, s, a, err)
		}
		if n := strings.Count(s, "::"); n > 1 {
			t.Fatalf("%x: %q has %d '::'", b, s, n)
		}
		if want := longestZeroRun(b); want > 0 != strings.Contains(s, "::") {
			t.Fatalf("%x: %q, longest zero run %d", b, s, want)
		}
		if strings.Contains(s, ".") != (string(b[:10]) == strings.Repeat("\x00", 10) && (b[10] == 0 && b[11] == 0 && (b[12] != 0 || b[13] != 0) ||
			b[10] == 0xff && b[11] == 0xff)) {
			t.Fatalf("%x: %q: dotted tail where MySQL writes none, or none where it writes one", b, s)
		}
	}
	for in, want := range map[string]string{
		"fdfe::5a55:caff:fefa:9089": "fdfe::5a55:caff:fefa:9089", "::10.0.5.9": "::10.0.5.9",
		"::ffff:10.0.5.9": "::ffff:10.0.5.9", "::": "::", "::1": "::1", "1:0:2:3:4:5:6:7": "1::2:3:4:5:6:7",
		"1:0:0:2:0:0:0:3": "1:0:0:2::3", "1:0:0:2:3:0:0:4": "1::2:3:0:0:4", "1::": "1::",
	} {
		b, ok := inet6Aton(in)
		if !ok || len(b) != 16 {
			t.Fatalf("inet6Aton(%q) = %x, %v", in, b, ok)
		}
		if got := ipv6Text(b); got != want {
			t.Errorf("ipv6Text(inet6Aton(%q)) = %q, want %q", in, got, want)
		}
	}
}

// longestZeroRun is the length of the longest run of zero 16-bit groups.
func longestZeroRun(b [16]byte) int {
	best, run := 0, 0
	for g := 0; g < 8; g++ {
		if b[2*g] == 0 && b[2*g+1] == 0 {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// TestInetAton: INET_ATON against a brute-force reading of every short
// form, and the inputs MySQL rejects.
func TestInetAton(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		g := []uint64{uint64(rng.IntN(256)), uint64(rng.IntN(256)), uint64(rng.IntN(256)), uint64(rng.IntN(256))}
		n := 1 + rng.IntN(4)
		parts := make([]string, n)
		for j := range parts {
			parts[j] = strconv.FormatUint(g[j], 10)
		}
		// a.b.c.d; a.b.d is a.b.0.d; a.d is a.0.0.d; d is 0.0.0.d.
		var want uint64
		for j := 0; j < n-1; j++ {
			want |= g[j] << (24 - 8*j)
		}
		want |= g[n-1]
		got, ok := inetAton(strings.Join(parts, "."))
		if !ok || got != want {
			t.Fatalf("inetAton(%q) = %d, %v, want %d", strings.Join(parts, "."), got, ok, want)
		}
	}
	for _, bad := range []string{"", ".", "1.", "1..2.3.4.5", "1.2.3.4.5", "256", "1.2.3.x", " 1", "-1"} {
		if n, ok := inetAton(bad); ok {
			t.Errorf("inetAton(%q) = %d, want invalid", bad, n)
		}
	}
}

// TestCharBytes: CHAR() writes each argument's low 32 bits as its 1 to 4
// big-endian bytes.
func TestCharBytes(t *testing.T) {
	for _, c := range []struct {
		in   []int64
		want string
	}{{[]int64{77, 121}, "My"}, {[]int64{256}, "\x01\x00"}, {[]int64{0x10000}, "\x01\x00\x00"},
		{[]int64{0x1000000}, "\x01\x00\x00\x00"}, {[]int64{-1}, "\xff\xff\xff\xff"}, {[]int64{0}, "\x00"},
		{[]int64{1 << 32}, "\x00"}} {
		a := []val{}
		for _, n := range c.in {
			a = append(a, val{i: n})
		}
		a = append(a, val{s: "binary"})
		if got := charFunc(nil, a); got.null || got.s != c.want {
			t.Errorf("char(%v) = %q, want %q", c.in, got.s, c.want)
		}
	}
}

// TestCompressRoundTrip: UNCOMPRESS(COMPRESS(s)) is s for texts of every
// size and its header holds the length; a frame claiming fewer bytes
// than its stream holds is NULL.
func TestCompressRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 300; i++ {
		b := make([]byte, rng.IntN(3000))
		for j := range b {
			b[j] = byte('a' + rng.IntN(3+i%20))
		}
		c := compress(string(b))
		if got, ok := uncompress(c); !ok || got != string(b) {
			t.Fatalf("round trip of %d bytes: %v", len(b), ok)
		}
		if len(b) > 0 && int(c[0])|int(c[1])<<8|int(c[2])<<16 != len(b) {
			t.Fatalf("length header of %d bytes: %x", len(b), c[:4])
		}
	}
	c := []byte(compress("hello hello hello"))
	c[0] = 3 // says 3 bytes, holds 17
	if _, ok := uncompress(string(c)); ok {
		t.Errorf("a stream longer than its header was read")
	}
}
