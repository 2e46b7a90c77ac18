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

// strToDatetime is STR_TO_DATE: literal characters must match, numbers
// take up to their field's width of digits, %p (AM/PM) adjusts a 12-hour
// clock, and trailing text is ignored. ok is false when s does not match
// or the date or time does not exist. The result is microseconds since the
// epoch (a DATE result takes its day).
func strToDatetime(s, format string) (int64, bool) {
	p := strToDateParser{s: s, m: 1, d: 1}
	for k := 0; k < len(format); k++ {
		c := format[k]
		if c != '%' || k+1 == len(format) {
			if p.i >= len(p.s) || p.s[p.i] != c {
				return 0, false
			}
			p.i++
			continue
		}
		k++
		if !p.field(format[k]) {
			return 0, false
		}
	}
	return p.result()
}

type strToDateParser struct {
	s                         string
	i                         int
	y, m, d, yearDay          int64
	h, mi, sec, micro         int64
	pm, twelveHour, hasAMorPM bool
}

// num reads up to width digits.
func (p *strToDateParser) num(width int) (int64, bool) {
	j := p.i
	for j < len(p.s) && j-p.i < width && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	if j == p.i {
		return 0, false
	}
	var v int64
	for _, c := range p.s[p.i:j] {
		v = v*10 + int64(c-'0')
	}
	p.i = j
	return v, true
}

// field reads one % specifier's value.
func (p *strToDateParser) field(spec byte) bool {
	var ok bool
	switch spec {
	case 'Y':
		p.y, ok = p.num(4)
	case 'y':
		if p.y, ok = p.num(2); p.y < 70 {
			p.y += 2000
		} else {
			p.y += 1900
		}
	case 'm', 'c':
		p.m, ok = p.num(2)
	case 'd', 'e':
		p.d, ok = p.num(2)
	case 'j':
		p.yearDay, ok = p.num(3)
	case 'H', 'k':
		p.h, ok = p.num(2)
	case 'h', 'I', 'l':
		p.h, ok = p.num(2)
		p.twelveHour = true
	case 'i':
		p.mi, ok = p.num(2)
	case 's', 'S':
		p.sec, ok = p.num(2)
	case 'f':
		start := p.i
		if p.micro, ok = p.num(6); ok {
			p.micro *= pow10(6 - (p.i - start))
		}
	case 'M', 'b':
		p.m, ok = monthName(p.s, &p.i, spec == 'b')
	case 'p':
		ok = p.ampm()
	case 'T':
		return p.field('H') && p.lit(':') && p.field('i') && p.lit(':') && p.field('s')
	case 'r':
		return p.field('h') && p.lit(':') && p.field('i') && p.lit(':') && p.field('s') && p.skipSpaces() && p.field('p')
	case '%':
		ok = p.lit('%')
	}
	return ok
}

func (p *strToDateParser) lit(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *strToDateParser) skipSpaces() bool {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	return true
}

func (p *strToDateParser) ampm() bool {
	if p.i+2 > len(p.s) {
		return false
	}
	switch strings.ToUpper(p.s[p.i : p.i+2]) {
	case "AM":
	case "PM":
		p.pm = true
	default:
		return false
	}
	p.i += 2
	p.hasAMorPM = true
	return true
}

func (p *strToDateParser) result() (int64, bool) {
	h := p.h
	if p.twelveHour || p.hasAMorPM {
		if h < 1 || h > 12 {
			return 0, false
		}
		h %= 12
		if p.pm {
			h += 12
		}
	}
	if h > 23 || p.mi > 59 || p.sec > 59 {
		return 0, false
	}
	tod := (h*3600+p.mi*60+p.sec)*columnar.MicrosPerSecond + p.micro
	if p.yearDay > 0 {
		ok := p.y >= 0 && p.y <= 9999 && p.yearDay <= 366
		return (daysFromCivil(p.y, 1, 1)+p.yearDay-1)*columnar.MicrosPerDay + tod, ok
	}
	if !validDate(p.y, p.m, p.d) {
		return 0, false
	}
	return daysFromCivil(p.y, p.m, p.d)*columnar.MicrosPerDay + tod, true
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
