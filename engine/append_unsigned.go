package engine

import (
	"math"

	"gpusql/storage/columnar"
)

// sameIntegerRange reports whether every value of integer type from is a
// value of type to read the same way, so a store may copy the int64 slots:
// not across signedness (-1 is not 18446744073709551615) nor from BIGINT
// UNSIGNED into INT UNSIGNED.
func sameIntegerRange(to, from columnar.Type) bool {
	if to.Bit > 0 && (from.Bit == 0 || from.Bit > to.Bit) {
		return false // BIT(m) holds less than a BIGINT UNSIGNED
	}
	return to.Unsigned == from.Unsigned && (!to.Unsigned || to.Width == 0 || from.Width != 0 && from.Width <= to.Width)
}

// holdsIntegers reports whether every value of type from is in the range
// of integer type to (TINYINT in SMALLINT, not INT in TINYINT), so a store
// may copy without a check.
func holdsIntegers(to, from columnar.Type) bool {
	lo, hi, ok := to.IntBounds()
	flo, fhi, fok := from.IntBounds()
	return ok && fok && flo >= lo && fhi <= hi
}

// fitsSignedness reports whether v, row i's value read from type from as
// an int64 slot, is in range for type to where signedness differs: an
// unsigned column takes 0 up to its maximum, a signed one no BIGINT
// UNSIGNED value of 2^63 or more (MySQL's "Out of range value" in strict
// mode).
func fitsSignedness(v int64, from, to columnar.Type) bool {
	switch {
	case to.Unsigned && from.IsBigUnsigned():
		return uint64(v) <= to.UnsignedMax()
	case to.Unsigned:
		return v >= 0 && uint64(v) <= to.UnsignedMax()
	case from.IsBigUnsigned():
		return v >= 0 && (to.Physical() != columnar.PhysInt32 || v <= math.MaxInt32)
	}
	return true
}

// bigUnsignedDouble is DOUBLE f stored into BIGINT UNSIGNED when it is past
// BIGINT's range, which asScaled's int64 cannot hold: rounded to even as
// Field_longlong::store(double) does with rint, the uint64's bits in an
// int64; ok false where f is below 2^63 (asScaled's case) or past 2^64 - 1.
func bigUnsignedDouble(f float64) (int64, bool) {
	r := math.RoundToEven(f)
	if !(r >= 1<<63 && r < 1<<64) { // NaN fails too
		return 0, false
	}
	return int64(uint64(r)), true
}
