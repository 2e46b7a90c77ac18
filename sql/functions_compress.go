package sql

import "gpusql/storage/columnar"

// COMPRESS, UNCOMPRESS and UNCOMPRESSED_LENGTH, MySQL's zlib framing:
// four bytes of the uncompressed length (little-endian, 30 bits), the
// zlib stream, and a '.' when the stream ends in a space (so CHAR columns
// keep it); ” stays ”. exec/cpu/rowfunc_compress.go computes them with
// Go's compress/zlib, whose streams are valid zlib but not always MySQL's
// bytes (LENGTH(COMPRESS(x)) may differ; UNCOMPRESS reads either).
//
//	name                 args          result
//	compress             s VARCHAR     VARCHAR (binary)
//	uncompress           s VARCHAR     VARCHAR (binary); data that is not MySQL's framing, or
//	                                   longer than it says or than 64 MiB, gives NULL
//	uncompressed_length  s VARCHAR     BIGINT, the length the framing says (0 for '' or < 5 bytes)
func init() {
	for _, n := range []string{"compress", "uncompress", "uncompressed_length"} {
		moreFuncs[n] = true
	}
}

func (c *call) compressFunc() (Expr, bool, error) {
	switch c.name {
	case "compress", "uncompress", "uncompressed_length":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		t := columnar.TString
		if c.name == "uncompressed_length" {
			t = columnar.TInt64
		}
		return c.fn(t, c.str(c.args[0]))
	}
	return nil, false, nil
}
