package server

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestMySQLProcessList: SHOW PROCESSLIST lists the server's connections
// with their running statement; a user without ALL rights sees only its
// own; KILL QUERY of a listed id stops it.
func TestMySQLProcessList(t *testing.T) {
	srv, addr := ssbServer(t)
	admin := open(t, addr, "admin", "secret", "")
	_, id, errc := startSlowQuery(t, srv, admin, context.Background())
	rows := processRows(t, admin, "show full processlist")
	row, ok := rows[id]
	if !ok || row[4] != "Query" || !strings.Contains(row[7], strings.TrimSpace(slowQuery)[:20]) || row[3] != "gpusql" {
		t.Errorf("the running session %d: %q (all: %v)", id, row, rows)
	}
	var self bool
	for _, r := range rows {
		self = self || r[7] == "show full processlist"
	}
	if !self {
		t.Errorf("SHOW PROCESSLIST does not list itself: %v", rows)
	}
	reader := open(t, addr, "reader", "r3ad", "")
	for rid, r := range processRows(t, reader, "show processlist") {
		if r[1] != "reader" {
			t.Errorf("reader sees session %d of %s", rid, r[1])
		}
	}
	if _, err := admin.Exec(fmt.Sprintf("kill query %d", id)); err != nil {
		t.Fatal(err)
	}
	<-errc
}

// processRows runs q and returns its rows by Id, every column as text.
func processRows(t *testing.T, db *sql.DB, q string) map[int64][]string {
	t.Helper()
	rs, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	out := map[int64][]string{}
	for rs.Next() {
		var id int64
		var user, host, dbName, cmd, state string
		var secs int64
		var info sql.NullString
		if err := rs.Scan(&id, &user, &host, &dbName, &cmd, &secs, &state, &info); err != nil {
			t.Fatal(err)
		}
		out[id] = []string{fmt.Sprint(id), user, host, dbName, cmd, fmt.Sprint(secs), state, info.String}
	}
	return out
}
