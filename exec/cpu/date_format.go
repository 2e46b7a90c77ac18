package cpu

import (
	"fmt"
	"strings"
	"time"

	"gpusql/storage/columnar"
)

// datetimeFormat is MySQL's DATE_FORMAT of a datetime (microseconds since
// the epoch; a DATE is its midnight). An unknown specifier %x prints x, as
// MySQL does.
func datetimeFormat(us int64, format string) string {
	days := columnar.DatetimeDays(us)
	_, _, _, hh, mi, ss, micro := columnar.DatetimeParts(us)
	h12 := (hh+11)%12 + 1
	ampm := "AM"
	if hh >= 12 {
		ampm = "PM"
	}
	y, m, d := civilFromDays(days)
	wd := weekdayOf(days) // 0 = Monday
	yd := yearDay(days)
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			fmt.Fprintf(&sb, "%04d", y)
		case 'y':
			fmt.Fprintf(&sb, "%02d", y%100)
		case 'm':
			fmt.Fprintf(&sb, "%02d", m)
		case 'c':
			fmt.Fprintf(&sb, "%d", m)
		case 'd':
			fmt.Fprintf(&sb, "%02d", d)
		case 'e':
			fmt.Fprintf(&sb, "%d", d)
		case 'D':
			fmt.Fprintf(&sb, "%d%s", d, ordinal(d))
		case 'M':
			sb.WriteString(time.Month(m).String())
		case 'b':
			sb.WriteString(time.Month(m).String()[:3])
		case 'W':
			sb.WriteString(time.Weekday((wd + 1) % 7).String())
		case 'a':
			sb.WriteString(time.Weekday((wd + 1) % 7).String()[:3])
		case 'w':
			fmt.Fprintf(&sb, "%d", (wd+1)%7)
		case 'j':
			fmt.Fprintf(&sb, "%03d", yd)
		case 'U':
			fmt.Fprintf(&sb, "%02d", (yd-1+7-(wd+1)%7)/7)
		case 'u':
			fmt.Fprintf(&sb, "%02d", mondayWeek(y, yd))
		case 'V', 'X': // Sunday-first weeks of the year they mostly lie in (MySQL's make_date_time)
			w, wy := calcWeek(days, weekYear|weekFirstWeekday)
			if format[i] == 'V' {
				fmt.Fprintf(&sb, "%02d", w)
			} else {
				fmt.Fprintf(&sb, "%04d", wy)
			}
		case 'v', 'x':
			t := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
			iy, iw := t.ISOWeek()
			if format[i] == 'v' {
				fmt.Fprintf(&sb, "%02d", iw)
			} else {
				fmt.Fprintf(&sb, "%04d", iy)
			}
		case 'H':
			fmt.Fprintf(&sb, "%02d", hh)
		case 'k':
			fmt.Fprintf(&sb, "%d", hh)
		case 'h', 'I':
			fmt.Fprintf(&sb, "%02d", h12)
		case 'l':
			fmt.Fprintf(&sb, "%d", h12)
		case 'i':
			fmt.Fprintf(&sb, "%02d", mi)
		case 's', 'S':
			fmt.Fprintf(&sb, "%02d", ss)
		case 'p':
			sb.WriteString(ampm)
		case 'f':
			fmt.Fprintf(&sb, "%06d", micro)
		case 'T':
			fmt.Fprintf(&sb, "%02d:%02d:%02d", hh, mi, ss)
		case 'r':
			fmt.Fprintf(&sb, "%02d:%02d:%02d %s", h12, mi, ss, ampm)
		default:
			sb.WriteByte(format[i])
		}
	}
	return sb.String()
}

func ordinal(d int64) string {
	if d/10 == 1 {
		return "th"
	}
	switch d % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// mondayWeek is %u (WEEK mode 1): weeks start on Monday, week 1 is the
// first with four or more days in the year, earlier days are week 0.
func mondayWeek(y, yd int64) int64 {
	jan1 := weekdayOf(daysFromCivil(y, 1, 1))
	start := -jan1 // day index (0-based) of week 1's Monday
	if jan1 > 3 {
		start = 7 - jan1
	}
	if yd-1 < start {
		return 0
	}
	return (yd-1-start)/7 + 1
}
