package server

import (
	"testing"
)

// TestMySQLTimeZone: each connection has its own time_zone (a client may
// set it in its DSN, as Go's MySQL driver sends it: SET time_zone=...); a
// TIMESTAMP written on one reads as the same instant on the other, a
// DATETIME as written; an unknown zone is error 1298.
func TestMySQLTimeZone(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table ev (id int, ts timestamp, dt datetime);`)
	paris := open(t, addr, "admin", "secret", "time_zone=%27Europe%2FParis%27")
	paris.SetMaxOpenConns(1)
	utc := open(t, addr, "admin", "secret", "")
	utc.SetMaxOpenConns(1)
	if _, err := paris.Exec("insert into ev values (1, '2024-01-15 12:00:00', '2024-01-15 12:00:00')"); err != nil {
		t.Fatal(err)
	}
	var zone, ts, dt string
	if err := paris.QueryRow("select @@time_zone, cast(ts as char), cast(dt as char) from ev").Scan(&zone, &ts, &dt); err != nil || zone != "Europe/Paris" || ts != "2024-01-15 12:00:00" || dt != "2024-01-15 12:00:00" {
		t.Errorf("Paris connection: %q %q %q (%v)", zone, ts, dt, err)
	}
	// Paris is UTC+1 in January.
	if err := utc.QueryRow("select @@time_zone, cast(ts as char), cast(dt as char) from ev").Scan(&zone, &ts, &dt); err != nil || zone != "SYSTEM" || ts != "2024-01-15 11:00:00" || dt != "2024-01-15 12:00:00" {
		t.Errorf("UTC connection: %q %q %q (%v)", zone, ts, dt, err)
	}
	_, err := utc.Exec("set time_zone = 'Nowhere/Land'")
	if mysqlCode(err) != 1298 {
		t.Errorf("unknown zone: %v (code %d), want 1298", err, mysqlCode(err))
	}
}
