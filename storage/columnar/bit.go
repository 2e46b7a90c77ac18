package columnar

// MaxBitWidth is the widest BIT(M) column MySQL allows.
const MaxBitWidth = 64

// TBit is the type of a BIT(m) column.
func TBit(m int) Type { return Type{ID: Int64, Unsigned: true, Bit: m} }

// FormatBit is a BIT(m) value as MySQL sends it to a client: its
// big-endian bytes, as many as m bits need ("The BIT Data Type": b'101'
// in a BIT(8) column is the byte 0x05, which clients show as it is).
func FormatBit(v uint64, m int) string {
	n := (m + 7) / 8
	out := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		out[i] = byte(v)
		v >>= 8
	}
	return string(out)
}
