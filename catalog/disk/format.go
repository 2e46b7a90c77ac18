// Package disk keeps a catalog in a database directory: one file per
// column per table generation, laid out so that opening maps them instead
// of parsing values, and a manifest naming the current files that is
// switched atomically after every statement that changes the catalog.
// docs/storage-format.md describes the format and argues its choices.
package disk

import (
	"encoding/binary"
	"fmt"
	"math"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// FormatVersion is the on-disk format this build writes and the newest it
// reads. Bump it on any incompatible change to the manifest or the column
// files; an older gpusql then refuses the database by name instead of
// misreading it.
const FormatVersion = 2

const (
	manifestName = "MANIFEST"
	// fileMagic opens every column file.
	fileMagic = "GPUSQLC1"
	// headerSize and sectionAlign keep every section 64-byte aligned in the
	// map, so vectors are aligned for SIMD and for GPU copies.
	headerSize   = 64
	sectionAlign = 64
	// statsRecord is the encoded size of one columnar.ChunkStats;
	// statsRecordV1 its size in format 1's files, which kept no run count.
	statsRecord   = 56
	statsRecordV1 = 48
)

// manifest is the database's root: the tables, their columns' files, the
// indexes and views. It is small (no values, no statistics), JSON for
// readability, and preceded in the file by a line carrying the format
// version and the CRC32C of the JSON.
type manifest struct {
	Format     int            `json:"format"`
	Generation uint64         `json:"generation"`
	Tables     []tableMeta    `json:"tables"`
	Views      []catalog.View `json:"views,omitempty"`
}

type tableMeta struct {
	Name    string           `json:"name"`
	Rows    int              `json:"rows"`
	Fields  []columnar.Field `json:"fields"`
	Columns []columnMeta     `json:"columns"`
	Indexes []catalog.Index  `json:"indexes,omitempty"`
	// Checks are the table's CHECK constraints (absent in older
	// manifests, which read as none).
	Checks []catalog.Check `json:"checks,omitempty"`
	// ForeignKeys are its FOREIGN KEY constraints (the same).
	ForeignKeys []catalog.ForeignKey `json:"foreign_keys,omitempty"`
	// AutoIncrement is the AUTO_INCREMENT counter's next value (omitted
	// when 1 or the table has none, so older manifests read unchanged).
	AutoIncrement uint64 `json:"auto_increment,omitempty"`
	// Options are the table's COMMENT and default collation; absent
	// where it has none, so older manifests read unchanged.
	Options *catalog.TableOptions `json:"options,omitempty"`
	// Remaps are the table's remapped columns (remap_file.go); an older
	// gpusql ignores them and removes their files as unreferenced.
	Remaps []remapMeta `json:"remaps,omitempty"`
}

// columnMeta locates one column's file and its sections.
type columnMeta struct {
	File string `json:"file"`
	// Values is the vector of Rows fixed-width values (int32, int64 or
	// float64, little-endian), Valid the validity bitmap (absent when the
	// column has none), Stats the chunk statistics, DictOffsets and
	// DictBytes the dictionary of a string column.
	Values section `json:"values"`
	// Tail is values appended by later statements (INSERT, LOAD), each
	// run in its own file, in row order; nil once folded (CHECKPOINT,
	// or when a column gathers maxTail runs).
	Tail        []section `json:"tail,omitempty"`
	Valid       *section  `json:"valid,omitempty"`
	Stats       section   `json:"stats"`
	DictOffsets *section  `json:"dict_offsets,omitempty"`
	DictBytes   *section  `json:"dict_bytes,omitempty"`
	// VectorOffsets holds a VECTOR column's Rows+1 int64 element offsets
	// (a VECTOR without a dimension; VECTOR(n) rows are n float32 each).
	VectorOffsets *section `json:"vector_offsets,omitempty"`
	// Size is the file's size in bytes.
	Size int64 `json:"size"`
}

// section is a byte range of a column file and the CRC32C of its bytes.
type section struct {
	// File is the file holding the section when it is not the column's
	// File (values written by an earlier statement).
	File string `json:"file,omitempty"`
	Off  int64  `json:"off"`
	Len  int64  `json:"len"`
	CRC  uint32 `json:"crc"`
}

// maxTail is the number of appended runs a column gathers before a
// statement rewrites it whole: opening a column with runs copies them
// into one vector, so they must not pile up.
const maxTail = 8

// in returns s naming file when it names none.
func (s section) in(file string) section {
	if s.File == "" {
		s.File = file
	}
	return s
}

// fileOf is the file holding section s of column m.
func (m *columnMeta) fileOf(s section) string {
	if s.File != "" {
		return s.File
	}
	return m.File
}

// sections lists m's sections with their names, nil ones left out.
func (m *columnMeta) sections() (names []string, secs []section) {
	add := func(n string, s *section) {
		if s != nil {
			names, secs = append(names, n), append(secs, *s)
		}
	}
	add("values", &m.Values)
	for i := range m.Tail {
		add(fmt.Sprintf("appended values %d", i+1), &m.Tail[i])
	}
	add("NULL bitmap", m.Valid)
	add("statistics", &m.Stats)
	add("dictionary offsets", m.DictOffsets)
	add("dictionary", m.DictBytes)
	add("vector offsets", m.VectorOffsets)
	return names, secs
}

// valueBytes is the length of all of m's values.
func (m *columnMeta) valueBytes() int64 {
	n := m.Values.Len
	for _, t := range m.Tail {
		n += t.Len
	}
	return n
}

// bytes is the data m's sections hold (its share of the disk).
func (m *columnMeta) bytes() int64 {
	var n int64
	_, secs := m.sections()
	for _, s := range secs {
		n += s.Len
	}
	return n
}

func encodeStats(stats []columnar.ChunkStats) []byte {
	b := make([]byte, len(stats)*statsRecord)
	for i, s := range stats {
		r := b[i*statsRecord:]
		binary.LittleEndian.PutUint64(r[0:], uint64(s.Min))
		binary.LittleEndian.PutUint64(r[8:], uint64(s.Max))
		binary.LittleEndian.PutUint64(r[16:], math.Float64bits(s.MinF))
		binary.LittleEndian.PutUint64(r[24:], math.Float64bits(s.MaxF))
		binary.LittleEndian.PutUint64(r[32:], uint64(s.NullCount))
		binary.LittleEndian.PutUint64(r[40:], uint64(s.Distinct))
		binary.LittleEndian.PutUint64(r[48:], uint64(s.Runs))
	}
	return b
}

// decodeStats reads the statistics of a column file of format version
// (1 or 2; format 1's records have no run count, which reads as unknown).
func decodeStats(b []byte, version uint32) ([]columnar.ChunkStats, error) {
	size := statsRecord
	if version < 2 {
		size = statsRecordV1
	}
	if len(b)%size != 0 {
		return nil, fmt.Errorf("statistics section of %d bytes is not a whole number of %d-byte records", len(b), size)
	}
	out := make([]columnar.ChunkStats, len(b)/size)
	for i := range out {
		r := b[i*size:]
		out[i] = columnar.ChunkStats{
			Min:       int64(binary.LittleEndian.Uint64(r[0:])),
			Max:       int64(binary.LittleEndian.Uint64(r[8:])),
			MinF:      math.Float64frombits(binary.LittleEndian.Uint64(r[16:])),
			MaxF:      math.Float64frombits(binary.LittleEndian.Uint64(r[24:])),
			NullCount: int(binary.LittleEndian.Uint64(r[32:])),
			Distinct:  int(binary.LittleEndian.Uint64(r[40:])),
		}
		if size >= statsRecord {
			out[i].Runs = int(binary.LittleEndian.Uint64(r[48:]))
		}
	}
	return out, nil
}
