package sql

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // named zones work without the host's zoneinfo or MySQL's time zone tables

	"gpusql/storage/columnar"
)

// MySQL's time zone model. A session has a time zone (@@time_zone): an
// offset '+hh:mm', a named zone ('Europe/Paris', 'UTC') or 'SYSTEM', the
// server's zone, which for gpusql is UTC (@@system_time_zone) whatever the
// host says, so results do not depend on where gpusql runs. MySQL reads
// named zones from its mysql.time_zone* tables, which must be loaded;
// gpusql has the IANA database built in (Go's time/tzdata).
//
// TIMESTAMP columns store UTC; DATETIME stores the wall-clock value as
// written. The binder converts each TIMESTAMP column it reads from a table
// into the session zone (zone_from_utc) and the engine converts every value
// it stores into a TIMESTAMP column from the session zone to UTC, so in
// between, in plans and executors, a TIMESTAMP is a wall-clock value like
// a DATETIME. Under UTC both conversions are the identity and are left
// out, which keeps such plans as they were (the GPU executor included).
//
// Local time to UTC follows MySQL (sql/tztime.cc, TIME_to_gmt_sec): a
// local time that occurs twice (the hour repeated when clocks go back)
// is the earlier instant; one that does not occur (the hour skipped when
// clocks go forward) is the instant the clocks changed, its seconds
// dropped: in 'Europe/Paris' both '2005-03-27 02:00:00' and '02:30:00'
// are 01:00:00 UTC, shown again as '03:00:00'.

// SystemTimeZone is @@system_time_zone, the zone 'SYSTEM' names.
const SystemTimeZone = "UTC"

// TimeZone is a session time zone: Name as @@time_zone shows it and its
// rules.
type TimeZone struct {
	Name string
	Loc  *time.Location
	// fixed marks an offset zone ('+02:00'): offset µs east of UTC,
	// converted without the zone rules.
	fixed  bool
	offset int64
}

// UTCZone is the zone of a new session: 'SYSTEM', which is UTC.
var UTCZone = &TimeZone{Name: "SYSTEM", Loc: time.UTC}

// IsUTC reports whether the zone's conversions are the identity.
func (z *TimeZone) IsUTC() bool { return z == nil || z.Loc == time.UTC }

// UnknownTimeZoneError is MySQL's error 1298 for a zone it does not know.
type UnknownTimeZoneError struct{ Name string }

func (e *UnknownTimeZoneError) Error() string {
	return fmt.Sprintf("Unknown or incorrect time zone: '%s'", e.Name)
}

// MySQLError gives the REPL and the driver the code the server sends
// (ER_UNKNOWN_TIME_ZONE), so SET time_zone = 'nowhere' is ERROR 1298
// there too.
func (e *UnknownTimeZoneError) MySQLError() (uint16, string) { return 1298, e.Error() }

// ParseTimeZone reads a time_zone value: '[+-]h:mm' within MySQL's
// '-13:59'..'+14:00' (shown as '+hh:mm'), 'SYSTEM', or an IANA zone name.
func ParseTimeZone(name string) (*TimeZone, error) {
	if strings.EqualFold(name, "SYSTEM") {
		return UTCZone, nil
	}
	if name != "" && (name[0] == '+' || name[0] == '-') {
		off, ok := parseZoneOffset(name)
		if !ok {
			return nil, &UnknownTimeZoneError{name}
		}
		shown := fmt.Sprintf("%c%02d:%02d", name[0], abs(off)/3600, abs(off)%3600/60)
		if off == 0 {
			return &TimeZone{Name: shown, Loc: time.UTC}, nil
		}
		return &TimeZone{Name: shown, Loc: time.FixedZone(shown, off), fixed: true, offset: int64(off) * columnar.MicrosPerSecond}, nil
	}
	loc, ok := namedLocation(name)
	if !ok {
		return nil, &UnknownTimeZoneError{name}
	}
	return &TimeZone{Name: name, Loc: loc}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// parseZoneOffset reads '+h:mm' / '-hh:mm' as seconds east of UTC.
func parseZoneOffset(s string) (int, bool) {
	h, m, ok := strings.Cut(s[1:], ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || len(h) == 0 || len(h) > 2 || len(m) != 2 || hh < 0 || mm < 0 || mm > 59 {
		return 0, false
	}
	off := hh*3600 + mm*60
	if s[0] == '-' {
		off = -off
	}
	if off > 14*3600 || off < -(13*3600+59*60) {
		return 0, false
	}
	return off, true
}

// locations caches named zones (nil: unknown name).
var locations sync.Map

func namedLocation(name string) (*time.Location, bool) {
	if l, ok := locations.Load(name); ok {
		loc, _ := l.(*time.Location)
		return loc, loc != nil
	}
	var loc *time.Location
	// "Local" and "" are Go's names for the host's zone, not IANA's.
	// MySQL's zone tables compare names case-insensitively; the IANA
	// names are mostly upper case ('UTC', 'MET') or capitalized words.
	for _, n := range []string{name, strings.ToUpper(name), capitalizeWords(name)} {
		if l, err := time.LoadLocation(n); err == nil && n != "" && !strings.EqualFold(n, "Local") && !strings.ContainsAny(n, " \\") {
			loc = l
			break
		}
	}
	locations.Store(name, loc)
	return loc, loc != nil
}

// capitalizeWords writes each word of a zone name (between '/', '_' and
// '-') with a capital: 'europe/paris' is 'Europe/Paris'.
func capitalizeWords(s string) string {
	b := []byte(strings.ToLower(s))
	for i := range b {
		if (i == 0 || b[i-1] == '/' || b[i-1] == '_' || b[i-1] == '-') && b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

// zonesByName caches ZoneNamed, which executors call per row.
var zonesByName sync.Map

// ZoneNamed is a zone argument read as a time_zone value (CONVERT_TZ's,
// and the session zone the binder passes to zone_from_utc/zone_to_utc):
// nil (CONVERT_TZ gives NULL, as MySQL's) for one it does not know.
func ZoneNamed(name string) *TimeZone {
	if z, ok := zonesByName.Load(name); ok {
		return z.(*TimeZone)
	}
	z, err := ParseTimeZone(strings.TrimSpace(name))
	if err != nil {
		z = nil
	}
	zonesByName.Store(name, z)
	return z
}

// FromUTC is the wall-clock DATETIME value in z of the UTC instant us
// (microseconds since the epoch).
func (z *TimeZone) FromUTC(us int64) int64 {
	if z.IsUTC() {
		return us
	}
	if z.fixed {
		return us + z.offset
	}
	secs := floorDiv(us, columnar.MicrosPerSecond)
	_, off := time.Unix(secs, 0).In(z.Loc).Zone()
	return us + int64(off)*columnar.MicrosPerSecond
}

// ToUTC is the UTC instant of the wall-clock value us in z, resolving
// repeated and skipped local times as MySQL does (see the top of the file).
func (z *TimeZone) ToUTC(us int64) int64 {
	if z.IsUTC() {
		return us
	}
	if z.fixed {
		return us - z.offset
	}
	local := floorDiv(us, columnar.MicrosPerSecond)
	frac := us - local*columnar.MicrosPerSecond
	// The offsets in force a day either side cover any one transition.
	offBefore := offsetAt(z.Loc, local-86400)
	offAfter := offsetAt(z.Loc, local+86400)
	best, found := int64(0), false
	for _, off := range []int64{offBefore, offAfter} {
		u := local - off
		if offsetAt(z.Loc, u) == off && (!found || u < best) {
			best, found = u, true
		}
	}
	if found {
		return best*columnar.MicrosPerSecond + frac
	}
	// A skipped local time: the instant the offset changed, which lies
	// after the time read with the new offset.
	_, end := time.Unix(local-offAfter, 0).In(z.Loc).ZoneBounds()
	if end.IsZero() {
		return (local - offBefore) * columnar.MicrosPerSecond
	}
	return end.Unix() * columnar.MicrosPerSecond
}

func offsetAt(loc *time.Location, secs int64) int64 {
	_, off := time.Unix(secs, 0).In(loc).Zone()
	return int64(off)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// ConvertTZ is CONVERT_TZ(dt, from, to): dt read in from, shown in to.
// As in MySQL, a dt whose UTC instant lies outside TIMESTAMP's range is
// returned unconverted.
func ConvertTZ(dt int64, from, to *TimeZone) int64 {
	u := from.ToUTC(dt)
	if u < columnar.MinTimestamp || u > columnar.MaxTimestamp {
		return dt
	}
	return to.FromUTC(u)
}
