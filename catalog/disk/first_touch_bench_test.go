package disk

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"gpusql/storage/columnar"
)

// BenchmarkFirstTouch times the first read of a freshly mapped 256 MiB
// column file in the page cache (its checksum, as a column's first use
// runs it), with the pages faulted in by the checksum's readers, and with
// them populated first by MADV_POPULATE_READ over the same pieces in
// parallel: what a cold query's first touch of a column pays.
//
//	go test ./catalog/disk -run '^$' -bench FirstTouch -benchtime 5x
func BenchmarkFirstTouch(b *testing.B) {
	const n = 256 << 20
	path := filepath.Join(b.TempDir(), "col")
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, populate := range []bool{false, true} {
		name := "faults"
		if populate {
			name = "populate"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				m, err := mapFile(path)
				if err != nil {
					b.Fatal(err)
				}
				if populate {
					const piece = 8 << 20
					columnar.ParallelChunks(n/piece, func(k int) {
						if err := unix.Madvise(m[k*piece:(k+1)*piece], unix.MADV_POPULATE_READ); err != nil {
							b.Error(err)
						}
					})
				}
				checksum(m)
				unix.Munmap(m)
			}
		})
	}
}
