package cpu

import (
	"math"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A string cast to SIGNED or UNSIGNED reads as MySQL's my_strtoll10
// (strings/my_strtoll10.cc, through Item_typecast_signed /
// Item_typecast_unsigned::val_int): the sign and leading digits as one
// 64-bit pattern, which the cast then keeps whatever its signedness.
// Past the 64 bits the pattern saturates at ~0 for a positive number
// and at LLONG_MIN for a negative one, noting 1292, so
//
//	CAST('99999999999999999999' AS UNSIGNED)   18446744073709551615  1292
//	CAST('99999999999999999999' AS SIGNED)     -1                    1292
//	CAST('-99999999999999999999' AS SIGNED)    -9223372036854775808  1292
//	CAST('18446744073709551615' AS SIGNED)     -1                    1105
//	CAST('-1' AS UNSIGNED)                     18446744073709551615  1105
//
// 1105 is the cast's own note that it reinterpreted the bits: a signed
// cast of a positive number past BIGINT, an unsigned cast of any
// number written with a minus sign (its strtoll10 error is -1).

// Warning 1105's texts (ER_UNKNOWN_ERROR).
const (
	signedComplementText   = "Cast to signed converted positive out-of-range integer to its negative complement"
	unsignedComplementText = "Cast to unsigned converted negative integer to its positive complement"
)

// complementText is 1105's text for a cast to t.
func complementText(t columnar.Type) string {
	if t.Unsigned {
		return unsignedComplementText
	}
	return signedComplementText
}

// strtoll10 reads pre, an optional sign and digits (numericPrefix), as
// my_strtoll10 does: the 64-bit pattern, whether a minus sign was
// written, and whether the number left the 64 bits (saturated).
func strtoll10(pre string) (v int64, neg, outOfRange bool) {
	i := 0
	if i < len(pre) && (pre[i] == '-' || pre[i] == '+') {
		neg = pre[i] == '-'
		i++
	}
	var u uint64
	for ; i < len(pre); i++ {
		d := uint64(pre[i] - '0')
		if u > (math.MaxUint64-d)/10 {
			outOfRange = true
			break
		}
		u = u*10 + d
	}
	switch {
	case neg && (outOfRange || u > 1<<63):
		return math.MinInt64, true, true
	case outOfRange:
		return -1, false, true // ~0
	case neg:
		return -int64(u), true, false
	}
	return int64(u), false, false
}

// writtenIntegerText reports a target whose written CAST of a string
// reads it as strtoll10 does: SIGNED and UNSIGNED, the 64-bit integers.
func writtenIntegerText(t columnar.Type) bool {
	return t.ID == columnar.Int64 && t.Width == 0 && t.Bit == 0
}

// castWritten is castTo for a CAST the statement wrote (sql.Cast.Written).
// Only a string's cast to SIGNED or UNSIGNED and a DOUBLE's to UNSIGNED
// differ: the binder's own casts of a string to BIGINT (a store's range
// check) keep the clamp that check needs, where CAST keeps strtoll10's
// bits; CAST clamps a DOUBLE to BIGINT's range (castDoubleUnsigned).
func (c *compiler) castWritten(ev evaluator, from, to columnar.Type) evaluator {
	var warn *sql.Warnings
	if c != nil && c.x != nil {
		warn = c.x.warn
	}
	return castEvaluator(ev, from, to, warn, true)
}

// parseWrittenInteger is a string read by CAST(s AS SIGNED / UNSIGNED).
func parseWrittenInteger(s string, t columnar.Type) numVal {
	nv := parseInt64Text(numericPrefix(strings.TrimSpace(s), false), t)
	nv.truncated = nv.truncated || sql.TruncatesNumber(s, true)
	return nv
}

// parseInt64Text is a string read as the BIGINT (signed or unsigned) t:
// the 64-bit pattern strtoll10 gives, truncated (1292) past 64 bits,
// complement (1105) where the cast reinterprets the bits.
func parseInt64Text(pre string, t columnar.Type) numVal {
	v, neg, over := strtoll10(pre)
	nv := numVal{i: v, truncated: over}
	if !over {
		nv.complement = t.Unsigned && neg || !t.Unsigned && !neg && v < 0
	}
	return nv
}

// complementKey keys a literal's 1105, noted once beside its 1292.
type complementKey struct{ k *sql.Const }

// noteComplement notes 1105 for a value whose bits the cast reinterpreted.
func (e *castEval) noteComplement() {
	if e.warnKey != nil {
		e.complement = true
		return
	}
	e.warn.Add(sql.WarnUnknownError, complementText(e.to))
}
