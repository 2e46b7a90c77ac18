package cpu

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"strings"
)

// COMPRESS, UNCOMPRESS, UNCOMPRESSED_LENGTH (sql/functions_compress.go).

// warnZlibDataError is MySQL's ER_ZLIB_Z_DATA_ERROR.
const warnZlibDataError uint16 = 1259

func init() {
	stringBodies["compress"] = func(f *rowFunc, a []val) val { return sv(compress(a[0].s)) }
	stringBodies["uncompress"] = func(f *rowFunc, a []val) val {
		s, ok := uncompress(a[0].s)
		if !ok {
			// MySQL's ER_ZLIB_Z_DATA_ERROR, a warning with the NULL.
			f.warn.Add(warnZlibDataError, "ZLIB: Input data corrupted")
			return nullVal
		}
		return sv(s)
	}
	stringBodies["uncompressed_length"] = func(f *rowFunc, a []val) val {
		if len(a[0].s) <= 4 {
			return iv(0)
		}
		return iv(int64(binary.LittleEndian.Uint32([]byte(a[0].s[:4])) & 0x3FFFFFFF))
	}
}

func compress(s string) string {
	if s == "" {
		return ""
	}
	var b bytes.Buffer
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(s))&0x3FFFFFFF)
	b.Write(n[:])
	w := zlib.NewWriter(&b)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	if b.Bytes()[b.Len()-1] == ' ' {
		b.WriteByte('.')
	}
	return b.String()
}

func uncompress(s string) (string, bool) {
	if s == "" {
		return "", true
	}
	if len(s) <= 4 {
		return "", false
	}
	n := int64(binary.LittleEndian.Uint32([]byte(s[:4])) & 0x3FFFFFFF)
	if n > maxStringResult {
		return "", false
	}
	r, err := zlib.NewReader(strings.NewReader(s[4:]))
	if err != nil {
		return "", false
	}
	out, err := io.ReadAll(io.LimitReader(r, n+1))
	if err != nil || int64(len(out)) > n {
		return "", false
	}
	return string(out), true
}
