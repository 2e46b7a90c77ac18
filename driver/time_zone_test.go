package driver

import (
	"database/sql"
	"strings"
	"testing"
)

// TestDSNTimeZone: time_zone= in the DSN is the session zone the
// database's connections start in (plain or URL-escaped); an unknown zone
// fails at ParseDSN with MySQL's message.
func TestDSNTimeZone(t *testing.T) {
	for _, dsn := range []string{"executor=cpu;time_zone=+02:00", "executor=cpu&time_zone=%2B02%3A00"} {
		db, err := sql.Open("gpusql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		var zone, ts, utc string
		err = db.QueryRow("select @@time_zone").Scan(&zone)
		if err != nil || zone != "+02:00" {
			t.Errorf("%s: @@time_zone %q (%v), want +02:00", dsn, zone, err)
		}
		if _, err := db.Exec("create table ev (ts timestamp); insert into ev values ('2024-07-01 12:00:00')"); err != nil {
			t.Fatal(err)
		}
		// 12:00 in +02:00 is stored as 10:00 UTC.
		err = db.QueryRow("select date_format(ts, '%Y-%m-%d %H:%i:%s'), date_format(convert_tz(ts, '+02:00', '+00:00'), '%H:%i') from ev").Scan(&ts, &utc)
		if err != nil || ts != "2024-07-01 12:00:00" || utc != "10:00" {
			t.Errorf("%s: read %q, %q (%v), want 2024-07-01 12:00:00, 10:00", dsn, ts, utc, err)
		}
		db.Close()
	}
	if _, err := ParseDSN("time_zone=Mars/Olympus"); err == nil || !strings.Contains(err.Error(), "Unknown or incorrect time zone: 'Mars/Olympus'") {
		t.Errorf("time_zone=Mars/Olympus: %v", err)
	}
}
