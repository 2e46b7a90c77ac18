package cpu

import (
	"math"
	"strconv"
	"strings"
)

func init() { stringBodies["conv"] = convBody }

// convBody is CONV(s, from, to) as MySQL's Item_func_conv computes it
// (see sql/conv.go): my_strntoull / my_strntoll over s, then the value in
// base |to|, signed when to is negative.
func convBody(f *rowFunc, a []val) val {
	from, to := a[1].i, a[2].i
	if abs64(from) < 2 || abs64(from) > 36 || abs64(to) < 2 || abs64(to) > 36 {
		return nullVal
	}
	mag, neg, overflow := parseBase(a[0].s, int(abs64(from)))
	var v uint64 // the 64-bit pattern
	switch {
	case from > 0 && overflow:
		v = math.MaxUint64
	case from > 0 && neg:
		v = -mag
	case from > 0:
		v = mag
	case neg && (overflow || mag > 1<<63):
		v = 1 << 63 // LLONG_MIN
	case neg:
		v = -mag
	case overflow || mag > math.MaxInt64:
		v = math.MaxInt64
	default:
		v = mag
	}
	if to < 0 && int64(v) < 0 {
		return sv("-" + strings.ToUpper(strconv.FormatUint(-v, int(-to))))
	}
	return sv(strings.ToUpper(strconv.FormatUint(v, int(abs64(to)))))
}

// parseBase reads the longest prefix of s (after spaces and a sign) made
// of digits of the base, as a magnitude; overflow when it passes 2^64-1.
func parseBase(s string, base int) (mag uint64, neg, overflow bool) {
	s = strings.TrimLeft(s, " \t\n")
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	for i := 0; i < len(s); i++ {
		d := digitValue(s[i])
		if d >= base {
			break
		}
		if mag > (math.MaxUint64-uint64(d))/uint64(base) {
			overflow = true
			continue
		}
		mag = mag*uint64(base) + uint64(d)
	}
	return mag, neg, overflow
}

// digitValue is c's value as a digit of bases up to 36 (36 for none).
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 36
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
