package columnar

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// Pass 2 of parsing a block: each column's fields, found by pass 1
// (delimited_split.go), are parsed in one loop straight into the column's
// final vector at the block's row offset. Integers take an inline fast
// path; anything else (NULL, blanks, errors, other types) goes through
// Builder.parseText. NULL rows and new strings are merged into the shared
// column under locks, once per block.

// parseWorker is one parsing goroutine's state, reused from block to block.
type parseWorker struct {
	ld    *delimitedLoad
	sp    splitter
	nulls [][]int32    // per column: block rows that are NULL
	dicts []*localDict // per column, for String columns
	trans []int32
}

// colError is the first bad row of a column in a block.
type colError struct {
	row int
	msg string
	// text is the field a value error is about; null marks a NULL in a
	// NOT NULL column (FieldValueError).
	text  string
	value bool
	null  bool
}

// passRows is how many records pass 2 parses per column before moving to
// the next column: their text and offsets (for lineorder some 50 KB and
// 37 KB) stay in the core's L1/L2 cache while every column is parsed from
// them. Whole 8 MB blocks column by column ran a third slower.
const passRows = 512

// parseColumns parses the block's records into rows [off, off+rows) of the
// load's columns, whose capacity the caller has ensured. It returns the
// first bad field in file order.
func (w *parseWorker) parseColumns(data []byte, off int) *fieldError {
	sp := &w.sp
	stride := sp.ncols + 1
	for c, d := range w.dicts {
		w.nulls[c] = w.nulls[c][:0]
		if d != nil {
			d.reset()
		}
	}
	var first *fieldError
	for lo := 0; lo < sp.rows && first == nil; lo += passRows {
		hi := min(lo+passRows, sp.rows)
		for c, sink := range w.ld.out {
			before := len(w.nulls[c])
			e := w.parseColumn(c, sink, data, off, lo, hi)
			if e == nil && !w.ld.t.Fields[c].Nullable && len(w.nulls[c]) > before {
				e = &colError{row: int(w.nulls[c][before]), msg: "NULL in a NOT NULL column", value: true, null: true}
			}
			if e != nil {
				hi = e.row // later columns need not go past it
				first = &fieldError{
					line: bytes.Count(data[:sp.pos[e.row*stride+c]], []byte{'\n'}) + 1,
					row:  e.row,
					col:  c,
					msg:  e.msg,
					val:  e,
				}
			}
		}
	}
	if first != nil {
		return first
	}
	for c, sink := range w.ld.out {
		if d := w.dicts[c]; d != nil {
			w.ld.internStrings(c, d.vals, &w.trans)
			if tr := w.trans; len(tr) > 0 {
				dst := sink.i32[off : off+sp.rows]
				for r, id := range dst {
					dst[r] = tr[id]
				}
			}
		}
		if len(w.nulls[c]) > 0 {
			w.ld.markNulls(sink, off, w.nulls[c])
		}
	}
	return nil
}

// parseColumn parses field c of records [lo, hi) into sink rows off+lo...
func (w *parseWorker) parseColumn(c int, sink *Builder, data []byte, off, lo, hi int) *colError {
	pos, stride := w.sp.pos, w.sp.ncols+1
	nulls := &w.nulls[c]
	field := func(r int) []byte {
		return data[pos[r*stride+c] : pos[r*stride+c+1]-1]
	}
	// slow parses record r into sink row off+r.
	slow := func(r int, f []byte) *colError {
		if isNullText(f, w.sp.null) && !w.quotedNull(r, c) {
			*nulls = append(*nulls, int32(r))
			sink.setZero(off + r)
			return nil
		}
		null, err := sink.parseText(off+r, f)
		if err != nil {
			return &colError{row: r, msg: err.Error(), text: string(f), value: true}
		}
		if null {
			*nulls = append(*nulls, int32(r))
		}
		return nil
	}
	// A value past the column's width (300 for TINYINT) takes the slow
	// path, whose error names it.
	minV, maxV, bounded := sink.typ.IntBounds()
	inRange := func(v int64) bool { return !bounded || v >= minV && v <= maxV }
	switch typ := sink.typ; {
	case typ.ID == Int32 && !typ.Year: // YEAR's two-digit rules take the slow path
		dst := sink.i32[off:]
		for r := lo; r < hi; r++ {
			s, e := int(pos[r*stride+c]), int(pos[r*stride+c+1])-1
			if n := e - s; uint(n-1) < 8 && s+8 <= len(data) {
				if v, ok := eightDigits(data[s:s+8], n); ok && inRange(int64(v)) {
					dst[r] = int32(v)
					continue
				}
			}
			f := data[s:e]
			if v, ok := fastInt(f, 9); ok && inRange(v) {
				dst[r] = int32(v)
			} else if e := slow(r, f); e != nil {
				return e
			}
		}
	case typ.ID == Int64:
		dst := sink.i64[off:]
		for r := lo; r < hi; r++ {
			s, e := int(pos[r*stride+c]), int(pos[r*stride+c+1])-1
			if n := e - s; uint(n-1) < 8 && s+8 <= len(data) {
				if v, ok := eightDigits(data[s:s+8], n); ok && inRange(int64(v)) {
					dst[r] = int64(v)
					continue
				}
			}
			f := data[s:e]
			if v, ok := fastInt(f, 18); ok && (!sink.typ.Unsigned || v >= 0 && uint64(v) <= sink.typ.UnsignedMax()) {
				dst[r] = v
			} else if e := slow(r, f); e != nil {
				return e
			}
		}
	case typ.ID == String:
		d := w.dicts[c]
		dst := sink.i32[off:]
		for r := lo; r < hi; r++ {
			f := field(r)
			if isNullText(f, w.sp.null) && !w.quotedNull(r, c) {
				*nulls = append(*nulls, int32(r))
				dst[r] = 0
				continue
			}
			seen := len(d.vals)
			dst[r] = d.id(f)
			if len(d.vals) > seen {
				if e := w.fitNew(c, d, off+r); e != nil {
					return &colError{row: r, msg: e.Error(), text: string(field(r)), value: true}
				}
			}
		}
	default:
		for r := lo; r < hi; r++ {
			if e := slow(r, field(r)); e != nil {
				return e
			}
		}
	}
	return nil
}

// fitNew checks the string just added to d, the first in the block at
// table row row, against the column's width and UTF-8 (see FitString): each
// distinct string of a block is checked once, and the row it was first seen
// at is the first that holds it. A value with excess trailing spaces is
// stored cut.
func (w *parseWorker) fitNew(c int, d *localDict, row int) error {
	last := len(d.vals) - 1
	v, err := w.ld.t.Fields[c].Type.FitString(d.vals[last])
	if se, ok := err.(*StringError); ok {
		return se.At(w.ld.t.Name, w.ld.t.Fields[c].Name, row-w.ld.t.Rows+1)
	}
	d.vals[last] = v
	return nil
}

// quotedNull reports whether field c of record r was the enclosed string
// "\N" rather than the NULL marker.
func (w *parseWorker) quotedNull(r, c int) bool {
	_, found := slices.BinarySearch(w.sp.quotedNulls, uint64(r)<<16|uint64(c))
	return found
}

// fastInt parses a plain run of at most maxDigits digits with an optional
// '-', which cannot overflow; anything else is left to the general parser.
func fastInt(f []byte, maxDigits int) (int64, bool) {
	neg := len(f) > 0 && f[0] == '-'
	if neg {
		f = f[1:]
	}
	if len(f) == 0 || len(f) > maxDigits {
		return 0, false
	}
	var v int64
	for _, ch := range f {
		d := ch - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int64(d)
	}
	if neg {
		v = -v
	}
	return v, true
}

// eightDigits parses the first n (1..8) bytes of b, which holds 8, when
// they are all digits, in a few word operations (SWAR; the combining step
// is fast_float's parse_eight_digits_unrolled). The bytes past the field
// are shifted out and the vacated low bytes act as leading zeros.
func eightDigits(b []byte, n int) (uint64, bool) {
	t := (binary.LittleEndian.Uint64(b) ^ 0x3030303030303030) << (uint(8-n) * 8)
	// A digit byte became 0..9; anything else has a byte above 9, which
	// adding 0x76 lifts into the high bit (or the high bit was set).
	if ((t+0x7676767676767676)|t)&0x8080808080808080 != 0 {
		return 0, false
	}
	t = t*10 + t>>8
	const mask = 0x000000FF000000FF
	return ((t&mask)*(100+1000000<<32) + (t>>16&mask)*(1+10000<<32)) >> 32, true
}

// localDict gives the strings of one column in one block ids in
// first-seen order. A small cache keyed by length and end bytes answers
// the low-cardinality columns of star schemas without hashing the string.
type localDict struct {
	ids   map[string]int32
	vals  []string
	cache [256]int32 // id+1
}

func (d *localDict) reset() {
	clear(d.ids)
	d.vals = d.vals[:0]
	d.cache = [256]int32{}
}

func (d *localDict) id(f []byte) int32 {
	h := 0
	if n := len(f); n > 0 {
		h = (n*31 + int(f[0])*7 + int(f[n-1])) & 255
	}
	if e := d.cache[h]; e != 0 && d.vals[e-1] == string(f) {
		return e - 1
	}
	id, ok := d.ids[string(f)]
	if !ok {
		s := string(f)
		id = int32(len(d.vals))
		d.ids[s] = id
		d.vals = append(d.vals, s)
	}
	d.cache[h] = id + 1
	return id
}
