package cpu

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"gpusql/exec"
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Spill files (an external sort's runs, a hash aggregate's partitions)
// are sequences of blocks of rows, columnar within a block:
//
//	uint32 rows, uint32 payload bytes, then per column:
//	  byte  0 (no vector: all NULL) | 1 (values) | 2 (values and NULL flags)
//	  rows bytes of NULL flags (kind 2)
//	  values: int32 / int64 / float64 bits, little-endian; a string column
//	  writes the block's own sorted dictionary (uint32 count, then uint32
//	  length + bytes each) and then the rows' codes in it.
//
// A block carries its own strings, so a file reads back without the
// dictionaries of the query that wrote it, and every block read back has
// a sorted dictionary (codes compare as the strings do). The files are
// temporary and local: no checksums. VECTOR columns are not spilled
// (spillableTypes): operators holding them stop at the memory limit.

// spillBufBytes is the buffer of each spill file writer and reader.
const spillBufBytes = 16 << 10

// spillableTypes reports whether columns of types can be written to a
// spill file.
func spillableTypes(types []columnar.Type) bool {
	for _, t := range types {
		if t.Physical() == columnar.PhysVector {
			return false
		}
	}
	return true
}

// spillWriter writes blocks to one spill file.
type spillWriter struct {
	f     *exec.SpillFile
	w     *bufio.Writer
	types []columnar.Type
	buf   []byte
	rows  int64
}

func newSpillWriter(sp *exec.Spill, op string, types []columnar.Type) (*spillWriter, error) {
	f, err := sp.Create(op)
	if err != nil {
		return nil, err
	}
	return &spillWriter{f: f, w: bufio.NewWriterSize(f, spillBufBytes), types: types}, nil
}

// writeBlock writes rows 0..n-1 of cols (one vector per type; nil: all
// NULL).
func (w *spillWriter) writeBlock(cols []*vec, n int) error {
	if n == 0 {
		return nil
	}
	w.buf = encodeSpillBlock(w.buf[:0], w.types, cols, n)
	w.rows += int64(n)
	_, err := w.w.Write(w.buf)
	return err
}

// encodeSpillBlock appends the block of rows 0..n-1 of cols to b.
func encodeSpillBlock(b []byte, types []columnar.Type, cols []*vec, n int) []byte {
	at := len(b)
	b = append(b, make([]byte, 8)...)
	for i, t := range types {
		b = encodeSpillVec(b, t, cols[i], n)
	}
	binary.LittleEndian.PutUint32(b[at:], uint32(n))
	binary.LittleEndian.PutUint32(b[at+4:], uint32(len(b)-at-8))
	return b
}

// close flushes the writer and returns the file, ready to be read.
func (w *spillWriter) close() (*exec.SpillFile, error) {
	if err := w.w.Flush(); err != nil {
		return nil, err
	}
	return w.f, nil
}

func encodeSpillVec(b []byte, t columnar.Type, v *vec, n int) []byte {
	if v == nil {
		return append(b, 0)
	}
	le := binary.LittleEndian
	if v.nulls != nil {
		b = append(b, 2)
		for _, null := range v.nulls[:n] {
			b = append(b, b2byte(null))
		}
	} else {
		b = append(b, 1)
	}
	switch {
	case t.ID == columnar.String:
		return encodeSpillStrings(b, v, n)
	case t.Physical() == columnar.PhysInt32:
		for _, x := range v.i32[:n] {
			b = le.AppendUint32(b, uint32(x))
		}
	case t.Physical() == columnar.PhysInt64:
		for _, x := range v.i64[:n] {
			b = le.AppendUint64(b, uint64(x))
		}
	case t.IsWide():
		for _, x := range v.w[:n] {
			for _, word := range x.Array() {
				b = le.AppendUint64(b, word)
			}
		}
	default:
		for _, x := range v.f64[:n] {
			b = le.AppendUint64(b, math.Float64bits(x))
		}
	}
	return b
}

// encodeSpillStrings writes the block's strings as a sorted dictionary of
// those its rows use, then each row's code in it (NULL rows: 0).
func encodeSpillStrings(b []byte, v *vec, n int) []byte {
	le := binary.LittleEndian
	used := map[int32]int32{}
	var codes []int32
	for p := 0; p < n; p++ {
		if !v.isNull(int32(p)) {
			if _, ok := used[v.i32[p]]; !ok {
				used[v.i32[p]] = 0
				codes = append(codes, v.i32[p])
			}
		}
	}
	// Sorted by string, not by code: a dictionary built while merging
	// is in arrival order.
	slices.SortFunc(codes, func(a, c int32) int { return compareStrings(v.dict.Values[a], v.dict.Values[c]) })
	b = le.AppendUint32(b, uint32(len(codes)))
	for i, c := range codes {
		used[c] = int32(i)
		s := v.dict.Values[c]
		b = le.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	for p := 0; p < n; p++ {
		code := int32(0)
		if !v.isNull(int32(p)) {
			code = used[v.i32[p]]
		}
		b = le.AppendUint32(b, uint32(code))
	}
	return b
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func b2byte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// spillReader reads a spill file's blocks from the start.
type spillReader struct {
	f     *os.File
	r     *bufio.Reader
	types []columnar.Type
	buf   []byte
}

func openSpillReader(f *exec.SpillFile, types []columnar.Type) (*spillReader, error) {
	o, err := f.Reader()
	if err != nil {
		return nil, err
	}
	return &spillReader{f: o, r: bufio.NewReaderSize(o, spillBufBytes), types: types}, nil
}

func (r *spillReader) close() { r.f.Close() }

// readBlock returns the next block's columns and rows; io.EOF after the
// last.
func (r *spillReader) readBlock() ([]*vec, int, error) {
	var head [8]byte
	if _, err := io.ReadFull(r.r, head[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, 0, io.EOF
		}
		return nil, 0, fmt.Errorf("reading spill file: %w", err)
	}
	n := int(binary.LittleEndian.Uint32(head[0:]))
	size := int(binary.LittleEndian.Uint32(head[4:]))
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	b := r.buf[:size]
	if _, err := io.ReadFull(r.r, b); err != nil {
		return nil, 0, fmt.Errorf("reading spill file: truncated block: %w", err)
	}
	cols := make([]*vec, len(r.types))
	for i, t := range r.types {
		cols[i], b = decodeSpillVec(b, t, n)
	}
	return cols, n, nil
}

func decodeSpillVec(b []byte, t columnar.Type, n int) (*vec, []byte) {
	kind := b[0]
	b = b[1:]
	if kind == 0 {
		return nil, b
	}
	v := &vec{t: t}
	if kind == 2 {
		v.nulls = make([]bool, n)
		for p := range v.nulls {
			v.nulls[p] = b[p] != 0
		}
		b = b[n:]
	}
	le := binary.LittleEndian
	switch {
	case t.ID == columnar.String:
		cnt := int(le.Uint32(b))
		b = b[4:]
		vals := make([]string, cnt)
		for i := range vals {
			l := int(le.Uint32(b))
			vals[i] = string(b[4 : 4+l])
			b = b[4+l:]
		}
		v.dict = &columnar.Dictionary{Values: vals}
		v.i32 = make([]int32, n)
		for p := range v.i32 {
			v.i32[p] = int32(le.Uint32(b[4*p:]))
		}
		b = b[4*n:]
	case t.Physical() == columnar.PhysInt32:
		v.i32 = make([]int32, n)
		for p := range v.i32 {
			v.i32[p] = int32(le.Uint32(b[4*p:]))
		}
		b = b[4*n:]
	case t.Physical() == columnar.PhysInt64:
		v.i64 = make([]int64, n)
		for p := range v.i64 {
			v.i64[p] = int64(le.Uint64(b[8*p:]))
		}
		b = b[8*n:]
	case t.IsWide():
		v.w = make([]decimal.Num, n)
		for p := range v.w {
			q := b[32*p:]
			v.w[p] = decimal.New(le.Uint64(q[24:]), le.Uint64(q[16:]), le.Uint64(q[8:]), le.Uint64(q))
		}
		b = b[32*n:]
	default:
		v.f64 = make([]float64, n)
		for p := range v.f64 {
			v.f64[p] = math.Float64frombits(le.Uint64(b[8*p:]))
		}
		b = b[8*n:]
	}
	return v, b
}
