package disk

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"

	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// castagnoli is CRC32C, which Go computes with the SSE4.2/ARMv8 CRC
// instructions at several GB/s, so verifying a column costs less than
// scanning it once.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// columnWriter appends 64-byte-aligned sections to a new column (or
// remap) file.
type columnWriter struct {
	f   *os.File
	w   *bufio.Writer
	off int64
}

// writeColumn writes column c (with its chunk statistics) to dir/name,
// fsyncs it (when sync) and returns where its sections lie. The values
// section holds rows from fromRow on (the earlier ones are in the files
// of an earlier statement); the bitmap, statistics and dictionary are
// always whole.
func writeColumn(dir, name string, c *columnar.Column, stats []columnar.ChunkStats, fromRow int, sync bool) (columnMeta, error) {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return columnMeta{}, err
	}
	defer f.Close()
	cw := newSectionWriter(f)
	hdr := make([]byte, headerSize)
	copy(hdr, fileMagic)
	binary.LittleEndian.PutUint32(hdr[8:], FormatVersion)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(c.Type.ID))
	binary.LittleEndian.PutUint64(hdr[16:], uint64(c.Len))
	if err := cw.header(hdr); err != nil {
		return columnMeta{}, err
	}
	m := columnMeta{File: name}
	w := width(c.Type)
	if m.Values, err = cw.section(c.Data()[fromRow*w : valueBytes(c)]); err != nil {
		return m, err
	}
	if c.Valid != nil {
		s, err := cw.section(asBytes(c.Valid))
		if err != nil {
			return m, err
		}
		m.Valid = &s
	}
	if m.Stats, err = cw.section(encodeStats(stats)); err != nil {
		return m, err
	}
	if c.Offsets != nil {
		s, err := cw.section(asBytes(c.Offsets[:c.Len+1]))
		if err != nil {
			return m, err
		}
		m.VectorOffsets = &s
	}
	if c.Type.ID == columnar.String && c.Dict != nil {
		offs, blob := encodeDict(c.Dict)
		o, err := cw.section(offs)
		if err != nil {
			return m, err
		}
		b, err := cw.section(blob)
		if err != nil {
			return m, err
		}
		m.DictOffsets, m.DictBytes = &o, &b
	}
	if err := cw.w.Flush(); err != nil {
		return m, err
	}
	m.Size = cw.off
	if !sync {
		return m, nil
	}
	return m, f.Sync()
}

func newSectionWriter(f *os.File) *columnWriter {
	return &columnWriter{f: f, w: bufio.NewWriterSize(f, 1<<20)}
}

// header writes the file's headerSize-byte header.
func (cw *columnWriter) header(hdr []byte) error {
	if _, err := cw.w.Write(hdr); err != nil {
		return err
	}
	cw.off = int64(len(hdr))
	return nil
}

// section writes b at the next aligned offset.
func (cw *columnWriter) section(b []byte) (section, error) {
	if pad := (sectionAlign - cw.off%sectionAlign) % sectionAlign; pad > 0 {
		if _, err := cw.w.Write(make([]byte, pad)); err != nil {
			return section{}, err
		}
		cw.off += pad
	}
	s := section{Off: cw.off, Len: int64(len(b)), CRC: checksum(b)}
	if _, err := cw.w.Write(b); err != nil {
		return section{}, err
	}
	cw.off += int64(len(b))
	return s, nil
}

// valueBytes is the length of the value vector in bytes (Len rows; the
// slices may be longer than Len).
func valueBytes(c *columnar.Column) int {
	if c.Offsets != nil {
		return int(c.Offsets[c.Len]) * 4
	}
	return c.Len * width(c.Type)
}

// encodeDict lays a dictionary out as n+1 little-endian uint64 offsets into
// one blob of the concatenated strings.
func encodeDict(d *columnar.Dictionary) (offs, blob []byte) {
	offs = make([]byte, 8*(len(d.Values)+1))
	n := 0
	for _, v := range d.Values {
		n += len(v)
	}
	blob = make([]byte, 0, n)
	for i, v := range d.Values {
		blob = append(blob, v...)
		binary.LittleEndian.PutUint64(offs[8*(i+1):], uint64(len(blob)))
	}
	return offs, blob
}

// mapColumn maps a column's files and returns the column over the map:
// the value vector and validity bitmap are the mapped bytes themselves (no
// decode, no copy); statistics and the dictionary are checked and decoded
// now (they are small, and the planner reads them before any value); the
// values and bitmap are checked on first use (Column.Verify). A column
// with appended runs (Tail) is copied into one vector instead, checked as
// it is copied, until CHECKPOINT folds it. what names the column in errors
// ("table t column c").
func mapColumn(dir string, m columnMeta, f columnar.Field, rows int, what string) (*columnar.Column, []columnar.ChunkStats, error) {
	bad := func(file, format string, args ...any) error {
		return fmt.Errorf("%s: file %s is damaged: %s (run CHECK DATABASE; restore from a backup or EXPORT DATABASE)", what, file, fmt.Sprintf(format, args...))
	}
	maps := map[string][]byte{}
	names, secs := m.sections()
	for i, s := range secs {
		file := m.fileOf(s)
		data, ok := maps[file]
		if !ok {
			var err error
			if data, err = mapFile(filepath.Join(dir, file)); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", what, err)
			}
			if len(data) < headerSize || string(data[:8]) != fileMagic {
				return nil, nil, bad(file, "%d bytes without a gpusql header", len(data))
			}
			maps[file] = data
		}
		if s.Off < headerSize || s.Len < 0 || s.Off+s.Len > int64(len(data)) {
			return nil, nil, bad(file, "its %s lies outside the file (%d bytes)", names[i], len(data))
		}
	}
	if got := binary.LittleEndian.Uint64(maps[m.File][16:]); got != uint64(rows) {
		return nil, nil, bad(m.File, "holds %d rows, the manifest says %d", got, rows)
	}
	get := func(s section) []byte { return maps[m.fileOf(s)][s.Off : s.Off+s.Len] }
	check := func(name string, s section) error {
		if checksum(get(s)) != s.CRC {
			return bad(m.fileOf(s), "checksum mismatch in its %s", name)
		}
		return nil
	}
	if err := check("statistics", m.Stats); err != nil {
		return nil, nil, err
	}
	stats, err := decodeStats(get(m.Stats), binary.LittleEndian.Uint32(maps[m.fileOf(m.Stats)][8:]))
	if err != nil {
		return nil, nil, bad(m.File, "%v", err)
	}
	if !isVarVector(f.Type) && m.valueBytes() != int64(rows)*int64(width(f.Type)) {
		return nil, nil, bad(m.File, "%d bytes of values for %d rows", m.valueBytes(), rows)
	}
	vals := get(m.Values)
	if len(m.Tail) > 0 {
		if vals, err = gatherValues(m, get, check); err != nil {
			return nil, nil, err
		}
	}
	c := &columnar.Column{Type: f.Type, Len: rows}
	switch f.Type.Physical() {
	case columnar.PhysInt32:
		c.I32 = castSlice[int32](vals)
	case columnar.PhysInt64:
		c.I64 = castSlice[int64](vals)
	case columnar.PhysWide:
		c.W = castSlice[decimal.Num](vals)
	case columnar.PhysVector:
		c.F32 = castSlice[float32](vals)
		if isVarVector(f.Type) {
			if c.Offsets, err = vectorOffsets(m, get, check, rows, len(c.F32)); err != nil {
				return nil, nil, bad(m.File, "%v", err)
			}
		}
	default:
		c.F64 = castSlice[float64](vals)
	}
	if m.Valid != nil {
		c.Valid = castSlice[uint64](get(*m.Valid))
	}
	if f.Type.ID == columnar.String {
		c.Dict = &columnar.Dictionary{}
		if m.DictOffsets != nil {
			if err := check("dictionary offsets", *m.DictOffsets); err != nil {
				return nil, nil, err
			}
			if err := check("dictionary", *m.DictBytes); err != nil {
				return nil, nil, err
			}
			if c.Dict, err = decodeDict(get(*m.DictOffsets), get(*m.DictBytes)); err != nil {
				return nil, nil, bad(m.File, "%v", err)
			}
		}
	}
	c.SetCheck(func() error {
		if len(m.Tail) == 0 {
			if err := check("values", m.Values); err != nil {
				return err
			}
		}
		if m.Valid != nil {
			return check("NULL bitmap", *m.Valid)
		}
		return nil
	})
	return c, stats, nil
}

// gatherValues copies a column's value runs into one 8-byte-aligned
// vector, checking each run's checksum.
func gatherValues(m columnMeta, get func(section) []byte, check func(string, section) error) ([]byte, error) {
	words := make([]uint64, (m.valueBytes()+7)/8)
	out := asBytes(words)[:m.valueBytes()]
	off := 0
	for i, s := range append([]section{m.Values}, m.Tail...) {
		if err := check(fmt.Sprintf("values (run %d)", i+1), s); err != nil {
			return nil, err
		}
		off += copy(out[off:], get(s))
	}
	return out, nil
}

// decodeDict builds the dictionary's string headers over the map: the
// strings' bytes stay in the mapped file (never unmapped while the process
// runs, so strings that reach query results or the driver's callers stay
// valid), and opening costs one header per entry, not a copy.
func decodeDict(offs, blob []byte) (*columnar.Dictionary, error) {
	n := len(offs)/8 - 1
	if n < 0 || len(offs)%8 != 0 {
		return nil, fmt.Errorf("dictionary offsets of %d bytes", len(offs))
	}
	vals := make([]string, n)
	prev := uint64(0)
	for i := range vals {
		end := binary.LittleEndian.Uint64(offs[8*(i+1):])
		if end < prev || end > uint64(len(blob)) {
			return nil, fmt.Errorf("dictionary entry %d out of range", i)
		}
		if end > prev {
			vals[i] = unsafe.String(&blob[prev], end-prev)
		}
		prev = end
	}
	return &columnar.Dictionary{Values: vals}, nil
}

// width is the bytes a row's value takes: 4 per element of a VECTOR(n)
// (0 for a VECTOR without dimension, whose rows vary: see isVarVector).
func width(t columnar.Type) int {
	switch t.Physical() {
	case columnar.PhysInt32:
		return 4
	case columnar.PhysVector:
		return 4 * t.Dim
	case columnar.PhysWide:
		return 32 // decimal.Num: four little-endian words
	}
	return 8
}

// isVarVector reports a VECTOR column without a dimension: its values are
// the elements of all rows, and the vector offsets section says where each
// row starts. Such a column is rewritten whole by each change (no
// appended runs): its rows have no fixed width to place a run by.
func isVarVector(t columnar.Type) bool { return t.ID == columnar.Vector && t.Dim == 0 }

// vectorOffsets reads and checks a VECTOR column's row offsets: rows+1
// non-decreasing offsets from 0 to the number of elements.
func vectorOffsets(m columnMeta, get func(section) []byte, check func(string, section) error, rows, elems int) ([]int64, error) {
	if m.VectorOffsets == nil {
		return nil, fmt.Errorf("no vector offsets")
	}
	if err := check("vector offsets", *m.VectorOffsets); err != nil {
		return nil, err
	}
	offs := castSlice[int64](get(*m.VectorOffsets))
	if len(offs) != rows+1 || offs[0] != 0 || offs[rows] != int64(elems) {
		return nil, fmt.Errorf("vector offsets do not match %d rows of %d elements", rows, elems)
	}
	for i := range rows {
		if offs[i+1] < offs[i] {
			return nil, fmt.Errorf("vector offset %d decreases", i+1)
		}
	}
	return offs, nil
}

// mapFile maps a whole file privately: reads come from the page cache
// without a copy, and a stray write to a column (columns are immutable by
// contract) would change only this process's pages, never the file. The
// map is never unmapped: slices of it may live on in query results; a
// replaced table's pages are simply no longer touched.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return []byte{}, nil
	}
	return unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE)
}

// castSlice views b as a vector of T; an empty b gives an empty, non-nil
// vector (a column's physical type is told by which vector is non-nil).
func castSlice[T int32 | int64 | float64 | uint64 | float32 | decimal.Num](b []byte) []T {
	var zero T
	n := len(b) / int(unsafe.Sizeof(zero))
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

func asBytes[T int32 | int64 | float64 | uint64 | float32 | decimal.Num](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
