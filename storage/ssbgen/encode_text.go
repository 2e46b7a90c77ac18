package ssbgen

import (
	"bytes"
	"strconv"
)

// appendTbl appends the batch in dbgen's format: every field followed by
// '|', no quoting (no generated value contains '|' or a newline).
func appendTbl(dst []byte, bt *batch) []byte {
	for r := range bt.rows {
		for ci := range bt.cols {
			c := &bt.cols[ci]
			if bt.specs[ci].kind == kindString {
				dst = append(dst, c.data[c.offs[r]:c.offs[r+1]]...)
			} else {
				dst = strconv.AppendInt(dst, c.ints[r], 10)
			}
			dst = append(dst, '|')
		}
		dst = append(dst, '\n')
	}
	return dst
}

// appendCSV appends the batch as RFC 4180 records: comma-separated, strings
// quoted only when they hold a comma, quote or line break (addresses and
// d_date do).
func appendCSV(dst []byte, bt *batch) []byte {
	for r := range bt.rows {
		for ci := range bt.cols {
			if ci > 0 {
				dst = append(dst, ',')
			}
			c := &bt.cols[ci]
			if bt.specs[ci].kind == kindString {
				dst = appendCSVField(dst, c.data[c.offs[r]:c.offs[r+1]])
			} else {
				dst = strconv.AppendInt(dst, c.ints[r], 10)
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

func appendCSVField(dst, s []byte) []byte {
	if !bytes.ContainsAny(s, ",\"\r\n") {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, ch := range s {
		if ch == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, ch)
	}
	return append(dst, '"')
}

// csvHeader is the first line of a CSV file: the column names.
func csvHeader(specs []colSpec) []byte {
	var h []byte
	for i, s := range specs {
		if i > 0 {
			h = append(h, ',')
		}
		h = append(h, s.name...)
	}
	return append(h, '\n')
}
