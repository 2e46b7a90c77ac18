package sql

import (
	"testing"
	"time"

	"gpusql/storage/columnar"
)

// TestTimeZoneConversions checks ToUTC and FromUTC against Go's own rules
// at every quarter hour of 2024 in zones with and without daylight saving
// (a brute-force oracle): FromUTC is time.In's wall clock; ToUTC inverts
// it, taking the earlier instant of a repeated local time and the instant
// of the change for a skipped one (MySQL's rule).
func TestTimeZoneConversions(t *testing.T) {
	for _, name := range []string{"Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "+05:45", "-13:59", "UTC"} {
		z, err := ParseTimeZone(name)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		for s := start; s < start+366*86400; s += 900 {
			u := s*columnar.MicrosPerSecond + 123
			local := z.FromUTC(u)
			w := time.Unix(s, 0).In(z.Loc)
			want := columnar.DatetimeFromParts(w.Year(), int(w.Month()), w.Day(), w.Hour(), w.Minute(), w.Second(), 123)
			if local != want {
				t.Fatalf("%s: FromUTC(%s) = %s, want %s", name, columnar.FormatDatetime(u, 6), columnar.FormatDatetime(local, 6), columnar.FormatDatetime(want, 6))
			}
			back := z.ToUTC(local)
			if back > u {
				t.Fatalf("%s: ToUTC(FromUTC(%s)) = %s, a later instant", name, columnar.FormatDatetime(u, 6), columnar.FormatDatetime(back, 6))
			}
			if z.FromUTC(back) != local {
				t.Fatalf("%s: ToUTC(%s) = %s does not read back", name, columnar.FormatDatetime(local, 6), columnar.FormatDatetime(back, 6))
			}
		}
	}
	// Europe/Paris 2024: clocks forward at 01:00 UTC on 03-31 (02:00 -> 03:00
	// local), back at 01:00 UTC on 10-27 (03:00 -> 02:00 local).
	paris, _ := ParseTimeZone("Europe/Paris")
	at := func(s string) int64 {
		us, ok := columnar.ParseDatetime(s, 6)
		if !ok {
			t.Fatalf("bad datetime %s", s)
		}
		return us
	}
	for _, c := range []struct{ local, utc string }{
		{"2024-03-31 02:00:00", "2024-03-31 01:00:00"}, // skipped: the change
		{"2024-03-31 02:59:59", "2024-03-31 01:00:00"},
		{"2024-03-31 03:00:00", "2024-03-31 01:00:00"},
		{"2024-10-27 02:30:00", "2024-10-27 00:30:00"}, // repeated: the earlier
		{"2024-10-27 03:00:00", "2024-10-27 02:00:00"},
		{"2024-07-01 12:00:00.5", "2024-07-01 10:00:00.5"},
	} {
		if got := paris.ToUTC(at(c.local)); got != at(c.utc) {
			t.Errorf("Paris ToUTC(%s) = %s, want %s", c.local, columnar.FormatDatetime(got, 6), c.utc)
		}
	}
}

// TestParseTimeZone: MySQL's forms and its error 1298.
func TestParseTimeZone(t *testing.T) {
	for in, want := range map[string]string{"+2:00": "+02:00", "-05:30": "-05:30", "+14:00": "+14:00", "SYSTEM": "SYSTEM",
		"system": "SYSTEM", "UTC": "UTC", "europe/paris": "europe/paris", "+00:00": "+00:00"} {
		z, err := ParseTimeZone(in)
		if err != nil || z.Name != want {
			t.Errorf("ParseTimeZone(%q) = %v, %v; want %s", in, z, err, want)
		}
	}
	for _, bad := range []string{"+14:01", "-14:00", "+2", "+02:60", "Mars/Olympus", "", "Local", "+02:00:00", "../etc/passwd"} {
		if _, err := ParseTimeZone(bad); err == nil || err.Error() != "Unknown or incorrect time zone: '"+bad+"'" {
			t.Errorf("ParseTimeZone(%q): %v", bad, err)
		}
	}
}
