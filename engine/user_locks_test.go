package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"gpusql/exec"
)

// lockQuery runs one SELECT on c and returns its first row as text.
func lockQuery(t *testing.T, c *Conn, q string) string {
	t.Helper()
	rs, err := c.Exec(context.Background(), q, "")
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	res := rs[len(rs)-1].Result
	var cells []string
	for _, col := range res.Columns {
		cells = append(cells, exec.FormatValue(col, 0))
	}
	return strings.Join(cells, " ")
}

// TestUserLocksAcrossConnections: GET_LOCK is exclusive between two
// connections of one database, re-entrant within one, timed out after its
// timeout, named by IS_USED_LOCK with the holder's id, and released when
// the holding connection closes.
func TestUserLocksAcrossConnections(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := db.Conn(), db.Conn()
	for _, c := range []struct {
		conn *Conn
		q    string
		want string
	}{
		{a, "select get_lock('Job', 0), get_lock('job', 0), is_free_lock('JOB')", "1 1 0"},
		{b, "select get_lock('job', 0), is_free_lock('job'), release_lock('job'), release_lock('other')", "0 0 0 NULL"},
		// One second of waiting, then 0: the lock is still a's.
		{b, "select get_lock('job', 1)", "0"},
		{a, "select release_lock('job')", "1"},
		{b, "select get_lock('job', 0)", "0"},
		{a, "select get_lock('second', 0), release_all_locks(), is_free_lock('job')", "1 2 1"},
		{b, "select get_lock('job', 0), is_used_lock('job') = is_used_lock('job')", "1 1"},
	} {
		if got := lockQuery(t, c.conn, c.q); got != c.want {
			t.Errorf("%s = %q, want %q", c.q, got, c.want)
		}
	}
	if lockQuery(t, a, "select is_used_lock('job')") != fmt.Sprint(b.lockOwner().ID) {
		t.Errorf("IS_USED_LOCK does not name b")
	}
	b.Close()
	if got := lockQuery(t, a, "select is_used_lock('job'), get_lock('job', 0)"); got != "NULL 1" {
		t.Errorf("after b closed: %q, want the lock free", got)
	}
}

// TestUserLockWaitCancelled: a GET_LOCK without a timeout waits until its
// statement is cancelled, which ends the statement with the cancellation.
func TestUserLockWaitCancelled(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := db.Conn(), db.Conn()
	lockQuery(t, a, "select get_lock('x', 0)")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := b.Exec(ctx, "select get_lock('x', -1)", "")
		done <- err
	}()
	for b.lockOwner().Waiting() == "" {
		runtime.Gosched()
	}
	cancel()
	if err := <-done; !errors.Is(err, ErrCancelled) && !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled GET_LOCK: %v", err)
	}
}

// TestConnectionIDOutsideServer: the database's own session (REPL,
// scripts) has a CONNECTION_ID() that is not 0, as every MySQL connection
// has, and it is the id IS_USED_LOCK names for that session's locks.
func TestConnectionIDOutsideServer(t *testing.T) {
	db, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	c := db.conn
	if got := lockQuery(t, c, "SELECT CONNECTION_ID() > 0, CONNECTION_ID() = @@pseudo_thread_id"); got != "1 1" {
		t.Fatalf("CONNECTION_ID() > 0, = @@pseudo_thread_id: %s, want 1 1", got)
	}
	if got := lockQuery(t, c, "SELECT GET_LOCK('cid', 0), IS_USED_LOCK('cid') = CONNECTION_ID()"); got != "1 1" {
		t.Fatalf("GET_LOCK, IS_USED_LOCK = CONNECTION_ID(): %s, want 1 1", got)
	}
}
