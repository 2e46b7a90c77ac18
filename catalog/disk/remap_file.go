package disk

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gpusql/storage/columnar"
)

// Remapped columns (storage/columnar/remap_column.go) are kept in files of
// their own beside the columns they remap, so that ANALYZE TABLE's work (a
// breadth-first placement, seconds per 100 M rows) survives a restart. A
// remap is derived data: one whose file is missing or damaged is dropped
// at open (the next ANALYZE TABLE builds it again), never an error that
// keeps the database from opening.

// remapMagic opens every remap file.
const remapMagic = "GPUSQLR1"

// remapMeta locates one column's remap: its file and two sections, the
// slot of each row and the value each slot copies (int32, little-endian),
// with the numbers ColumnRemap carries besides them.
type remapMeta struct {
	Column      string                `json:"column"`
	File        string                `json:"file"`
	Slots       section               `json:"slots"`
	SlotValue   section               `json:"slot_value"`
	Min         int64                 `json:"min"`
	Codes       int                   `json:"codes"`
	NullCode    int32                 `json:"null_code"`
	Options     columnar.RemapOptions `json:"options"`
	Rounds      int64                 `json:"rounds"`
	PlainRounds int64                 `json:"plain_rounds"`
	Chunks      int64                 `json:"chunks"`
	BuildNanos  int64                 `json:"build_ns"`
	Size        int64                 `json:"size"`
}

// writeRemap writes r to dir/name and returns where its sections lie.
func writeRemap(dir, name string, r *columnar.ColumnRemap, sync bool) (remapMeta, error) {
	m := remapMeta{Column: r.Column, File: name, Min: r.Min, Codes: r.Codes, NullCode: r.NullCode,
		Options: r.Options, Rounds: r.Rounds, PlainRounds: r.PlainRounds, Chunks: r.Chunks, BuildNanos: int64(r.Elapsed)}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return m, err
	}
	defer f.Close()
	cw := newSectionWriter(f)
	hdr := make([]byte, headerSize)
	copy(hdr, remapMagic)
	binary.LittleEndian.PutUint32(hdr[8:], FormatVersion)
	binary.LittleEndian.PutUint64(hdr[16:], uint64(r.Rows))
	if err := cw.header(hdr); err != nil {
		return m, err
	}
	if m.Slots, err = cw.section(asBytes(r.Slots)); err != nil {
		return m, err
	}
	if m.SlotValue, err = cw.section(asBytes(r.SlotValue)); err != nil {
		return m, err
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

// mapRemap maps the remap m describes for column col of t, checking its
// header, bounds and checksums.
func mapRemap(dir string, m remapMeta, t *columnar.Table, col int) (*columnar.ColumnRemap, error) {
	data, err := mapFile(filepath.Join(dir, m.File))
	if err != nil {
		return nil, err
	}
	if len(data) < headerSize || string(data[:8]) != remapMagic {
		return nil, fmt.Errorf("file %s: %d bytes without a remap header", m.File, len(data))
	}
	if got := binary.LittleEndian.Uint64(data[16:]); got != uint64(t.Rows) {
		return nil, fmt.Errorf("file %s holds %d rows, the table %d", m.File, got, t.Rows)
	}
	get := func(what string, s section, n int) ([]int32, error) {
		if s.Off < headerSize || s.Len != int64(4*n) || s.Off+s.Len > int64(len(data)) {
			return nil, fmt.Errorf("file %s: its %s lies outside the file or has the wrong length", m.File, what)
		}
		b := data[s.Off : s.Off+s.Len]
		if checksum(b) != s.CRC {
			return nil, fmt.Errorf("file %s: checksum mismatch in its %s", m.File, what)
		}
		return castSlice[int32](b), nil
	}
	slots, err := get("slots", m.Slots, t.Rows)
	if err != nil {
		return nil, err
	}
	values, err := get("slot values", m.SlotValue, int(m.SlotValue.Len/4))
	if err != nil {
		return nil, err
	}
	return &columnar.ColumnRemap{Column: m.Column, Source: t.Columns[col], Rows: t.Rows, Min: m.Min, Codes: m.Codes,
		NullCode: m.NullCode, Options: m.Options, Elapsed: time.Duration(m.BuildNanos),
		Remap: &columnar.Remap{Slots: slots, SlotValue: values, Rounds: m.Rounds, PlainRounds: m.PlainRounds, Chunks: m.Chunks}}, nil
}

// loadRemaps maps the remaps tm lists for table t, leaving out those that
// cannot be read (derived data: see above).
func (s *Store) loadRemaps(tm tableMeta, t *columnar.Table) []*columnar.ColumnRemap {
	var out []*columnar.ColumnRemap
	for _, rm := range tm.Remaps {
		col := t.ColumnIndex(rm.Column)
		if col < 0 {
			continue
		}
		r, err := mapRemap(s.dir, rm, t, col)
		if err != nil {
			continue
		}
		s.remapFiles[r] = rm
		out = append(out, r)
	}
	return out
}

// remapsOf writes the remaps of table t (key k, index ti in the new
// manifest) that have no file yet and returns every one's metadata.
func (s *Store) remapsOf(rs []*columnar.ColumnRemap, gen uint64, ti int, t *columnar.Table, files map[*columnar.ColumnRemap]remapMeta) ([]remapMeta, error) {
	var out []remapMeta
	for _, r := range rs {
		rm, ok := s.remapFiles[r]
		if !ok {
			col := t.ColumnIndex(r.Column)
			name := fmt.Sprintf("g%08d-t%04d-c%04d.remap", gen, ti, col)
			var err error
			if rm, err = writeRemap(s.dir, name, r, !s.noSync); err != nil {
				return nil, fmt.Errorf("writing the remap of table %s column %s: %w", t.Name, r.Column, err)
			}
		}
		files[r] = rm
		out = append(out, rm)
	}
	return out, nil
}
