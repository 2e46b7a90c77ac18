package engine

import (
	"context"
	"strings"
	"testing"
)

// TestGlobalLimits: SET GLOBAL sql_select_limit (and the other limits) is
// what sessions opened afterwards start with; open sessions, the one that
// ran it included, keep theirs, as in MySQL.
func TestGlobalLimits(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	old := db.SessionConn(SessionOptions{})
	// max_allowed_packet is stored as MySQL does: a multiple of 1 KiB.
	if _, err := old.Exec(ctx, "set global sql_select_limit = 2, global cte_max_recursion_depth = 7, global max_allowed_packet = 4000", ""); err != nil {
		t.Fatal(err)
	}
	const q = "select @@sql_select_limit, @@cte_max_recursion_depth, @@global.sql_select_limit, @@max_allowed_packet, @@global.max_allowed_packet"
	for _, c := range []struct {
		conn *Conn
		want string
	}{{old, "18446744073709551615|1000|2|67108864|3072"}, {db.SessionConn(SessionOptions{}), "2|7|2|3072|3072"}} {
		rs, err := c.conn.Exec(ctx, q, "")
		if err != nil || strings.Join(rs[0].Result.Row(0), "|") != c.want {
			t.Errorf("%s: %v %v, want %s", q, rs, err, c.want)
		}
	}
}

// TestGlobalAutocommit: SET GLOBAL autocommit = 0 leaves the connection
// that ran it in autocommit and starts connections opened later without
// it, as in MySQL.
func TestGlobalAutocommit(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	old := db.SessionConn(SessionOptions{})
	if _, err := old.Exec(ctx, "set global autocommit = 0", ""); err != nil {
		t.Fatal(err)
	}
	const q = "select @@autocommit, @@global.autocommit"
	for _, c := range []struct {
		conn *Conn
		want string
	}{{old, "1|0"}, {db.SessionConn(SessionOptions{}), "0|0"}} {
		rs, err := c.conn.Exec(ctx, q, "")
		if err != nil || strings.Join(rs[0].Result.Row(0), "|") != c.want {
			t.Errorf("%s: %v %v, want %s", q, rs, err, c.want)
		}
	}
}

// TestGlobalSQLMode: SET GLOBAL sql_mode leaves the connection that ran
// it in its mode and starts connections opened later in the new one, and
// a session's SET sql_mode changes no other connection, as in MySQL.
func TestGlobalSQLMode(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	old := db.SessionConn(SessionOptions{})
	if _, err := old.Exec(ctx, "set global sql_mode = 'ANSI_QUOTES'; set sql_mode = 'NO_ZERO_DATE'", ""); err != nil {
		t.Fatal(err)
	}
	const q = "select @@sql_mode, @@global.sql_mode"
	for _, c := range []struct {
		conn *Conn
		want string
	}{{old, "NO_ZERO_DATE|ANSI_QUOTES"}, {db.SessionConn(SessionOptions{}), "ANSI_QUOTES|ANSI_QUOTES"}} {
		rs, err := c.conn.Exec(ctx, q, "")
		if err != nil || strings.Join(rs[0].Result.Row(0), "|") != c.want {
			t.Errorf("%s: %v %v, want %s", q, rs, err, c.want)
		}
	}
}
