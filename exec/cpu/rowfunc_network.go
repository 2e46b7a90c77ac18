package cpu

import (
	"encoding/hex"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"gpusql/sql"
)

// The address and UUID functions of sql/functions_network.go.

func init() {
	for name, body := range networkBodies {
		stringBodies[name] = body
	}
	for name := range sql.NetworkNullSafe {
		nullSafeRowFuncs[name] = true
	}
}

func boolVal(b bool) val {
	if b {
		return iv(1)
	}
	return iv(0)
}

var networkBodies = map[string]func(f *rowFunc, a []val) val{
	"inet_aton": func(f *rowFunc, a []val) val {
		n, ok := inetAton(a[0].s)
		if !ok {
			return nullVal
		}
		return iv(int64(n))
	},
	"inet_ntoa": func(f *rowFunc, a []val) val {
		n := uint64(a[0].i)
		if n > 0xFFFFFFFF {
			return nullVal
		}
		return sv(dotted([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}))
	},
	"inet6_aton": func(f *rowFunc, a []val) val {
		b, ok := inet6Aton(a[0].s)
		if !ok {
			return nullVal
		}
		return sv(string(b))
	},
	"inet6_ntoa": func(f *rowFunc, a []val) val {
		switch b := []byte(a[0].s); len(b) {
		case 4:
			return sv(dotted(b))
		case 16:
			return sv(ipv6Text(b))
		}
		return nullVal
	},
	"is_ipv4": func(f *rowFunc, a []val) val {
		_, ok := ipv4Bytes(a[0].s)
		return boolVal(!a[0].null && ok)
	},
	"is_ipv6": func(f *rowFunc, a []val) val {
		b, ok := inet6Aton(a[0].s)
		return boolVal(!a[0].null && ok && len(b) == 16)
	},
	"is_ipv4_compat": func(f *rowFunc, a []val) val {
		b := a[0].s
		if a[0].null || len(b) != 16 || b[:12] != strings.Repeat("\x00", 12) {
			return iv(0)
		}
		// IN6_IS_ADDR_V4COMPAT: :: and ::1 are not IPv4 addresses.
		tail := uint32(b[12])<<24 | uint32(b[13])<<16 | uint32(b[14])<<8 | uint32(b[15])
		return boolVal(tail > 1)
	},
	"is_ipv4_mapped": func(f *rowFunc, a []val) val {
		b := a[0].s
		return boolVal(!a[0].null && len(b) == 16 && b[:12] == strings.Repeat("\x00", 10)+"\xff\xff")
	},
	"is_uuid": func(f *rowFunc, a []val) val {
		_, ok := uuidBytes(a[0].s)
		return boolVal(ok)
	},
	"uuid_to_bin": func(f *rowFunc, a []val) val {
		b, ok := uuidBytes(a[0].s)
		if !ok {
			raise(fmt.Errorf("Incorrect string value: '%s' for function uuid_to_bin", a[0].s))
		}
		if a[1].i != 0 { // time-high first: ordered by time
			b = append(append(append([]byte{}, b[6:8]...), b[4:6]...), append(b[0:4:4], b[8:]...)...)
		}
		return sv(string(b))
	},
	"bin_to_uuid": func(f *rowFunc, a []val) val {
		b := []byte(a[0].s)
		if len(b) != 16 {
			raise(fmt.Errorf("Incorrect string value: '%s' for function bin_to_uuid", hex.EncodeToString(b)))
		}
		if a[1].i != 0 {
			b = append(append(append([]byte{}, b[4:8]...), b[2:4]...), append(b[0:2:2], b[8:]...)...)
		}
		h := hex.EncodeToString(b)
		return sv(h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:])
	},
}

// inetAton is MySQL's INET_ATON (Item_func_inet_aton::val_int): groups of
// decimal digits up to 255 separated by dots, at most four; a short form
// puts its last group in the last byte (127.1 is 127.0.0.1, 127.2.1 is
// 127.2.0.1). Empty, a trailing dot, any other character: invalid.
func inetAton(s string) (uint64, bool) {
	var result, group uint64
	dots := 0
	last := byte('.') // '' is invalid, as an address ending in '.'
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if group = group*10 + uint64(c-'0'); group > 255 {
				return 0, false
			}
		case c == '.':
			dots++
			result, group = result<<8+group, 0
		default:
			return 0, false
		}
		last = c
	}
	if last == '.' || dots > 3 {
		return 0, false
	}
	switch dots {
	case 1:
		result <<= 16
	case 2:
		result <<= 8
	}
	return result<<8 + group, true
}

// ipv4Bytes parses a strict dotted quad (INET6_ATON's IPv4 form): four
// groups of 1-3 digits, each at most 255.
func ipv4Bytes(s string) ([]byte, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil, false
	}
	b := make([]byte, 4)
	for i, p := range parts {
		if len(p) == 0 || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return nil, false
		}
		n, _ := strconv.Atoi(p)
		if n > 255 {
			return nil, false
		}
		b[i] = byte(n)
	}
	return b, true
}

// inet6Aton is INET6_ATON: 4 bytes for a dotted quad, 16 for an IPv6
// address (an IPv4 tail allowed, no zone).
func inet6Aton(s string) ([]byte, bool) {
	if b, ok := ipv4Bytes(s); ok {
		return b, true
	}
	if !strings.Contains(s, ":") || strings.Contains(s, "%") {
		return nil, false
	}
	addr, err := netip.ParseAddr(s)
	if err != nil || !addr.Is6() {
		return nil, false
	}
	b := addr.As16()
	return b[:], true
}

func dotted(b []byte) string {
	return fmt.Sprintf("%d.%d.%d.%d", b[0], b[1], b[2], b[3])
}

// ipv6Text is MySQL's ipv6_to_str: lower-case hex groups without leading
// zeros, the first longest run of zero groups (even a single one) as
// '::', and an IPv4-compatible (::a.b.c.d) or IPv4-mapped
// (::ffff:a.b.c.d) address with a dotted tail.
func ipv6Text(b []byte) string {
	var w [8]uint16
	for i := range w {
		w[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	gapPos, gapLen := -1, 0
	for i := 0; i < 8; {
		if w[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && w[j] == 0 {
			j++
		}
		if j-i > gapLen {
			gapPos, gapLen = i, j-i
		}
		i = j
	}
	var sb strings.Builder
	for i := 0; i < 8; i++ {
		switch {
		case i == gapPos:
			if i == 0 {
				sb.WriteByte(':')
			}
			sb.WriteByte(':')
			i += gapLen - 1
		case i == 6 && gapPos == 0 && (gapLen == 6 || (gapLen == 5 && w[5] == 0xffff)):
			sb.WriteString(dotted(b[12:]))
			return sb.String()
		default:
			sb.WriteString(strconv.FormatUint(uint64(w[i]), 16))
			if i != 7 {
				sb.WriteByte(':')
			}
		}
	}
	return sb.String()
}

// uuidBytes parses a UUID as IS_UUID accepts it: 32 hex digits, bare,
// dashed 8-4-4-4-12, or dashed inside braces.
func uuidBytes(s string) ([]byte, bool) {
	switch len(s) {
	case 38:
		if s[0] != '{' || s[37] != '}' {
			return nil, false
		}
		s = s[1:37]
		fallthrough
	case 36:
		if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
			return nil, false
		}
		s = s[:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
	case 32:
	default:
		return nil, false
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}
