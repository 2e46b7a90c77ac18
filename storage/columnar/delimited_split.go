package columnar

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Pass 1 of parsing a block of delimited text: find every record and the
// start of each of its fields. Pass 2 (delimited_columns.go) then parses
// one column at a time over all the block's records, so its inner loops
// are monomorphic and write one output vector sequentially.
//
// The result is pos, ncols+1 offsets per record: pos[r*(ncols+1)+c] is
// where field c of record r starts and field c ends one byte before
// pos[r*(ncols+1)+c+1] (where its delimiter, or the record's line break,
// is). Every line break of the block stays where a line count finds it, so
// the physical line of any field is 1 + the line breaks before its offset.

type splitter struct {
	ncols    int
	delim    byte
	quote    byte
	trailing bool // every record ends with a delimiter (dbgen .tbl)
	// emptyLines: an empty line is a record (DelimitedOptions.EmptyLineRecords).
	emptyLines bool

	pos  []uint32
	rows int
	// err is a structural error in record rows (the records before it are
	// complete).
	err *fieldError
	// quotedNulls lists (record<<16 | column) of enclosed fields that read
	// `\N` or null, which are strings, not NULL (in file order).
	quotedNulls []uint64
	// null is the extra spelling of NULL (DelimitedOptions.Null), or empty.
	null []byte
}

// fieldError is a bad field: line counts the block's physical lines from
// 1, col counts fields from 0 (col == ncols is an extra field).
type fieldError struct {
	line int
	row  int // the record's index in its block, from 0
	col  int
	msg  string
	val  *colError // a field's value: FieldValueError
}

// split runs pass 1 over data, which holds whole records (the last one
// may lack its line break).
func (s *splitter) split(data []byte, lines int) {
	need := (lines + 2) * (s.ncols + 1)
	if cap(s.pos) < need {
		s.pos = make([]uint32, need+need/4)
	}
	s.pos = s.pos[:need]
	s.rows, s.err, s.quotedNulls = 0, nil, s.quotedNulls[:0]
	if s.quote == 0 {
		s.splitPlain(data)
	} else {
		s.splitQuoted(data)
	}
}

// zeroBytes has the high bit set in every byte of x that is zero (exact,
// no false positives from borrows).
func zeroBytes(x uint64) uint64 {
	const lo7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&lo7 + lo7) | x | lo7)
}

// splitPlain finds delimiters and line breaks eight bytes at a time
// (SWAR): fields are short, so calling IndexByte per field costs more than
// it saves.
func (s *splitter) splitPlain(data []byte) {
	const ones = 0x0101010101010101
	dpat, npat := uint64(s.delim)*ones, uint64('\n')*ones
	delim, ncols, stride := s.delim, s.ncols, s.ncols+1
	pos := s.pos
	base, nf, lineStart := 0, 1, 0
	pos[0] = 0
	i := 0
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		md, mn := zeroBytes(w^dpat), zeroBytes(w^npat)
		if mn == 0 { // no line break in these 8 bytes: delimiters only
			for ; md != 0; md &= md - 1 {
				if nf <= ncols {
					pos[base+nf] = uint32(i + bits.TrailingZeros64(md)>>3 + 1)
				}
				nf++
			}
			continue
		}
		for m := md | mn; m != 0; {
			p := i + bits.TrailingZeros64(m)>>3
			m &= m - 1
			if data[p] == delim {
				if nf <= ncols {
					pos[base+nf] = uint32(p + 1)
				}
				nf++
				continue
			}
			if !s.endLine(data, lineStart, p, nf) {
				return
			}
			base = s.rows * stride
			nf, lineStart = 1, p+1
			pos[base] = uint32(lineStart)
		}
	}
	for ; i < len(data); i++ {
		switch data[i] {
		case delim:
			if nf <= ncols {
				pos[base+nf] = uint32(i + 1)
			}
			nf++
		case '\n':
			if !s.endLine(data, lineStart, i, nf) {
				return
			}
			base = s.rows * stride
			nf, lineStart = 1, i+1
			pos[base] = uint32(lineStart)
		}
	}
	if lineStart < len(data) {
		s.endLine(data, lineStart, len(data), nf)
	}
}

// endLine closes the line [start, p) that had nf fields: it skips a blank
// line, checks the field count and completes the record's offsets. It
// returns false after a structural error.
func (s *splitter) endLine(data []byte, start, p, nf int) bool {
	end := p
	if end > start && data[end-1] == '\r' {
		end--
	}
	if end == start && nf == 1 && !s.emptyLines {
		return true // blank line
	}
	lastEmpty := end > start && data[end-1] == s.delim
	if col, msg := s.checkFields(nf, lastEmpty); msg != "" {
		s.err = &fieldError{line: bytes.Count(data[:start], []byte{'\n'}) + 1, row: s.rows, col: col, msg: msg}
		return false
	}
	if !s.trailing {
		s.pos[s.rows*(s.ncols+1)+s.ncols] = uint32(end + 1)
	}
	s.rows++
	return true
}

// checkFields checks that a record with nf fields (the last one empty if
// lastEmpty) fits the table, and otherwise returns the column to blame and
// why.
func (s *splitter) checkFields(nf int, lastEmpty bool) (col int, msg string) {
	ncols := s.ncols
	real := nf
	if s.trailing && lastEmpty {
		real-- // the empty field after the final delimiter
	}
	switch {
	case real < ncols:
		return real, fmt.Sprintf("missing field: the line has %d fields, the table has %d columns", real, ncols)
	case real > ncols:
		return ncols, fmt.Sprintf("unexpected extra field: the table has %d columns", ncols)
	case s.trailing && !lastEmpty:
		return ncols - 1, "missing the delimiter that ends every line of this file"
	}
	return 0, ""
}

// splitQuoted splits RFC 4180 records: a field that starts with the
// quote character runs to the matching quote, may hold delimiters and line
// breaks, and writes a quote as two. The block is compacted in place as it
// goes (quotes dropped, doubled quotes halved, CRLF turned to LF), so that
// pass 2 sees every field as plain bytes between offsets, exactly as in the
// unquoted form; line breaks are kept so lines can still be counted. A
// quote inside an unenclosed field is an error: it would make record
// boundaries ambiguous (see lastRecordEnd).
func (s *splitter) splitQuoted(data []byte) {
	q, d, ncols, stride := s.quote, s.delim, s.ncols, s.ncols+1
	pos := s.pos
	w, i, line := 0, 0, 1
	fail := func(line, col int, format string, args ...any) {
		s.err = &fieldError{line: line, row: s.rows, col: col, msg: fmt.Sprintf(format, args...)}
	}
	for i < len(data) {
		if !s.emptyLines && (data[i] == '\n' || (data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n')) {
			if data[i] == '\r' {
				i++
			}
			data[w], w, i, line = '\n', w+1, i+1, line+1 // blank line
			continue
		}
		base := s.rows * stride
		for c := 0; ; c++ {
			fieldLine, start := line, w
			quoted := i < len(data) && data[i] == q
			if quoted {
				i++
				for {
					k := bytes.IndexByte(data[i:], q)
					if k < 0 {
						fail(fieldLine, min(c, ncols), "unterminated quoted field")
						return
					}
					line += bytes.Count(data[i:i+k], []byte{'\n'})
					w += copy(data[w:], data[i:i+k])
					i += k + 1
					if i < len(data) && data[i] == q {
						data[w], w, i = q, w+1, i+1
						continue
					}
					break
				}
				if i < len(data) && data[i] != d && data[i] != '\n' &&
					!(data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n') {
					fail(line, min(c, ncols), "unexpected %q after the closing quote", data[i])
					return
				}
				if isNullText(data[start:w], s.null) {
					s.quotedNulls = append(s.quotedNulls, uint64(s.rows)<<16|uint64(c))
				}
			} else {
				j := i
				for j < len(data) && data[j] != d && data[j] != '\n' {
					j++
				}
				end := j
				if j < len(data) && data[j] == '\n' && end > i && data[end-1] == '\r' {
					end--
				}
				if bytes.IndexByte(data[i:end], q) >= 0 {
					fail(line, min(c, ncols), "quote character in an unquoted field %s: enclose the field in quotes and double the quote", quoteField(data[i:end]))
					return
				}
				if w != i {
					copy(data[w:], data[i:end])
				}
				w += end - i
				i = j
			}
			if c <= ncols {
				pos[base+c] = uint32(start)
			}
			if i < len(data) && data[i] == d {
				data[w], w, i = d, w+1, i+1
				if c >= ncols && !(s.trailing && c == ncols) {
					fail(fieldLine, ncols, "unexpected extra field: the table has %d columns", ncols)
					return
				}
				continue
			}
			// End of the record: a line break (CRLF or LF) or the end.
			if col, msg := s.checkFields(c+1, !quoted && w == start); msg != "" {
				fail(fieldLine, col, "%s", msg)
				return
			}
			if !s.trailing {
				pos[base+ncols] = uint32(w + 1)
			}
			if i < len(data) {
				if data[i] == '\r' {
					i++
				}
				data[w], w, i, line = '\n', w+1, i+1, line+1
			}
			s.rows++
			break
		}
	}
}

// lastRecordEnd returns the length of the longest prefix of b that ends
// with a record's line break (0 if none). Without an enclosure that is the
// last '\n'; with one, the last '\n' preceded by an even number of quote
// characters, since in valid input quotes come in pairs (open/close, or a
// doubled quote) and a line break inside quotes is data. On invalid input
// the block holding the first bad field still starts at a true record
// boundary, so its parse reports that field.
func lastRecordEnd(b []byte, quote byte) int {
	if quote == 0 {
		return bytes.LastIndexByte(b, '\n') + 1
	}
	last, odd := -1, false
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			break
		}
		if bytes.Count(b[i:i+j], []byte{quote})&1 == 1 {
			odd = !odd
		}
		if !odd {
			last = i + j
		}
		i += j + 1
	}
	return last + 1
}

// firstRecordFields counts the fields of the first record in b and reports
// whether the last one is empty and unenclosed, which is how a file in the
// trailing-delimiter form (dbgen's "a|b|c|") is recognized.
func firstRecordFields(b []byte, delim, quote byte) (n int, lastEmpty bool) {
	for len(b) > 0 && (b[0] == '\n' || b[0] == '\r') {
		b = b[1:] // blank lines
	}
	if len(b) == 0 {
		return 0, false
	}
	n = 1
	fieldStart, inQuote := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inQuote:
			if c == quote {
				if i+1 < len(b) && b[i+1] == quote {
					i++
				} else {
					inQuote = false
				}
			}
		case quote != 0 && c == quote && i == fieldStart:
			inQuote = true
		case c == delim:
			n++
			fieldStart = i + 1
		case c == '\n':
			end := i
			if end > fieldStart && b[end-1] == '\r' {
				end--
			}
			return n, end == fieldStart
		}
	}
	return n, fieldStart == len(b)
}

// isNullText reports whether an unenclosed field is NULL: `\N`, or null
// when it is set.
func isNullText(f, null []byte) bool {
	return len(f) == 2 && f[0] == '\\' && f[1] == 'N' || len(null) > 0 && bytes.Equal(f, null)
}
