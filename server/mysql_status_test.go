package server

import (
	"testing"
)

// TestMySQLStatus: SHOW STATUS over the wire counts the connection's own
// statements and bytes, SHOW GLOBAL STATUS every connection's, and
// Threads_connected the sessions open; SHOW GLOBAL VARIABLES gives the
// global time zone where the session's differs.
func TestMySQLStatus(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table s (x int);`)
	a := open(t, addr, "admin", "secret", "")
	a.SetMaxOpenConns(1)
	b := open(t, addr, "admin", "secret", "")
	b.SetMaxOpenConns(1)
	for _, q := range []string{"insert into s values (1)", "select * from s", "select * from s"} {
		if _, err := a.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Exec("select 1"); err != nil {
		t.Fatal(err)
	}
	read := func(q string, conn int) map[string]int64 {
		t.Helper()
		db := a
		if conn == 1 {
			db = b
		}
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		m := map[string]int64{}
		for rows.Next() {
			var k string
			var v int64
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			m[k] = v
		}
		return m
	}
	own := read("show status", 0)
	if own["Com_select"] != 2 || own["Com_insert"] != 1 || own["Questions"] < 4 {
		t.Errorf("session counters %v: want Com_select 2, Com_insert 1, Questions at least 4", own)
	}
	if own["Bytes_received"] < int64(len("select * from s")) || own["Bytes_sent"] == 0 {
		t.Errorf("session bytes: received %d, sent %d", own["Bytes_received"], own["Bytes_sent"])
	}
	all := read("show global status", 1)
	if all["Com_select"] < 3 || all["Threads_connected"] != 2 || all["Connections"] < 2 || all["Bytes_received"] <= own["Bytes_received"] {
		t.Errorf("global counters %v: want Com_select >= 3, Threads_connected 2, more bytes than one session's %d", all, own["Bytes_received"])
	}
	if got := read("show status like 'com_sel%'", 1); len(got) != 1 || got["Com_select"] != 1 {
		t.Errorf("SHOW STATUS LIKE 'com_sel%%' on b: %v, want Com_select 1", got)
	}
	var name, zone string
	if _, err := a.Exec("set time_zone = '+05:00'"); err != nil {
		t.Fatal(err)
	}
	if err := a.QueryRow("show global variables like 'time_zone'").Scan(&name, &zone); err != nil || zone != "SYSTEM" {
		t.Errorf("SHOW GLOBAL VARIABLES time_zone: %q (%v), want SYSTEM", zone, err)
	}
	if err := a.QueryRow("show session variables like 'time_zone'").Scan(&name, &zone); err != nil || zone != "+05:00" {
		t.Errorf("SHOW SESSION VARIABLES time_zone: %q (%v), want +05:00", zone, err)
	}
}
