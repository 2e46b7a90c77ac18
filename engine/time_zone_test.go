package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/sql"
)

// TestTimeZoneSessions: a TIMESTAMP written by a session in one zone reads
// as the same instant in every other session's zone, and keeps doing so
// after the database is closed and reopened; DATETIME reads as written.
// Expected values are worked by hand: 12:00 in +02:00 is 10:00 UTC, 06:00
// in America/New_York (EST, -05:00 in July, EDT -04:00).
func TestTimeZoneSessions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openAt(t, dir)
	ctx := context.Background()
	a, b := db.SessionConn(SessionOptions{}), db.SessionConn(SessionOptions{})
	for _, q := range []string{
		"create table ev (id int, ts timestamp(3), dt datetime)",
		"set time_zone = '+02:00'",
		"insert into ev values (1, '2024-07-01 12:00:00.125', '2024-07-01 12:00:00')",
	} {
		if _, err := a.Exec(ctx, q, ""); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := b.Exec(ctx, "set time_zone = 'America/New_York'", ""); err != nil {
		t.Fatal(err)
	}
	read := func(c *Conn) string {
		t.Helper()
		rs, err := c.Exec(ctx, "select ts, dt from ev", "")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(rs[0].Result.Row(0), "|")
	}
	if got, want := read(a), "2024-07-01 12:00:00.125|2024-07-01 12:00:00"; got != want {
		t.Errorf("writer reads %q, want %q", got, want)
	}
	if got, want := read(b), "2024-07-01 06:00:00.125|2024-07-01 12:00:00"; got != want {
		t.Errorf("New York reads %q, want %q", got, want)
	}
	if got, want := tableText(t, db, "select ts from ev"), "2024-07-01 10:00:00.125"; got != want {
		t.Errorf("the database's UTC session reads %q, want %q", got, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, dir)
	defer db.Close()
	mustRun(t, db, "set time_zone = 'Asia/Kolkata'")
	if got, want := tableText(t, db, "select ts, dt from ev"), "2024-07-01 15:30:00.125|2024-07-01 12:00:00"; got != want {
		t.Errorf("reopened, Kolkata reads %q, want %q", got, want)
	}
}

// TestTimeZoneGlobal: SET GLOBAL time_zone is the zone sessions opened
// afterwards start in; open sessions keep theirs. Options.TimeZone sets
// both at Open; a bad one fails Open naming it.
func TestTimeZoneGlobal(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", TimeZone: "+05:30"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	old := db.SessionConn(SessionOptions{})
	if got := old.Session().TimeZone().Name; got != "+05:30" {
		t.Errorf("a session of a +05:30 database starts in %q", got)
	}
	mustRun(t, db, "set global time_zone = 'Europe/Paris'")
	fresh := db.SessionConn(SessionOptions{})
	if got := fresh.Session().TimeZone().Name; got != "Europe/Paris" {
		t.Errorf("a session opened after SET GLOBAL starts in %q", got)
	}
	if got := old.Session().TimeZone().Name; got != "+05:30" {
		t.Errorf("an open session moved to %q on SET GLOBAL", got)
	}
	rs, err := old.Exec(ctx, "select @@global.time_zone, @@session.time_zone", "")
	if err != nil || strings.Join(rs[0].Result.Row(0), "|") != "Europe/Paris|+05:30" {
		t.Errorf("@@global/@@session.time_zone: %v %v", rs, err)
	}
	if _, err := Open(Options{Executor: "cpu", TimeZone: "Mars/Olympus"}); err == nil || !strings.Contains(err.Error(), "Unknown or incorrect time zone: 'Mars/Olympus'") {
		t.Errorf("Open with an unknown zone: %v", err)
	}
}

// TestTimeZoneLoadAndOnUpdate: LOAD DATA reads TIMESTAMP text in the
// session zone, and ON UPDATE CURRENT_TIMESTAMP stores the statement's
// instant (the TIMESTAMP and DATETIME columns it sets read the same in the
// session that updated).
func TestTimeZoneLoadAndOnUpdate(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ev.csv": "1,2024-01-15 12:00:00\n2,2024-07-15 12:00:00\n"})
	csv := filepath.Join(dir, "ev.csv")
	mustRun(t, db, "create table ev (id int, ts timestamp); set time_zone = 'Europe/Paris'")
	mustRun(t, db, "load data infile '"+csv+"' into table ev fields terminated by ','")
	mustRun(t, db, "set time_zone = 'UTC'")
	if got, want := tableText(t, db, "select id, ts from ev order by id"), "1|2024-01-15 11:00:00;2|2024-07-15 10:00:00"; got != want {
		t.Errorf("loaded in Paris, UTC reads %q, want %q", got, want)
	}
	mustRun(t, db, "create table touched (id int, v int, ts timestamp default current_timestamp on update current_timestamp, dt datetime on update current_timestamp)")
	mustRun(t, db, "insert into touched (id, v) values (1, 0)")
	mustRun(t, db, "set time_zone = '-08:00'; update touched set v = 1 where id = 1")
	if got := tableText(t, db, "select timestampdiff(second, ts, dt) from touched"); got != "0" {
		t.Errorf("in the updating session, ts - dt = %s s, want 0", got)
	}
	mustRun(t, db, "set time_zone = '+00:00'")
	if got := tableText(t, db, "select timestampdiff(second, ts, dt) from touched"); got != "-28800" {
		t.Errorf("in UTC, dt - ts = %s s, want -28800 (dt kept -08:00's wall clock)", got)
	}
}

// TestTimeZoneGPUPlan: outside UTC a plan reading a TIMESTAMP converts it
// and the planner keeps that plan on the CPU, saying why; under UTC (and
// for DATETIME columns) the plan has no conversion and stays the GPU's.
func TestTimeZoneGPUPlan(t *testing.T) {
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, "create table ev (ts timestamp, dt datetime, x int); insert into ev values ('2024-01-01 10:00:00', '2024-01-01 10:00:00', 1)")
	explain := func(q string) string { return explainText(t, db, q) }
	const q = "select count(*) from ev where ts > '2024-01-01 00:00:00'"
	if plan := explain(q); strings.Contains(plan, "zone_") || strings.Contains(plan, "time zone") {
		t.Errorf("under UTC the plan converts:\n%s", plan)
	}
	mustRun(t, db, "set time_zone = 'Europe/Paris'")
	if plan := explain(q); !strings.Contains(plan, "CPU only (zone_from_utc(ts, 'Europe/Paris') in ") || !strings.Contains(plan, "time zone conversions are computed on the CPU") {
		t.Errorf("in Paris the plan is not kept on the CPU:\n%s", plan)
	}
	if plan := explain("select count(*) from ev where dt > '2024-01-01 00:00:00'"); strings.Contains(plan, "zone_") {
		t.Errorf("a DATETIME is converted:\n%s", plan)
	}
}

// TestTimeZoneExportImport: EXPORT DATABASE writes TIMESTAMPs as stored
// (UTC) and IMPORT DATABASE reads them so, whatever the session zones of
// the two databases: the instants survive.
func TestTimeZoneExportImport(t *testing.T) {
	src, err := Open(Options{Executor: "cpu", TimeZone: "Europe/Paris"})
	if err != nil {
		t.Fatal(err)
	}
	exp := t.TempDir()
	mustRun(t, src, "create table ev (ts timestamp, dt datetime); insert into ev values ('2024-07-01 12:00:00', '2024-07-01 12:00:00')")
	mustRun(t, src, "export database '"+exp+"'")
	dst, err := Open(Options{Executor: "cpu", TimeZone: "America/New_York"})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, dst, "import database '"+exp+"'")
	// 12:00 in Paris (UTC+2 in July) is 06:00 in New York (UTC-4).
	if got, want := tableText(t, dst, "select ts, dt from ev"), "2024-07-01 06:00:00|2024-07-01 12:00:00"; got != want {
		t.Errorf("imported in New York: %q, want %q", got, want)
	}
	if got := tableText(t, dst, "select @@time_zone"); got != "America/New_York" {
		t.Errorf("IMPORT changed the session zone to %q", got)
	}
}

// TestTimeZoneGlobalNeedsRights: a read-only user sets its own session's
// zone but not the global one, which every later session starts in.
func TestTimeZoneGlobalNeedsRights(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ro := db.SessionConn(SessionOptions{User: "r", ReadOnly: true})
	if _, err := ro.Exec(ctx, "set time_zone = '+01:00'", ""); err != nil {
		t.Errorf("read-only SET time_zone: %v", err)
	}
	_, err = ro.Exec(ctx, "set global time_zone = '+01:00'", "")
	var priv *PrivilegeError
	if !errors.As(err, &priv) || priv.Command != "SET GLOBAL" {
		t.Errorf("read-only SET GLOBAL time_zone: %v", err)
	}
	if got := db.session.GlobalTimeZone().Name; got != "SYSTEM" {
		t.Errorf("@@global.time_zone became %q", got)
	}
}

// An unknown zone in SET is MySQL's 1298 to every client, not only to
// the server's (the REPL and the driver read the code from MySQLCode).
func TestUnknownTimeZoneCode(t *testing.T) {
	db := open(t)
	_, err := db.Exec(context.Background(), "SET time_zone = 'nowhere'", "")
	if code, msg := sql.MySQLCode(err); code != 1298 || msg != "Unknown or incorrect time zone: 'nowhere'" {
		t.Errorf("SET time_zone = 'nowhere': %d %q (%v), want 1298", code, msg, err)
	}
}
