package cpu

import (
	"strings"
	"time"
)

// STR_TO_DATE's names and week numbers, as MySQL 8's extract_date_time
// reads them. A weekday (%a, %W, %w) alone changes nothing; with a week
// number (%U, %u, %V, %v) it names one day of the year's weeks, which
// replaces the year, month and day read so far:
//
//	%U, %u   the week of %Y, weeks starting on Sunday (%U) or Monday (%u)
//	%V, %v   the same, in the year of %X (%V) or %x (%v), which they need
//
// so STR_TO_DATE('Monday 1 2024', '%W %v %x') is 2024-01-01, while
// STR_TO_DATE('1 2024', '%v %x') (no weekday) is NULL for want of a day.

// weekFields are the parser's week number state; week and strictYear are
// -1 until read.
type weekFields struct {
	weekday                  int64 // 1 Monday .. 7 Sunday; 0 when not read
	week                     int64
	sundayFirst, strictWeek  bool
	strictYear               int64
	strictYearSundayFirst    bool
	weekNumberRead, yearRead bool
}

// weekField reads %a, %W, %w, %U, %u, %V, %v, %X or %x; known is false
// for any other specifier.
func (p *strToDateParser) weekField(spec byte) (ok, known bool) {
	w := &p.weeks
	switch spec {
	case 'a', 'W':
		names := weekdayNames(spec == 'a')
		w.weekday, ok = checkWord(names, p.s, &p.i)
	case 'w':
		var n int64
		if n, ok = p.num(1); ok && n < 7 {
			w.weekday = (n+6)%7 + 1 // 0 is Sunday, 7 on %W's scale
		}
		ok = ok && n < 7
	case 'U', 'u', 'V', 'v':
		w.sundayFirst = spec == 'U' || spec == 'V'
		w.strictWeek = spec == 'V' || spec == 'v'
		w.week, ok = p.num(2)
		ok = ok && w.week <= 53 && !(w.strictWeek && w.week == 0)
		w.weekNumberRead = ok
	case 'X', 'x':
		w.strictYearSundayFirst = spec == 'X'
		w.strictYear, ok = p.num(4)
		w.yearRead = ok
	default:
		return false, false
	}
	return ok, true
}

// weekDay is the day (since 1970-01-01) the week number and weekday name,
// or ok false where they cannot (a %V without %X, a %U with one, a day
// outside years 0-9999); set is false where there is no such pair.
func (p *strToDateParser) weekDay() (days int64, set, ok bool) {
	w := &p.weeks
	if !w.weekNumberRead || w.weekday == 0 {
		return 0, false, true
	}
	if (w.strictWeek && (!w.yearRead || w.strictYearSundayFirst != w.sundayFirst)) ||
		(!w.strictWeek && w.yearRead) {
		return 0, true, false
	}
	y := p.y
	if w.strictWeek {
		y = w.strictYear
	}
	jan1 := daysFromCivil(y, 1, 1)
	first := weekdayOf(jan1) // Monday 0
	if w.sundayFirst {
		first = (first + 1) % 7 // Sunday 0
		days = jan1 + (w.week-1)*7 + w.weekday%7 - first
		if first != 0 {
			days += 7
		}
	} else {
		days = jan1 + (w.week-1)*7 + w.weekday - 1 - first
		if first > 3 {
			days += 7
		}
	}
	ry, _, _ := civilFromDays(days)
	return days, true, ry >= 0 && ry <= 9999
}

func weekdayNames(abbrev bool) []string {
	names := make([]string, 7)
	for i := range names {
		n := time.Weekday((i + 1) % 7).String() // Monday first
		if abbrev {
			n = n[:3]
		}
		names[i] = n
	}
	return names
}

// checkWord is MySQL's check_word: the letters at s[*i:] name one of
// names, exactly or as the start of only one of them (case aside); the
// result is its 1-based position.
func checkWord(names []string, s string, i *int) (int64, bool) {
	j := *i
	for j < len(s) && (s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z') {
		j++
	}
	word := s[*i:j]
	if word == "" {
		return 0, false
	}
	found := 0
	for k, n := range names {
		if len(word) > len(n) || !strings.EqualFold(word, n[:len(word)]) {
			continue
		}
		if len(word) == len(n) {
			found = k + 1
			break
		}
		if found != 0 {
			return 0, false // the start of two names
		}
		found = k + 1
	}
	if found == 0 {
		return 0, false
	}
	*i = j
	return int64(found), true
}
