package kernels

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gpusql/storage/columnar"
)

// TestPackedDecodeEmulated compiles common.cuh itself with g++ (host
// stand-ins for the few CUDA intrinsics it uses, testdata/emulate/
// packed_prelude.h) and decodes columns packed by storage/columnar's
// packer through its ldi and tile loads (load_i with 4, 8 and 16 rows a
// thread, full tiles and the tail), under AddressSanitizer so a read past
// the packed words fails too. The cuda tests in exec/gpu run the
// same code on a GPU.
func TestPackedDecodeEmulated(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++: the emulated decode test needs a C++ compiler")
	}
	src, err := os.ReadFile("common.cuh")
	if os.IsNotExist(err) {
		t.Skip("kernel source not here (a gpu-bundle runs the kernels themselves)")
	} else if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{"common.cuh": src}
	for _, name := range []string{"packed_prelude.h", "packed_main.cpp"} {
		if files[name], err = os.ReadFile(filepath.Join("testdata", "emulate", name)); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "decode")
	args := []string{"-std=c++17", "-O1", "-g", "-fsanitize=address", "-I", dir, "-o", bin, filepath.Join(dir, "packed_main.cpp")}
	if out, err := exec.Command(gxx, args...).CombinedOutput(); err != nil {
		t.Fatalf("compile: %v\n%s", err, out)
	}
	var cases []string
	for i, c := range decodeCases() {
		path := filepath.Join(dir, fmt.Sprintf("case%02d_%s.bin", i, c.name))
		if err := writePackedCase(path, c.col); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cases = append(cases, path)
	}
	out, err := exec.Command(bin, cases...).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("emulated decode: %v (a MISMATCH line above names the case)", err)
	}
}

type decodeCase struct {
	name string
	col  *columnar.Column
}

func decodeCases() []decodeCase {
	r := rand.New(rand.NewPCG(11, 12))
	ints := func(n int, lo, hi int64) []int32 {
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(lo + r.Int64N(hi-lo+1))
		}
		return v
	}
	full := ints(3*columnar.PackChunkRows+5, math.MinInt32, math.MaxInt32)
	sorted := make([]int32, 2*columnar.ChunkRows+3)
	for i := range sorted {
		sorted[i] = int32(i*7 - 100_000)
	}
	nulls := ints(9_999, -50, 50)
	valid := make([]uint64, (len(nulls)+63)/64)
	for i := range nulls {
		if i%5 != 0 {
			valid[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	cases := []decodeCase{
		{"one_row", &columnar.Column{I32: []int32{-9}, Len: 1}},
		{"seven_rows", &columnar.Column{I32: ints(7, 0, 1000), Len: 7}},
		{"constant", &columnar.Column{I32: ints(10_000, 77, 77), Len: 10_000}},
		{"full_int32", &columnar.Column{I32: full, Len: len(full)}},
		{"sorted_frames", &columnar.Column{I32: sorted, Len: len(sorted)}},
		{"nulls", &columnar.Column{I32: nulls, Len: len(nulls), Valid: valid}},
		{"int64_dates", &columnar.Column{I64: []int64{19920101, 19981230, 19950615, 19920101, 19970704}, Len: 5}},
	}
	// Every width from 1 to 31 bits at a size that is no multiple of 4,096
	// or of a tile.
	for b := 1; b <= 31; b++ {
		n := 4_096 + 37*b
		cases = append(cases, decodeCase{fmt.Sprintf("bits%02d", b), &columnar.Column{I32: ints(n, -(1 << (b - 1)), (1<<(b-1))-1), Len: n}})
	}
	return cases
}

// writePackedCase packs col with the bits its statistics give and writes
// the header (rows, bits, shift, words, frames), words, frames and the
// values a decoder must return (NULL rows: their frame).
func writePackedCase(path string, col *columnar.Column) error {
	col.Type = columnar.TInt32
	if col.I64 != nil {
		col.Type = columnar.TInt64
	}
	t := &columnar.Table{Name: "t", Fields: []columnar.Field{{Name: "c", Type: col.Type}}, Columns: []*columnar.Column{col}, Rows: col.Len}
	columnar.ComputeStats(t)
	b, ok := columnar.PackBitsFromStats(t.Stats[0], col.Len)
	if !ok {
		return fmt.Errorf("no packing from statistics")
	}
	p, err := columnar.Pack(col, b)
	if err != nil {
		return err
	}
	want := make([]int64, col.Len)
	for i := range want {
		want[i] = col.Int64At(i)
		if col.IsNull(i) {
			want[i] = int64(p.Frames[i>>columnar.PackChunkShift])
		}
	}
	var buf bytes.Buffer
	hdr := []int64{int64(col.Len), int64(b), columnar.PackChunkShift, int64(len(p.Words)), int64(len(p.Frames))}
	width, frames, offsets := narrowForm(col, t.Stats[0], b)
	nhdr := []int64{int64(width), 16, int64(len(frames)), int64(len(offsets))}
	for _, x := range []any{hdr, p.Words, p.Frames, want, nhdr, frames, offsets} {
		if err := binary.Write(&buf, binary.LittleEndian, x); err != nil {
			return err
		}
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// narrowForm is col's narrow form (kernels/common.cuh, ld_narrow), from
// first principles: per 65,536-row statistics chunk its least value as the
// frame, each non-NULL value's offset from it in 1 byte (b <= 8) or 2
// (b <= 16), little-endian, padded to 16 bytes; width 0 where the values
// need more. A NULL row's offset is 0, so it reads as its frame.
func narrowForm(col *columnar.Column, stats []columnar.ChunkStats, b int) (width int, frames []int32, offsets []byte) {
	if b > 16 {
		return 0, nil, nil
	}
	width = 1
	if b > 8 {
		width = 2
	}
	frames = make([]int32, len(stats))
	for k, s := range stats {
		if s.Max >= s.Min && s.NullCount < min(columnar.ChunkRows, col.Len-k*columnar.ChunkRows) {
			frames[k] = int32(s.Min)
		}
	}
	offsets = make([]byte, (col.Len*width+15)/16*16)
	for i := 0; i < col.Len; i++ {
		if col.IsNull(i) {
			continue
		}
		o := uint32(col.Int64At(i) - int64(frames[i/columnar.ChunkRows]))
		offsets[i*width] = byte(o)
		if width == 2 {
			offsets[i*width+1] = byte(o >> 8)
		}
	}
	return width, frames, offsets
}
