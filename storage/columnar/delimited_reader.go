package columnar

import (
	"bytes"
	"io"
)

// blockReader cuts a stream into blocks that end at record boundaries.
type blockReader struct {
	r     io.Reader
	quote byte
	eof   bool
	carry []byte // the bytes after the last cut, not yet in a block
}

// read appends file bytes to buf[n:] until it is full or the file ends.
func (rd *blockReader) read(buf []byte, n int) (int, error) {
	for n < len(buf) && !rd.eof {
		m, err := rd.r.Read(buf[n:])
		n += m
		if err == io.EOF {
			rd.eof = true
		} else if err != nil {
			return n, err
		}
	}
	return n, nil
}

// fill reads the next block into *s: the carry of the previous block,
// then file bytes, cut after the last record boundary. The block is
// whatever remains when the file ends; cut says it ends inside a record
// longer than maxBlock.
func (rd *blockReader) fill(s *[]byte) (data []byte, cut bool, err error) {
	buf := (*s)[:cap(*s)]
	if len(rd.carry) >= len(buf)/2 {
		buf = make([]byte, 2*len(rd.carry)+len(buf))
	}
	n := copy(buf, rd.carry)
	rd.carry = nil
	for {
		if n, err = rd.read(buf, n); err != nil {
			return nil, false, err
		}
		data := buf[:n]
		*s = buf
		if rd.eof {
			return data, false, nil
		}
		if end := lastRecordEnd(data, rd.quote); end > 0 {
			// The carry is copied into the next buffer before this one
			// can be reused (copy allows the overlap when it is the same
			// buffer): only the reader writes outside a block, and a
			// worker writes only inside its block (quoted compaction).
			rd.carry = data[end:]
			return data[:end], false, nil
		}
		if len(buf) >= maxBlock {
			rd.eof = true
			return data, true, nil
		}
		nb := make([]byte, 2*len(buf)) // a record longer than a block
		copy(nb, data)
		buf = nb
	}
}

// skipLines drops the first n physical lines and returns how many there
// were.
func (rd *blockReader) skipLines(buf []byte, n int) (int, error) {
	skipped := 0
	for skipped < n {
		m, err := rd.read(buf, 0)
		if err != nil {
			return skipped, err
		}
		data := buf[:m]
		for skipped < n {
			j := bytes.IndexByte(data, '\n')
			if j < 0 {
				break
			}
			data, skipped = data[j+1:], skipped+1
		}
		if skipped == n || rd.eof {
			rd.carry = append([]byte(nil), data...)
			if skipped < n && len(data) > 0 {
				skipped++ // a last line without a line break
				rd.carry = nil
			}
			return skipped, nil
		}
	}
	return skipped, nil
}
