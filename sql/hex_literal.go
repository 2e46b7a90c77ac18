package sql

import "gpusql/storage/columnar"

// hexLiteral types x'303132', 0x303132 and b'...' as MySQL does: a binary
// string ('012' here) where a string is wanted, and the unsigned big-endian
// number of its bytes (0x303132 = 3158322) in a numeric context, so
// x'41' + 0 is 65 and x'41' = 'A' holds. Only constants carry the
// distinction: convertConst reads the number when the literal is cast to a
// numeric type, which is how arithmetic and comparisons with numbers type
// it.
func hexLiteral(b []byte) *Const {
	return &Const{T: columnar.TString, S: string(b), hex: true}
}

// hexInt is the literal's value as BIGINT; ok is false past 2^63-1 (BIGINT
// UNSIGNED values gpusql has no type for).
func hexInt(s string) (int64, bool) {
	var v uint64
	for i := 0; i < len(s); i++ {
		if v > (1<<63-1)>>8 {
			return 0, false
		}
		v = v<<8 | uint64(s[i])
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}

// hexFloat is the literal's value as DOUBLE (any length).
func hexFloat(s string) float64 {
	var f float64
	for i := 0; i < len(s); i++ {
		f = f*256 + float64(s[i])
	}
	return f
}
