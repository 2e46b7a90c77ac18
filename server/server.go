// Package server serves a gpusql database to other programs: the MySQL
// wire protocol (mysql_handler.go, on github.com/go-mysql-org/go-mysql's
// server side) and Arrow Flight SQL (flight.go). Each client connection is
// an engine session (engine.SessionConn) with its own variables,
// transaction, prepared statements and rights; the engine does all the
// work. docs/server.md says why it is built this way.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"net"
	"sync"
	"time"

	"github.com/apache/arrow/go/v15/arrow/flight"

	"gpusql/engine"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Config configures a server.
type Config struct {
	DB *engine.DB
	// InsecureNoAuth lets anyone in without a password; only on loopback
	// addresses.
	InsecureNoAuth bool
	// TLS, when set, is offered to clients (--tls-cert/--tls-key).
	TLS *tls.Config
	// AuthMethod is the MySQL authentication method clients are switched
	// to: mysql_native_password (default) or caching_sha2_password.
	AuthMethod string
	// FileRoot, when set, is the only folder statements may read files
	// under; when empty the server refuses file access altogether.
	FileRoot string
	// MaxConnections bounds the MySQL connections open at once (0:
	// defaultMaxConnections); one more is refused with error 1040.
	MaxConnections int
	// Log receives one line per connection event; nil: log.Default.
	Log *log.Logger
}

const defaultMaxConnections = 1000

// Server serves one database.
type Server struct {
	cfg Config
	db  *engine.DB

	mu        sync.Mutex
	sessions  map[uint32]*session
	listeners []net.Listener
	flights   []flight.Server
	closed    bool
	wg        sync.WaitGroup
	open      int // MySQL connections open now
	// connections counts the MySQL logins, maxUsed the most sessions
	// open at once, traffic every connection's bytes (status.go).
	connections int64
	maxUsed     int
	traffic     traffic
}

// New checks the configuration and returns a server that serves nothing
// until ServeMySQL or ServeFlight is called.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil {
		return nil, errors.New("server: no database")
	}
	if !cfg.InsecureNoAuth && len(cfg.DB.Users()) == 0 {
		return nil, errors.New("server: no users to log in as: create one with CREATE USER 'name' IDENTIFIED BY 'password' and GRANT ALL ON *.* TO 'name' in the -f script, or pass --insecure-no-auth on a loopback address")
	}
	if cfg.Log == nil {
		cfg.Log = log.Default()
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = defaultMaxConnections
	}
	return &Server{cfg: cfg, db: cfg.DB, sessions: map[uint32]*session{}}, nil
}

// CheckListener refuses serving without authentication beyond loopback.
func (s *Server) CheckListener(l net.Listener) error {
	if !s.cfg.InsecureNoAuth {
		return nil
	}
	if a, ok := l.Addr().(*net.TCPAddr); ok && a.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("server: --insecure-no-auth serves only on a loopback address (127.0.0.1, ::1), not %s", l.Addr())
}

func (s *Server) track(l net.Listener) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("server: closed")
	}
	s.listeners = append(s.listeners, l)
	return nil
}

// Close stops accepting, cancels the running queries, closes every
// connection and waits for their goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, l := range s.listeners {
		l.Close()
	}
	flights := s.flights
	for _, ss := range s.sessions {
		ss.kill(false)
	}
	s.mu.Unlock()
	for _, f := range flights {
		f.Shutdown()
	}
	s.wg.Wait()
	return nil
}

// session is one client connection.
type session struct {
	id   uint32
	user string
	conn *engine.Conn

	mu     sync.Mutex
	cancel context.CancelFunc // the running query's, nil between queries
	close  func()             // closes the network connection
	// info is the running statement's text ("" between statements),
	// since when the session is in its current state (SHOW PROCESSLIST).
	info  string
	since time.Time
}

// begin starts a query: its context is cancelled by KILL, by the client
// going away and by the server closing.
func (ss *session) begin(text string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ss.mu.Lock()
	ss.cancel, ss.info, ss.since = cancel, text, time.Now()
	ss.mu.Unlock()
	return ctx, func() {
		ss.mu.Lock()
		ss.cancel, ss.info, ss.since = nil, "", time.Now()
		ss.mu.Unlock()
		cancel()
	}
}

// kill cancels the running query and, unless query, closes the connection.
func (ss *session) kill(query bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.cancel != nil {
		ss.cancel()
	}
	if !query && ss.close != nil {
		ss.close()
	}
}

// newSession registers a connection under its id (the id KILL names).
func (s *Server) newSession(id uint32, user string, closeConn func(), own *traffic) *session {
	ss := &session{id: id, user: user, close: closeConn, since: time.Now()}
	opts := s.sessionOptions(user)
	opts.Kill = func(k *sql.Kill) error { return s.kill(ss, k) }
	opts.Processes = func() []engine.Process { return s.processes(ss) }
	opts.Status = func(global bool) map[string]int64 { return s.status(own, global) }
	ss.conn = s.db.SessionConn(opts)
	ss.conn.Session().SetEngineVariable("pseudo_thread_id", &sql.Const{T: columnar.TInt64, I: int64(id)})
	ss.conn.Session().SetUser(user)
	s.mu.Lock()
	s.sessions[id] = ss
	s.connections++
	s.maxUsed = max(s.maxUsed, len(s.sessions))
	s.mu.Unlock()
	return ss
}

func (s *Server) endSession(ss *session) {
	s.mu.Lock()
	delete(s.sessions, ss.id)
	s.mu.Unlock()
	ss.conn.Close() // rolls back and releases the session's GET_LOCKs
}

// kill runs KILL [QUERY] id: a user may kill its own sessions' queries, a
// user with ALL rights anyone's (MySQL's CONNECTION_ADMIN).
func (s *Server) kill(by *session, k *sql.Kill) error {
	s.mu.Lock()
	target, ok := s.sessions[uint32(k.ConnectionID)]
	s.mu.Unlock()
	if !ok || uint64(target.id) != k.ConnectionID {
		return &killError{id: k.ConnectionID}
	}
	if u, _ := s.db.User(by.user); target.user != by.user && by.user != "" && !u.Write {
		return &killError{id: k.ConnectionID, denied: true}
	}
	target.kill(k.Query)
	return nil
}

// processes lists the sessions SHOW PROCESSLIST shows to by: all of them
// for a user with ALL rights (MySQL's PROCESS privilege), else its own
// user's.
func (s *Server) processes(by *session) []engine.Process {
	u, _ := s.db.User(by.user)
	all := by.user == "" || u.Write
	s.mu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		if all || ss.user == by.user {
			sessions = append(sessions, ss)
		}
	}
	s.mu.Unlock()
	out := make([]engine.Process, len(sessions))
	for i, ss := range sessions {
		ss.mu.Lock()
		p := engine.Process{ID: ss.id, User: ss.user, Command: "Sleep", Seconds: int64(time.Since(ss.since).Seconds()), Info: ss.info}
		ss.mu.Unlock()
		if p.Info != "" {
			p.Command = "Query"
		}
		out[i] = p
	}
	return out
}

type killError struct {
	id     uint64
	denied bool
}

func (e *killError) Error() string {
	if e.denied {
		return fmt.Sprintf("You are not owner of thread %d", e.id)
	}
	return fmt.Sprintf("Unknown thread id: %d", e.id)
}

// handshakeTimeout bounds how long a client may take to log in.
const handshakeTimeout = 10 * time.Second
