package disk

import (
	"encoding/binary"
	"testing"

	"gpusql/storage/columnar"
)

// TestStatsRoundTrip: a statistics section written now reads back whole,
// run counts included.
func TestStatsRoundTrip(t *testing.T) {
	in := []columnar.ChunkStats{
		{Min: -5, Max: 1 << 40, MinF: 0.5, MaxF: 2.5, NullCount: 3, Distinct: 9, Runs: 17},
		{Min: 7, Max: 7, Distinct: 1, Runs: 16},
	}
	out, err := decodeStats(encodeStats(in), FormatVersion)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if out[i] != in[i] {
			t.Errorf("chunk %d: read %+v, wrote %+v", i, out[i], in[i])
		}
	}
}

// TestStatsFormat1: a version 1 file's 48-byte records read with their run
// counts unknown (0), and a section that is not whole records is an error.
func TestStatsFormat1(t *testing.T) {
	b := make([]byte, 2*statsRecordV1)
	binary.LittleEndian.PutUint64(b[0:], uint64(3))               // min
	binary.LittleEndian.PutUint64(b[statsRecordV1+8:], uint64(9)) // second chunk's max
	binary.LittleEndian.PutUint64(b[statsRecordV1+40:], uint64(4))
	out, err := decodeStats(b, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Min != 3 || out[1].Max != 9 || out[1].Distinct != 4 || out[0].Runs != 0 || out[1].Runs != 0 {
		t.Fatalf("read %+v", out)
	}
	if _, err := decodeStats(b, 2); err == nil {
		t.Fatal("96 bytes read as 56-byte records")
	}
}
