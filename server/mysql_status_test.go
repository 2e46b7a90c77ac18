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

// TestMySQLWarnings: over the wire a statement's warnings come back in
// the OK packet's count and in SHOW WARNINGS, and a failed statement's
// error (a syntax error the server found too) in SHOW ERRORS with its
// MySQL code; a strict INSERT is 1366.
func TestMySQLWarnings(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (a int, s varchar(9)); insert into w values (1, '2x');`)
	db := open(t, addr, "admin", "secret", "")
	db.SetMaxOpenConns(1)
	code := func(q string) (string, int, string) {
		t.Helper()
		var level, msg string
		var c int
		if err := db.QueryRow(q).Scan(&level, &c, &msg); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return level, c, msg
	}
	// MySQL 8.0's default sql_mode has ERROR_FOR_DIVISION_BY_ZERO: the
	// UPDATE fails with 1365 (SQLSTATE 22012) and changes nothing; without
	// it the division is a warning.
	if _, err := db.Exec("update w set a = a / 0"); mysqlCode(err) != 1365 || mysqlState(err) != "22012" {
		t.Errorf("update w set a = a / 0 under the default sql_mode: %v, want error 1365 (22012)", err)
	}
	if _, err := db.Exec("set sql_mode = 'STRICT_TRANS_TABLES'"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("update w set a = a / 0"); err != nil {
		t.Fatal(err)
	}
	if l, c, m := code("show warnings"); l != "Warning" || c != 1365 || m != "Division by 0" {
		t.Errorf("after a / 0: %s %d %s", l, c, m)
	}
	if _, err := db.Exec("select * from nosuch"); mysqlCode(err) != 1146 {
		t.Fatalf("missing table: %v", err)
	}
	if l, c, _ := code("show errors"); l != "Error" || c != 1146 {
		t.Errorf("SHOW ERRORS after a missing table: %s %d, want Error 1146", l, c)
	}
	if _, err := db.Exec("selec 1"); mysqlCode(err) != 1064 {
		t.Fatalf("syntax error: %v", err)
	}
	if l, c, _ := code("show warnings"); l != "Error" || c != 1064 {
		t.Errorf("SHOW WARNINGS after a syntax error: %s %d, want Error 1064", l, c)
	}
	if _, err := db.Exec("insert into w values ('abc', 'x')"); mysqlCode(err) != 1366 {
		t.Errorf("strict INSERT of 'abc' into INT: %v (code %d), want 1366", err, mysqlCode(err))
	}
	if _, err := db.Exec("insert into w values ('12abc', 'x')"); mysqlCode(err) != 1265 {
		t.Errorf("strict INSERT of '12abc' into INT: %v (code %d), want 1265 (Data truncated)", err, mysqlCode(err))
	}
	if _, err := db.Exec("insert into w select s, s from w"); mysqlCode(err) != 1265 {
		t.Errorf("strict INSERT ... SELECT of '2x' into INT: %v (code %d), want 1265 (Data truncated)", err, mysqlCode(err))
	}
	if _, err := db.Exec("update w set a = 1 where s = 0"); mysqlCode(err) != 1292 {
		t.Errorf("strict UPDATE ... WHERE s = 0 over '2x': %v (code %d), want 1292", err, mysqlCode(err))
	}
}
