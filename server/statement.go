package server

import (
	"context"
	"errors"
	"fmt"

	"gpusql/engine"
	"gpusql/sql"
)

// Both front ends run one statement per request through runOne, on an
// engine session made by sessionOptions for the user who logged in.

// syntaxError is a statement that does not parse (MySQL's 1064).
type syntaxError struct{ err error }

func (e *syntaxError) Error() string { return e.err.Error() }
func (e *syntaxError) Unwrap() error { return e.err }

// errEmptyQuery is a request with no statement (MySQL's 1065).
var errEmptyQuery = errors.New("Query was empty")

// runOne parses and runs the one statement of query on conn.
func runOne(ctx context.Context, conn *engine.Conn, query string) (*engine.StatementResult, error) {
	// A repeated query runs its cached plan without being parsed.
	if r, hit, err := conn.ExecCached(ctx, query); hit {
		return r, err
	}
	stmts, err := sql.Parse(query)
	if err != nil {
		conn.NoteError(&syntaxError{err})
		return nil, &syntaxError{err}
	}
	switch len(stmts) {
	case 0:
		return nil, errEmptyQuery
	case 1:
		return conn.ExecParsed(ctx, stmts[0], "")
	}
	return nil, fmt.Errorf("unsupported: %d statements in one request (send them one at a time)", len(stmts))
}

// sessionOptions are the engine session settings for user: its rights,
// the file root, KILL through this server.
func (s *Server) sessionOptions(user string) engine.SessionOptions {
	opts := engine.SessionOptions{User: user, FileRoot: s.cfg.FileRoot, NoFiles: s.cfg.FileRoot == "", ErrorCode: errorCode}
	if u, ok := s.db.User(user); ok {
		opts.ReadOnly = !u.Write
	}
	return opts
}
