package cpu

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"hash/crc32"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

func init() {
	for name, body := range moreBodies {
		stringBodies[name] = body
	}
}

// moreBodies are the formatting, hashing and week functions of
// sql/functions_more.go.
var moreBodies = map[string]func(f *rowFunc, a []val) val{
	"week": func(f *rowFunc, a []val) val {
		w, _ := calcWeek(a[0].i, weekMode(a[1].i))
		return iv(w)
	},
	"yearweek": func(f *rowFunc, a []val) val {
		w, y := calcWeek(a[0].i, weekMode(a[1].i)|weekYear)
		return iv(y*100 + w)
	},
	"substring_index": func(f *rowFunc, a []val) val { return sv(substringIndex(a[0].s, a[1].s, a[2].i)) },
	"insert": func(f *rowFunc, a []val) val {
		r := []rune(a[0].s)
		pos, n := a[1].i, a[2].i
		if pos < 1 || pos > int64(len(r)) {
			return a[0]
		}
		end := int64(len(r))
		if n >= 0 && n < end-(pos-1) { // not pos-1+n: it may overflow
			end = pos - 1 + n
		}
		return sv(string(r[:pos-1]) + a[3].s + string(r[end:]))
	},
	"format": func(f *rowFunc, a []val) val {
		s := formatNumber(f.types[0], a[0], a[1].i)
		if len(a) == 3 {
			s = localizeNumber(f, s, a[2].s) // format_locale.go
		}
		return sv(s)
	},
	"hex": func(f *rowFunc, a []val) val {
		switch f.types[0].ID {
		case columnar.String:
			return sv(strings.ToUpper(hex.EncodeToString([]byte(a[0].s))))
		case columnar.Float64:
			return sv(strings.ToUpper(strconv.FormatUint(hexDouble(a[0].f), 16)))
		}
		return sv(strings.ToUpper(strconv.FormatUint(uint64(a[0].i), 16)))
	},
	"md5":  func(f *rowFunc, a []val) val { return sv(digest(md5.New(), a[0].s)) },
	"sha1": func(f *rowFunc, a []val) val { return sv(digest(sha1.New(), a[0].s)) },
	"sha2": func(f *rowFunc, a []val) val {
		switch a[1].i {
		case 0, 256:
			return sv(digest(sha256.New(), a[0].s))
		case 224:
			return sv(digest(sha256.New224(), a[0].s))
		case 384:
			return sv(digest(sha512.New384(), a[0].s))
		case 512:
			return sv(digest(sha512.New(), a[0].s))
		}
		return nullVal
	},
	"crc32":     func(f *rowFunc, a []val) val { return iv(int64(crc32.ChecksumIEEE([]byte(a[0].s)))) },
	"bit_count": func(f *rowFunc, a []val) val { return iv(int64(bits.OnesCount64(uint64(a[0].i)))) },
	"to_base64": func(f *rowFunc, a []val) val { return sv(base64.StdEncoding.EncodeToString([]byte(a[0].s))) },
	"from_base64": func(f *rowFunc, a []val) val {
		b, err := base64.StdEncoding.DecodeString(a[0].s)
		if err != nil {
			return nullVal
		}
		return sv(string(b))
	},
}

func digest(h hash.Hash, s string) string {
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil))
}

// substringIndex is SUBSTRING_INDEX(s, delim, n).
func substringIndex(s, delim string, n int64) string {
	if delim == "" || n == 0 {
		return ""
	}
	parts := strings.Split(s, delim)
	if n > 0 {
		if n >= int64(len(parts)) {
			return s
		}
		return strings.Join(parts[:n], delim)
	}
	if n <= -int64(len(parts)) { // not -n: -MinInt64 overflows
		return s
	}
	return strings.Join(parts[int64(len(parts))+n:], delim)
}

// formatNumber is FORMAT(x, d): rounded to d (0..30) decimals, with ','
// between thousands. A DECIMAL's or an integer's tie rounds away from
// zero; a DOUBLE's as MySQL's my_double_round rounds it, rint(x * 10^d) /
// 10^d, to even: FORMAT(2.5e0, 0) is 2, FORMAT(0.125e0, 2) 0.12.
func formatNumber(t columnar.Type, x val, d int64) string {
	d = min(max(d, 0), 30)
	var s string
	switch t.ID {
	case columnar.Float64:
		m := math.Pow10(int(d))
		r := math.RoundToEven(x.f*m) / m
		if math.IsInf(x.f*m, 0) {
			r = x.f
		}
		s = strconv.FormatFloat(r, 'f', int(d), 64)
	default:
		sc := int64(t.DecimalScale())
		v := x.i
		if d < sc {
			v = divRound(v, pow10(int(sc-d)))
			sc = d
		}
		s = strconv.FormatInt(v, 10)
		if t.IsBigUnsigned() {
			s = strconv.FormatUint(uint64(v), 10)
		}
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		for int64(len(s)) <= sc {
			s = "0" + s
		}
		if sc > 0 {
			s = s[:int64(len(s))-sc] + "." + s[int64(len(s))-sc:]
		}
		if frac := d - sc; frac > 0 {
			if sc == 0 {
				s += "."
			}
			s += strings.Repeat("0", int(frac))
		}
		if neg {
			s = "-" + s
		}
	}
	return groupThousands(s)
}

func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(c)
	}
	if hasFrac {
		sb.WriteString("." + frac)
	}
	return sb.String()
}

// MySQL's week modes (sql/time.cc): bit 0 Monday first, bit 1 the week
// belongs to the year it mostly lies in (range 1-53), bit 2 week 1 is the
// first with a first-weekday rather than four days.
const (
	weekMondayFirst  = 1
	weekYear         = 2
	weekFirstWeekday = 4
)

func weekMode(mode int64) int64 {
	f := mode & 7
	if f&weekMondayFirst == 0 {
		f ^= weekFirstWeekday
	}
	return f
}

func daysInYear(y int64) int64 {
	if columnar.IsLeapYear(int(y)) {
		return 366
	}
	return 365
}

// calcWeek ports MySQL's calc_week: the week of a date (days since
// 1970-01-01) and the year it belongs to.
func calcWeek(days, behaviour int64) (week, year int64) {
	y, m, d := civilFromDays(days)
	// MySQL's day numbers (calc_daynr), which differ from the proleptic
	// count before 0000-03-01 (see mysqlDayNumber).
	daynr := mysqlDayNumber(days)
	first := mysqlDayNumber(daysFromCivil(y, 1, 1))
	mondayFirst := behaviour&weekMondayFirst != 0
	inYear := behaviour&weekYear != 0
	firstWeekday := behaviour&weekFirstWeekday != 0
	weekday := calcWeekday(first, !mondayFirst)
	year = y
	if m == 1 && d <= 7-weekday {
		if !inYear && ((firstWeekday && weekday != 0) || (!firstWeekday && weekday >= 4)) {
			return 0, year
		}
		inYear = true
		year--
		n := daysInYear(year)
		first -= n
		weekday = (weekday + 53*7 - n) % 7
	}
	var dd int64
	if (firstWeekday && weekday != 0) || (!firstWeekday && weekday >= 4) {
		dd = daynr - (first + (7 - weekday))
	} else {
		dd = daynr - (first - weekday)
	}
	if inYear && dd >= 52*7 {
		weekday = (weekday + daysInYear(year)) % 7
		if (!firstWeekday && weekday < 4) || (firstWeekday && weekday == 0) {
			return 1, year + 1
		}
	}
	return dd/7 + 1, year
}

// calcWeekday is MySQL's: 0 = Monday (or Sunday when sundayFirst).
func calcWeekday(daynr int64, sundayFirst bool) int64 {
	if sundayFirst {
		return (daynr + 6) % 7
	}
	return (daynr + 5) % 7
}

// hexDouble is the integer Item_func_hex writes for a DOUBLE or DECIMAL:
// rounded half away from zero, all ones at or past BIGINT UNSIGNED's top
// or BIGINT's bottom (HEX(1e20) is FFFFFFFFFFFFFFFF), and a negative one
// in two's complement as the C conversion leaves it on x86-64.
func hexDouble(v float64) uint64 {
	if math.IsNaN(v) || v <= math.MinInt64 || v >= math.MaxUint64 {
		return math.MaxUint64
	}
	r := math.Trunc(v + math.Copysign(0.5, v))
	if r < 0 {
		return uint64(int64(r))
	}
	return uint64(r)
}
