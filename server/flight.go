package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/flight"
	"github.com/apache/arrow/go/v15/arrow/flight/flightsql"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"gpusql/engine"
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Arrow Flight SQL, on Arrow Go's flightsql server package. Flight SQL is
// stateless per call: every call runs on a fresh engine session of the
// user its bearer token names (basic auth at the Handshake gives the
// token). A statement's ticket carries its text, so GetFlightInfo does no
// work and DoGet runs the query and streams the executor's columnar result
// as record batches of flightBatchRows rows. Prepared statements are kept
// by handle with their bound parameters until closed.

// flightBatchRows is the rows per record batch sent: big enough to
// amortize per-message costs, small enough to start streaming early.
const flightBatchRows = 64 << 10

// ServeFlight serves Arrow Flight SQL on l until the server is closed.
func (s *Server) ServeFlight(l net.Listener) error {
	if err := s.CheckListener(l); err != nil {
		return err
	}
	var opts []grpc.ServerOption
	if s.cfg.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(s.cfg.TLS)))
	}
	var mw []flight.ServerMiddleware
	if !s.cfg.InsecureNoAuth {
		mw = append(mw, flight.CreateServerBasicAuthMiddleware(&flightAuth{srv: s}))
	}
	fs := flight.NewServerWithMiddleware(mw, opts...)
	fs.InitListener(l)
	fsql := &flightSQL{srv: s}
	for id, v := range map[flightsql.SqlInfo]any{
		flightsql.SqlInfoFlightSqlServerName:         "gpusql",
		flightsql.SqlInfoFlightSqlServerVersion:      serverVersion,
		flightsql.SqlInfoFlightSqlServerArrowVersion: "15.0.2",
		flightsql.SqlInfoFlightSqlServerReadOnly:     false,
		flightsql.SqlInfoFlightSqlServerSql:          true,
		flightsql.SqlInfoFlightSqlServerSubstrait:    false,
		flightsql.SqlInfoFlightSqlServerTransaction:  int32(0), // none over Flight SQL
		flightsql.SqlInfoFlightSqlServerCancel:       false,
	} {
		if err := fsql.RegisterSqlInfo(id, v); err != nil {
			return err
		}
	}
	fs.RegisterFlightService(flightsql.NewFlightServer(fsql))
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return fmt.Errorf("server: closed")
	}
	s.flights = append(s.flights, fs)
	s.mu.Unlock()
	return fs.Serve()
}

// flightAuth checks basic-auth passwords and hands out bearer tokens,
// each valid for tokenLifetime (a client logs in again after that).
type flightAuth struct {
	srv    *Server
	mu     sync.Mutex
	tokens map[string]flightToken
}

type flightToken struct {
	user    string
	expires time.Time
}

const tokenLifetime = 12 * time.Hour

func (a *flightAuth) Validate(user, password string) (string, error) {
	u, ok := a.srv.db.User(user)
	if !ok || !u.Read || subtle.ConstantTimeCompare([]byte(u.Password), []byte(password)) != 1 {
		return "", status.Errorf(codes.Unauthenticated, "access denied for user '%s'", user)
	}
	token := rand.Text()
	now := time.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.tokens == nil {
		a.tokens = map[string]flightToken{}
	}
	for t, v := range a.tokens { // forget expired tokens as new ones come
		if now.After(v.expires) {
			delete(a.tokens, t)
		}
	}
	a.tokens[token] = flightToken{user: user, expires: now.Add(tokenLifetime)}
	return token, nil
}

// IsValid names the user of a live token whose user still exists.
func (a *flightAuth) IsValid(token string) (any, error) {
	a.mu.Lock()
	t, ok := a.tokens[token]
	a.mu.Unlock()
	if ok && time.Now().Before(t.expires) {
		if _, exists := a.srv.db.User(t.user); exists {
			return t.user, nil
		}
	}
	return nil, status.Error(codes.Unauthenticated, "invalid or expired token: authenticate again")
}

// flightSQL implements flightsql.Server.
type flightSQL struct {
	flightsql.BaseServer
	srv      *Server
	prepared sync.Map // handle → *flightPrepared
}

type flightPrepared struct {
	user, query string
	mu          sync.Mutex
	params      []any
}

// user is the name the call's token belongs to ("" without auth).
func flightUser(ctx context.Context) string {
	u, _ := flight.AuthFromContext(ctx).(string)
	return u
}

// run runs query as the calling user.
func (f *flightSQL) run(ctx context.Context, query string) (*engine.StatementResult, error) {
	conn := f.srv.db.SessionConn(f.srv.sessionOptions(flightUser(ctx)))
	defer conn.Close() // a Flight call is its own session: its GET_LOCKs end with it
	r, err := runOne(ctx, conn, query)
	if err != nil {
		return nil, flightError(err)
	}
	return r, nil
}

// flightError gives an engine error the gRPC status that says what kind
// of failure it is; the message is gpusql's.
func flightError(err error) error {
	var c codes.Code
	switch errorCode(err) {
	case 1064, 1054, 1235, 1049, 1193, 1231, 1292, 1052, 1060, 1066, 1111, 1222, 1248, 1305, 1582:
		c = codes.InvalidArgument
	case 1146, 1051:
		c = codes.NotFound
	case 1062, 1050:
		c = codes.AlreadyExists
	case 1142, 1227, 1290:
		c = codes.PermissionDenied
	case 1317:
		c = codes.Canceled
	case 1041:
		c = codes.ResourceExhausted
	case 1213:
		c = codes.Aborted
	case 1690, 1264:
		c = codes.OutOfRange
	default:
		c = codes.Unknown
	}
	return status.Error(c, err.Error())
}

// stream sends a result as record batches.
func stream(res *exec.Result) (*arrow.Schema, <-chan flight.StreamChunk) {
	rec := res.Record()
	ch := make(chan flight.StreamChunk, 2)
	go func() {
		defer close(ch)
		defer rec.Release()
		n := rec.NumRows()
		if n == 0 {
			rec.Retain()
			ch <- flight.StreamChunk{Data: rec}
			return
		}
		for i := int64(0); i < n; i += flightBatchRows {
			ch <- flight.StreamChunk{Data: rec.NewSlice(i, min(i+flightBatchRows, n))}
		}
	}()
	return rec.Schema(), ch
}

// rowsOf is a statement's rows; a statement without rows (DDL, INSERT run
// through Execute, as DB-API cursors do) answers one row, rows_affected.
func rowsOf(r *engine.StatementResult) (*exec.Result, error) {
	if r.Kind == engine.KindRows {
		return r.Result, nil
	}
	c := columnar.NewColumn(columnar.TInt64, 1, false)
	c.I64[0] = r.RowsAffected
	return &exec.Result{Names: []string{"rows_affected"}, Columns: []*columnar.Column{c}, Rows: 1}, nil
}

func ticketInfo(desc *flight.FlightDescriptor, ticket []byte) *flight.FlightInfo {
	return &flight.FlightInfo{
		Endpoint:         []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: ticket}}},
		FlightDescriptor: desc,
		TotalRecords:     -1,
		TotalBytes:       -1,
	}
}

// GetFlightInfoStatement binds the query (without running it) for the
// schema clients read before fetching; the ticket carries the text.
func (f *flightSQL) GetFlightInfoStatement(ctx context.Context, cmd flightsql.StatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	tkt, err := flightsql.CreateStatementQueryTicket([]byte(cmd.GetQuery()))
	if err != nil {
		return nil, err
	}
	info := ticketInfo(desc, tkt)
	if _, err := sql.Parse(cmd.GetQuery()); err != nil {
		return nil, flightError(&syntaxError{err})
	}
	conn := f.srv.db.SessionConn(f.srv.sessionOptions(flightUser(ctx)))
	names, types, err := conn.ResultColumns(cmd.GetQuery())
	if err != nil {
		return nil, flightError(err)
	}
	if names != nil {
		info.Schema = flight.SerializeSchema(arrowSchema(names, types), memory.DefaultAllocator)
	}
	return info, nil
}

// arrowSchema is the schema of result columns as the executors' Arrow
// results have it (exec.Result.Schema).
func arrowSchema(names []string, types []columnar.Type) *arrow.Schema {
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = exec.ArrowField(n, types[i])
	}
	return arrow.NewSchema(fields, nil)
}

func (f *flightSQL) DoGetStatement(ctx context.Context, cmd flightsql.StatementQueryTicket) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	r, err := f.run(ctx, string(cmd.GetStatementHandle()))
	if err != nil {
		return nil, nil, err
	}
	res, err := rowsOf(r)
	if err != nil {
		return nil, nil, err
	}
	sc, ch := stream(res)
	return sc, ch, nil
}

func (f *flightSQL) DoPutCommandStatementUpdate(ctx context.Context, cmd flightsql.StatementUpdate) (int64, error) {
	r, err := f.run(ctx, cmd.GetQuery())
	if err != nil {
		return 0, err
	}
	return r.RowsAffected, nil
}
