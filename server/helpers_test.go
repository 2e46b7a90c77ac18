package server

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"

	"gpusql/engine"
	"gpusql/storage/ssbgen"
)

// Tests run a real server on a loopback port and talk to it with real
// clients: Go's MySQL driver (github.com/go-sql-driver/mysql) here, Arrow
// Flight SQL's Go client in flight_test.go.

func init() { _ = mysql.SetLogger(log.New(io.Discard, "", 0)) }

// testInit creates the users the tests log in as.
const testInit = `
create user 'admin' identified by 'secret';
grant all on *.* to 'admin';
create user 'reader' identified by 'r3ad';
grant select on *.* to 'reader';
create user 'nobody' identified by 'x';
`

// startServer opens a database, runs init on it and serves it over the
// MySQL protocol on 127.0.0.1:0; it returns the server and its address.
func startServer(t testing.TB, cfg Config, init string) (*Server, string) {
	t.Helper()
	if cfg.DB == nil {
		db, err := engine.Open(engine.Options{Executor: "cpu"})
		if err != nil {
			t.Fatal(err)
		}
		cfg.DB = db
	}
	if _, err := cfg.DB.Exec(context.Background(), testInit+init, ""); err != nil {
		t.Fatal(err)
	}
	cfg.Log = log.New(io.Discard, "", 0)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.ServeMySQL(l) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeMySQL: %v", err)
		}
	})
	return srv, l.Addr().String()
}

// open connects as user with Go's MySQL driver.
func open(t testing.TB, addr, user, password string, params string) *sql.DB {
	t.Helper()
	dsn := fmt.Sprintf("%s:%s@tcp(%s)/gpusql?%s", user, password, addr, params)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// mysqlCode is the MySQL error number of err (0: not a server error).
func mysqlCode(err error) uint16 {
	if me, ok := err.(*mysql.MySQLError); ok {
		return me.Number
	}
	return 0
}

func mysqlState(err error) string {
	if me, ok := err.(*mysql.MySQLError); ok {
		return string(me.SQLState[:])
	}
	return ""
}

var (
	ssbOnce sync.Once
	ssbDir  string
	ssbErr  error
)

// ssbScript generates SSB data at a small scale factor once per test run
// and returns the script that loads it.
func ssbScript(t testing.TB) (script, dir string) {
	t.Helper()
	ssbOnce.Do(func() {
		ssbDir, ssbErr = os.MkdirTemp("", "gpusql-server-ssb")
		if ssbErr == nil {
			_, ssbErr = ssbgen.Generate(ssbgen.Options{SF: 0.01, Out: ssbDir})
		}
	})
	if ssbErr != nil {
		t.Fatal(ssbErr)
	}
	b, err := os.ReadFile(filepath.Join(ssbDir, "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b), ssbDir
}
