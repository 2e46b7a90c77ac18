package server

import (
	"encoding/binary"

	"github.com/go-mysql-org/go-mysql/mysql"

	"gpusql/storage/columnar"
)

// narrowIntField describes a TINYINT, SMALLINT or MEDIUMINT column
// (signed or UNSIGNED) as MySQL sends it: MYSQL_TYPE_TINY, SHORT or INT24
// with the display length of the type's widest value, so a client reads
// the declared type (DatabaseTypeName "TINYINT"). ok is false for every
// other type, INT and INT UNSIGNED included.
func narrowIntField(t columnar.Type, f *mysql.Field) (ok bool) {
	if !isNarrowIntWire(t) {
		return false
	}
	f.Flag = mysql.BINARY_FLAG | mysql.NUM_FLAG
	lengths := map[int][2]uint32{8: {4, 3}, 16: {6, 5}, 24: {9, 8}} // signed, unsigned
	f.Type = map[int]byte{8: mysql.MYSQL_TYPE_TINY, 16: mysql.MYSQL_TYPE_SHORT, 24: mysql.MYSQL_TYPE_INT24}[t.Width]
	f.ColumnLength = lengths[t.Width][0]
	if t.Unsigned {
		f.Flag |= mysql.UNSIGNED_FLAG
		f.ColumnLength = lengths[t.Width][1]
	}
	return true
}

// isNarrowIntWire reports the types narrowIntField describes.
func isNarrowIntWire(t columnar.Type) bool {
	return t.IsNarrowInt() || t.Unsigned && t.Width > 0 && t.Width < 32
}

// appendNarrowInt appends row i's value of such a column in the binary
// protocol's size for its wire type: 1 byte for TINY, 2 for SHORT, 4 for
// INT24. The store range checks keep every value within the type.
func appendNarrowInt(row []byte, c *columnar.Column, i int) []byte {
	v := int64(0)
	if c.Type.Physical() == columnar.PhysInt32 {
		v = int64(c.I32[i])
	} else {
		v = c.I64[i]
	}
	switch c.Type.Width {
	case 8:
		return append(row, byte(v))
	case 16:
		return binary.LittleEndian.AppendUint16(row, uint16(v))
	}
	return binary.LittleEndian.AppendUint32(row, uint32(v))
}
