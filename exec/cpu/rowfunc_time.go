package cpu

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// timeBodies are the TIME functions of sql/functions_time.go. TIME values
// are signed int64 microseconds.
var timeBodies = map[string]func(f *rowFunc, a []val) val{
	"time_hour":        func(f *rowFunc, a []val) val { _, h, _, _, _ := columnar.TimeParts(a[0].i); return iv(int64(h)) },
	"time_minute":      func(f *rowFunc, a []val) val { _, _, mi, _, _ := columnar.TimeParts(a[0].i); return iv(int64(mi)) },
	"time_second":      func(f *rowFunc, a []val) val { _, _, _, s, _ := columnar.TimeParts(a[0].i); return iv(int64(s)) },
	"time_microsecond": func(f *rowFunc, a []val) val { _, _, _, _, us := columnar.TimeParts(a[0].i); return iv(int64(us)) },
	"time_seconds":     func(f *rowFunc, a []val) val { return iv(a[0].i / columnar.MicrosPerSecond) },
	"maketime": func(f *rowFunc, a []val) val {
		h, m, s := a[0].i, a[1].i, a[2].i // s: DECIMAL(18,6), microseconds
		if m < 0 || m > 59 || s < 0 || s >= 60*columnar.MicrosPerSecond {
			return nullVal
		}
		mag := max(min(h, 839), -839) // past the limit anyway; keeps the product small (and -h of MinInt64 out)
		if mag < 0 {
			mag = -mag
		}
		us := (mag*3600+m*60)*columnar.MicrosPerSecond + s
		if us > columnar.MaxTime {
			return timeOverflow(f, h < 0, makeTimeText(h, m, s, f.t.Scale))
		}
		if h < 0 {
			us = -us
		}
		return iv(clampTime(columnar.RoundTime(us, f.t.Scale)))
	},
	"time_add": func(f *rowFunc, a []val) val {
		v := a[0].i + a[2].i*a[1].i
		if f.t.ID == columnar.Time {
			return iv(clampTimeWarn(f, columnar.RoundTime(v, f.t.Scale), 0))
		}
		if v < columnar.MinDatetime || v > columnar.MaxDatetime {
			return nullVal
		}
		return iv(v)
	},
	"time_interval": func(f *rowFunc, a []val) val {
		v, ok := sql.AddTime(a[0].i, a[1].i, a[2].s)
		if !ok {
			f.warn.Add(sql.WarnDatetimeOverflow, sql.TimeOverflowText)
			return nullVal
		}
		return iv(columnar.RoundTime(v, f.t.Scale))
	},
	"time_format": func(f *rowFunc, a []val) val {
		s, ok := timeFormat(a[0].i, a[1].s)
		if !ok {
			return nullVal
		}
		return sv(s)
	},
}

// clampTime limits a TIME result to ±838:59:59, as MySQL does (with a
// warning) for computed times.
func clampTime(us int64) int64 { return max(min(us, columnar.MaxTime), -columnar.MaxTime) }

// clampTimeWarn is clampTime noting 1292 with the value past the range,
// printed with fsp digits (MySQL's adjust_time_range_with_warn: ADDTIME
// passes 0, TIMEDIFF its result's digits).
func clampTimeWarn(f *rowFunc, us int64, fsp int) int64 {
	if columnar.InTimeRange(us) {
		return us
	}
	return timeOverflow(f, us < 0, columnar.FormatTime(us, fsp)).i
}

// timeFormat is MySQL's TIME_FORMAT, DATE_FORMAT of a time whose year,
// month and day are 0 (Item_func_date_format): hours past 23 print in
// full; %Y %y %m %c %d %e print zeros; the specifiers that need a real
// date (%M %b %W %a %w %D %j %U %u %V %v %X %x) make the result NULL, as
// does an empty format; any other letter prints itself (%Q is Q).
func timeFormat(us int64, format string) (string, bool) {
	if format == "" {
		return "", false
	}
	neg, h, mi, s, micro := columnar.TimeParts(us)
	h12 := (h%24+11)%12 + 1
	ampm := "AM"
	if h%24 >= 12 {
		ampm = "PM"
	}
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'H':
			fmt.Fprintf(&sb, "%02d", h)
		case 'k':
			fmt.Fprintf(&sb, "%d", h)
		case 'h', 'I':
			fmt.Fprintf(&sb, "%02d", h12)
		case 'l':
			fmt.Fprintf(&sb, "%d", h12)
		case 'i':
			fmt.Fprintf(&sb, "%02d", mi)
		case 's', 'S':
			fmt.Fprintf(&sb, "%02d", s)
		case 'f':
			fmt.Fprintf(&sb, "%06d", micro)
		case 'p':
			sb.WriteString(ampm)
		case 'r':
			fmt.Fprintf(&sb, "%02d:%02d:%02d %s", h12, mi, s, ampm)
		case 'T':
			fmt.Fprintf(&sb, "%02d:%02d:%02d", h, mi, s)
		case 'Y':
			sb.WriteString("0000")
		case 'y', 'm', 'd':
			sb.WriteString("00")
		case 'c', 'e':
			sb.WriteByte('0')
		case 'M', 'b', 'W', 'a', 'w', 'D', 'j', 'U', 'u', 'V', 'v', 'X', 'x':
			return "", false
		default:
			sb.WriteByte(format[i])
		}
	}
	return sb.String(), true
}

// secToTime is SEC_TO_TIME(n): n seconds (an integer, a DECIMAL of up
// to 6 fraction digits or a DOUBLE) as a TIME. Past ±838:59:59 it is the
// limit and MySQL's warning naming n.
func secToTime(f *rowFunc, a []val) val {
	if f.types[0].ID == columnar.Float64 {
		x := a[0].f * 1e6
		if math.Abs(x) <= float64(columnar.MaxTime) {
			return iv(columnar.RoundTime(int64(math.Round(x)), f.t.Scale))
		}
		return timeOverflow(f, x < 0, strconv.FormatFloat(a[0].f, 'f', -1, 64))
	}
	scale := f.types[0].DecimalScale()
	lim := columnar.MaxTime / pow10(columnar.MaxFsp-scale) // MaxTime at n's scale
	if a[0].i > lim || a[0].i < -lim {
		return timeOverflow(f, a[0].i < 0, formatDecimal(a[0].i, scale))
	}
	return iv(a[0].i * pow10(columnar.MaxFsp-scale))
}

// makeTimeText is MAKETIME's arguments as MySQL's warning shows the time
// they make: h:mm:ss with the result's fraction digits.
func makeTimeText(h, m, s int64, scale int) string {
	text := fmt.Sprintf("%d:%02d:%02d", h, m, s/columnar.MicrosPerSecond)
	if scale > 0 {
		frac := fmt.Sprintf("%06d", s%columnar.MicrosPerSecond)
		text += "." + frac[:scale]
	}
	return text
}

// timeOverflow is ±838:59:59 for a value past TIME's range, with the
// warning MySQL's make_truncated_value_warning gives.
func timeOverflow(f *rowFunc, neg bool, text string) val {
	f.warn.Add(sql.WarnTruncatedValue, "Truncated incorrect time value: '"+text+"'")
	if neg {
		return iv(-columnar.MaxTime)
	}
	return iv(columnar.MaxTime)
}
