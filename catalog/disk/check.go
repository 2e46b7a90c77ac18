package disk

import (
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
)

// Problem is one damaged part of a database found by Check.
type Problem struct {
	Table, Column string // empty for the manifest
	Msg           string
}

// Check reads every file of the database afresh from disk (not from the
// maps, which were taken at open) and verifies the manifest and every
// section of every column file against their CRC32C. It returns the
// problems found and the number of column and remap files checked.
func (s *Store) Check() (problems []Problem, columns, remaps int) {
	s.mu.Lock()
	m := s.current
	s.mu.Unlock()
	var out []Problem
	n, nr := 0, 0
	if _, err := readManifest(s.dir); err != nil && m.Generation > 0 {
		out = append(out, Problem{Msg: err.Error()})
	}
	for _, t := range m.Tables {
		for j, c := range t.Columns {
			n++
			if err := checkFile(s.dir, c); err != nil {
				out = append(out, Problem{Table: t.Name, Column: t.Fields[j].Name, Msg: err.Error()})
			}
		}
		for _, r := range t.Remaps {
			nr++
			for _, sec := range []section{r.Slots, r.SlotValue} {
				if err := checkSection(filepath.Join(s.dir, r.File), sec); err != nil {
					out = append(out, Problem{Table: t.Name, Column: r.Column, Msg: fmt.Sprintf("remap file %s: %v (ANALYZE TABLE %s rebuilds it)", r.File, err, t.Name)})
					break
				}
			}
		}
	}
	return out, n, nr
}

// checkFile verifies each section of a column's files, streaming them.
func checkFile(dir string, c columnMeta) error {
	names, secs := c.sections()
	for i, s := range secs {
		file := c.fileOf(s)
		if err := checkSection(filepath.Join(dir, file), s); err != nil {
			return fmt.Errorf("file %s: %s: %w", file, names[i], err)
		}
	}
	return nil
}

func checkSection(path string, s section) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < s.Off+s.Len {
		return fmt.Errorf("file truncated to %d bytes, the section ends at %d", st.Size(), s.Off+s.Len)
	}
	h := crc32.New(castagnoli)
	if _, err := io.Copy(h, io.NewSectionReader(f, s.Off, s.Len)); err != nil {
		return err
	}
	if h.Sum32() != s.CRC {
		return fmt.Errorf("checksum mismatch")
	}
	return nil
}
