package cpu

import (
	"fmt"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// Dates are int32 days since 1970-01-01 (proleptic Gregorian). The civil
// conversions are Howard Hinnant's days_from_civil / civil_from_days.

func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return
}

func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func validDate(y, m, d int64) bool {
	if m < 1 || m > 12 || d < 1 || y < 0 || y > 9999 {
		return false
	}
	return d <= daysInMonth(y, m)
}

func daysInMonth(y, m int64) int64 {
	return int64(columnar.DaysInMonth(int(y), int(m)))
}

func formatDate(days int64) string {
	y, m, d := civilFromDays(days)
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

// parseDate reads 'YYYY-MM-DD' (optionally followed by a time, which is
// ignored) or 'YYYYMMDD'.
func parseDate(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " T"); i >= 0 {
		s = s[:i]
	}
	var y, m, d int64
	if parts := strings.Split(s, "-"); len(parts) == 3 {
		var err1, err2, err3 error
		y, err1 = strconv.ParseInt(parts[0], 10, 64)
		m, err2 = strconv.ParseInt(parts[1], 10, 64)
		d, err3 = strconv.ParseInt(parts[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return 0, false
		}
	} else if len(s) == 8 {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		y, m, d = v/10000, v/100%100, v%100
	} else {
		return 0, false
	}
	if !validDate(y, m, d) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

func dateToNumber(days int64) int64 {
	y, m, d := civilFromDays(days)
	return y*10000 + m*100 + d
}
