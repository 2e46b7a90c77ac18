package cpu

import (
	"strings"
	"time"

	"gpusql/storage/columnar"
)

// strToDate is STR_TO_DATE(s, format) as MySQL 8's extract_date_time reads
// it (MySQL 8.0 manual, "Date and Time Functions", STR_TO_DATE): spaces in
// s are skipped before each element of format and spaces in format match
// nothing; literal characters must match; numbers take up to their
// field's width of digits; %p (AM/PM) or a 12-hour specifier needs an hour
// 1-12; reading stops when s ends (the rest of format is ignored:
// STR_TO_DATE('9', '%m%d') reads the month alone) and text left after the
// format is ignored, noting cut (MySQL's warning 1292 "Truncated
// incorrect ... value") when it holds more than spaces. Parts not read
// are zero.
//
// The result is the value of type t (the binder's strToDateType): a TIME
// of the time of day, or a DATE / DATETIME, which must exist: a zero month
// or day (a part not read) makes it NULL, as MySQL 8's default sql_mode
// (NO_ZERO_IN_DATE, NO_ZERO_DATE) has it. ok is false for NULL.
func strToDate(s, format string, t columnar.Type) (us int64, ok, cut bool) {
	p := strToDateParser{s: s, weeks: weekFields{week: -1, strictYear: -1}}
	for k := 0; k < len(format) && p.i < len(s); k++ {
		p.skipSpaces()
		if p.i >= len(s) {
			break
		}
		c := format[k]
		switch {
		case c == '%' && k+1 < len(format):
			k++
			if !p.field(format[k]) {
				return 0, false, false
			}
		case c == ' ' || c == '\t' || c == '\n':
		case s[p.i] != c:
			return 0, false, false
		default:
			p.i++
		}
	}
	cut = strings.TrimLeft(s[p.i:], " \t\n\r\v\f") != ""
	us, ok = p.result(t)
	return us, ok, cut
}

type strToDateParser struct {
	s                         string
	i                         int
	y, m, d, yearDay          int64
	h, mi, sec, micro         int64
	pm, twelveHour, hasAMorPM bool
	weeks                     weekFields
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
		start := p.i
		if p.y, ok = p.num(4); ok && p.i-start <= 2 {
			p.y = twoDigitYear(p.y)
		}
	case 'y':
		p.y, ok = p.num(2)
		p.y = twoDigitYear(p.y)
	case 'm', 'c':
		p.m, ok = p.num(2)
	case 'd', 'e':
		p.d, ok = p.num(2)
	case 'D':
		// The day, then its suffix (1st, 2nd, 23rd): two characters
		// skipped, whatever they are.
		if p.d, ok = p.num(2); ok {
			p.i = min(p.i+2, len(p.s))
		}
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
		p.m, ok = checkWord(monthNames(spec == 'b'), p.s, &p.i)
	case 'p':
		ok = p.ampm()
	case 'T':
		return p.field('H') && p.lit(':') && p.field('i') && p.lit(':') && p.field('s')
	case 'r':
		return p.field('h') && p.lit(':') && p.field('i') && p.lit(':') && p.field('s') && p.skipSpaces() && p.field('p')
	case '%':
		ok = p.lit('%')
	default:
		ok, _ = p.weekField(spec)
	}
	return ok
}

// twoDigitYear is MySQL's rule: 70-99 are 1970-1999, 00-69 2000-2069.
func twoDigitYear(y int64) int64 {
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

func (p *strToDateParser) lit(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *strToDateParser) skipSpaces() bool {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
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

func (p *strToDateParser) result(t columnar.Type) (int64, bool) {
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
	if t.ID == columnar.Time {
		return tod, true
	}
	if days, set, ok := p.weekDay(); set {
		return days*columnar.MicrosPerDay + tod, ok
	}
	if p.yearDay > 0 {
		ok := p.y >= 0 && p.y <= 9999 && p.yearDay <= 366
		return (daysFromCivil(p.y, 1, 1)+p.yearDay-1)*columnar.MicrosPerDay + tod, ok
	}
	if !validDate(p.y, p.m, p.d) {
		return 0, false
	}
	return daysFromCivil(p.y, p.m, p.d)*columnar.MicrosPerDay + tod, true
}

// monthNames are the months' English names, or their first three letters.
func monthNames(abbrev bool) []string {
	names := make([]string, 12)
	for i := range names {
		names[i] = time.Month(i + 1).String()
		if abbrev {
			names[i] = names[i][:3]
		}
	}
	return names
}
