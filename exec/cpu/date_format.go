package cpu

import (
	"fmt"
	"strings"
	"time"
)

// dateFormat is MySQL's DATE_FORMAT for a DATE: time-of-day specifiers
// read midnight. An unknown specifier %x prints x, as MySQL does.
func dateFormat(days int64, format string) string {
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
		case 'v', 'x':
			t := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
			iy, iw := t.ISOWeek()
			if format[i] == 'v' {
				fmt.Fprintf(&sb, "%02d", iw)
			} else {
				fmt.Fprintf(&sb, "%04d", iy)
			}
		case 'H', 'i', 's', 'S':
			sb.WriteString("00")
		case 'k':
			sb.WriteString("0")
		case 'h', 'I':
			sb.WriteString("12")
		case 'l':
			sb.WriteString("12")
		case 'p':
			sb.WriteString("AM")
		case 'f':
			sb.WriteString("000000")
		case 'T':
			sb.WriteString("00:00:00")
		case 'r':
			sb.WriteString("12:00:00 AM")
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

// strToDate is STR_TO_DATE for a DATE result: literal characters must
// match, numbers take up to their field's width of digits, time-of-day
// fields are read and ignored, and trailing text is ignored. ok is false
// when s does not match or the date does not exist.
func strToDate(s, format string) (int64, bool) {
	y, m, d := int64(0), int64(1), int64(1)
	yearDay := int64(0)
	i := 0
	num := func(width int) (int64, bool) {
		j := i
		for j < len(s) && j-i < width && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return 0, false
		}
		var v int64
		for _, c := range s[i:j] {
			v = v*10 + int64(c-'0')
		}
		i = j
		return v, true
	}
	for k := 0; k < len(format); k++ {
		c := format[k]
		if c != '%' || k+1 == len(format) {
			if i >= len(s) || s[i] != c {
				return 0, false
			}
			i++
			continue
		}
		k++
		var ok bool
		switch format[k] {
		case 'Y':
			y, ok = num(4)
		case 'y':
			if y, ok = num(2); y < 70 {
				y += 2000
			} else {
				y += 1900
			}
		case 'm', 'c':
			m, ok = num(2)
		case 'd', 'e':
			d, ok = num(2)
		case 'j':
			yearDay, ok = num(3)
		case 'H', 'k', 'h', 'I', 'l', 'i', 's', 'S':
			_, ok = num(2)
		case 'f':
			_, ok = num(6)
		case 'M', 'b':
			m, ok = monthName(s, &i, format[k] == 'b')
		case 'p':
			if ok = i+2 <= len(s); ok {
				i += 2
			}
		case '%':
			if ok = i < len(s) && s[i] == '%'; ok {
				i++
			}
		default:
			return 0, false
		}
		if !ok {
			return 0, false
		}
	}
	if yearDay > 0 {
		return daysFromCivil(y, 1, 1) + yearDay - 1, y >= 0 && y <= 9999 && yearDay <= 366
	}
	if !validDate(y, m, d) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

// monthName reads a month's English name (or its first three letters) at
// s[*i:], case-insensitively.
func monthName(s string, i *int, abbrev bool) (int64, bool) {
	for mo := time.January; mo <= time.December; mo++ {
		name := mo.String()
		if abbrev {
			name = name[:3]
		}
		if len(s)-*i >= len(name) && strings.EqualFold(s[*i:*i+len(name)], name) {
			*i += len(name)
			return int64(mo), true
		}
	}
	return 0, false
}
