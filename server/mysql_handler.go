package server

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
	gms "github.com/go-mysql-org/go-mysql/server"

	"gpusql/engine"
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// ServeMySQL accepts MySQL protocol connections on l until the server is
// closed (it then returns nil) or accepting fails.
func (s *Server) ServeMySQL(l net.Listener) error {
	if err := s.CheckListener(l); err != nil {
		return err
	}
	proto, method, err := s.protocolServer()
	if err != nil {
		return err
	}
	if err := s.track(l); err != nil {
		return err
	}
	for {
		nc, err := l.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			return err
		}
		if !s.admit() {
			refuse(nc, mysql.ER_CON_COUNT_ERROR, "Too many connections")
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.leave()
			s.serveMySQLConn(proto, method, nc)
		}()
	}
}

// admit counts a new connection in, unless MaxConnections are open.
func (s *Server) admit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open >= s.cfg.MaxConnections {
		return false
	}
	s.open++
	return true
}

func (s *Server) leave() {
	s.mu.Lock()
	s.open--
	s.mu.Unlock()
}

// refuse answers a connection with an error packet in place of the
// greeting, as mysqld does when it is full, and closes it.
func refuse(nc net.Conn, code uint16, msg string) {
	payload := append([]byte{0xff, byte(code), byte(code >> 8)}, msg...)
	pkt := append([]byte{byte(len(payload)), byte(len(payload) >> 8), byte(len(payload) >> 16), 0}, payload...)
	_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = nc.Write(pkt)
	nc.Close()
}

// serveMySQLConn logs a client in and runs its commands one by one until
// it quits, goes away, or sends a packet that breaks the protocol.
func (s *Server) serveMySQLConn(proto *gms.Server, method string, nc net.Conn) {
	defer func() {
		// A bug answering one client must not take the others down.
		if r := recover(); r != nil {
			s.cfg.Log.Printf("mysql: %s: internal error, connection closed: %v", nc.RemoteAddr(), r)
			nc.Close()
		}
	}()
	own := &traffic{}
	gc := &guardedConn{Conn: &countingConn{Conn: nc, own: own, all: &s.traffic}, maxPacket: sql.MaxAllowedPacket + 4}
	_ = nc.SetDeadline(time.Now().Add(handshakeTimeout))
	h := &mysqlHandler{srv: s}
	c, err := proto.NewCustomizedConn(gc, s.credentials(method), h)
	if err != nil {
		s.cfg.Log.Printf("mysql: %s: login failed: %v", nc.RemoteAddr(), err)
		nc.Close()
		return
	}
	_ = nc.SetDeadline(time.Time{})
	h.sess = s.newSession(c.ConnectionID(), c.GetUser(), func() { nc.Close() }, own)
	h.gc, h.conn = gc, c
	defer s.endSession(h.sess)
	defer nc.Close()
	gc.buffered()
	for !c.Closed() {
		err := c.HandleCommand()
		if ferr := gc.flush(); err == nil {
			err = ferr
		}
		if err != nil {
			if errors.Is(err, errPacketTooLarge) {
				s.cfg.Log.Printf("mysql: connection %d: closed: packet larger than max_allowed_packet (%d bytes)", h.sess.id, sql.MaxAllowedPacket)
			}
			return
		}
	}
}

// mysqlHandler answers one connection's commands (the library's Handler).
type mysqlHandler struct {
	srv  *Server
	sess *session
	gc   *guardedConn
	conn *gms.Conn // writes result sets (resultset.go)
}

var _ gms.Handler = (*mysqlHandler)(nil)

// UseDB answers COM_INIT_DB and the database named at login (also before
// the session exists): gpusql's one schema, or information_schema.
func (h *mysqlHandler) UseDB(name string) error {
	if strings.EqualFold(name, sql.DatabaseName) || strings.EqualFold(name, "information_schema") {
		return nil
	}
	return mysql.NewError(mysql.ER_BAD_DB_ERROR, fmt.Sprintf("unknown database '%s' (gpusql has one: %s)", name, sql.DatabaseName))
}

func (h *mysqlHandler) HandleQuery(query string) (*mysql.Result, error) {
	return h.run(query, false, nil)
}

// run parses and runs one statement, cancelled if the client goes away or
// is killed meanwhile, and answers with rows (text or binary) or OK.
func (h *mysqlHandler) run(query string, binaryRows bool, written map[int]string) (*mysql.Result, error) {
	ctx, end := h.sess.begin(query)
	defer end()
	stop := h.gc.watch(func() { h.sess.kill(true) })
	h.sess.conn.SetClientFoundRows(h.conn.Capability()&mysql.CLIENT_FOUND_ROWS != 0)
	r, err := runOne(ctx, h.sess.conn, query)
	stop()
	if err != nil {
		return nil, mysqlError(err)
	}
	status := uint16(0)
	if h.sess.conn.Autocommit() {
		status |= mysql.SERVER_STATUS_AUTOCOMMIT
	}
	if h.sess.conn.InTransaction() {
		status |= mysql.SERVER_STATUS_IN_TRANS
	}
	if r.Kind == engine.KindRows {
		r.Result.Names = sql.RenameColumns(r.Result.Names, written) // a prepared SELECT's `? + 1`
		return writeResult(h.conn, r.Result, binaryRows, status)
	}
	// InsertId: the first AUTO_INCREMENT value the statement generated,
	// else the value it stored (mysql_insert_id), as MySQL's OK packet
	// carries it.
	affected := r.RowsAffected
	if r.Found && h.conn.Capability()&mysql.CLIENT_FOUND_ROWS != 0 {
		affected = r.RowsFound // the client asked for rows matched, not changed
	}
	return &mysql.Result{AffectedRows: uint64(max(affected, 0)), InsertId: r.LastInsertID, Status: status, Warnings: uint16(min(r.Warnings, 65535))}, nil
}

// HandleFieldList answers COM_FIELD_LIST (the mysql client's column-name
// completion): the table's columns, no rows.
func (h *mysqlHandler) HandleFieldList(table, _ string) ([]*mysql.Field, error) {
	t, ok := h.srv.db.Catalog().Table(table)
	if !ok {
		return nil, mysql.NewError(mysql.ER_NO_SUCH_TABLE, fmt.Sprintf("unknown table '%s'", table))
	}
	r := &exec.Result{}
	for _, f := range t.Fields {
		r.Names = append(r.Names, f.Name)
		r.Columns = append(r.Columns, columnar.NewColumn(f.Type, 0, f.Nullable))
	}
	fs := fields(r)
	for _, f := range fs {
		f.Table, f.OrgTable, f.Schema = []byte(t.Name), []byte(t.Name), []byte(sql.DatabaseName)
	}
	return fs, nil
}

// HandleStmtPrepare checks the statement's syntax and counts its '?'
// parameters; its columns are described when it runs (a statement's
// column types may depend on its parameters' types).
func (h *mysqlHandler) HandleStmtPrepare(query string) (params, columns int, ctx any, err error) {
	if _, err := sql.Parse(query); err != nil {
		return 0, 0, nil, mysqlError(&syntaxError{err})
	}
	return sql.Placeholders(query), 0, query, nil
}

// HandleStmtExecute substitutes the parameters as literals and runs the
// statement, answering rows in the binary protocol.
func (h *mysqlHandler) HandleStmtExecute(_ any, query string, args []any) (*mysql.Result, error) {
	text, err := sql.SubstituteParams(query, args)
	if code, _ := sql.MySQLCode(err); code != 0 {
		return h.sendError(err) // a LIMIT ? argument that is no row count
	}
	if err != nil {
		return h.sendError(mysql.NewError(mysql.ER_WRONG_ARGUMENTS, err.Error()))
	}
	r, err := h.run(text, true, sql.ParamColumnNames(query))
	if err != nil {
		return h.sendError(err)
	}
	return r, nil
}

// sendError answers a failed COM_STMT_EXECUTE with its ERR packet itself.
// The library wraps what HandleStmtExecute returns in a stack trace
// (errors.Trace) and then no longer finds the *mysql.MyError in it, so it
// would send every such failure as 1105 (HY000) with "ERROR 1062 (23000):
// ..." as the message. The result returned says the answer is sent, as a
// streamed result set does (writeResult).
func (h *mysqlHandler) sendError(err error) (*mysql.Result, error) {
	e := mysqlError(err)
	data := append(make([]byte, 4, 16+len(e.Message)), mysql.ERR_HEADER, byte(e.Code), byte(e.Code>>8))
	if h.conn.Capability()&mysql.CLIENT_PROTOCOL_41 != 0 {
		data = append(append(data, '#'), e.State...)
	}
	if werr := h.conn.WritePacket(append(data, e.Message...)); werr != nil {
		return nil, werr
	}
	return &mysql.Result{Resultset: &mysql.Resultset{Fields: []*mysql.Field{{}}, Streaming: mysql.StreamingMultiple, StreamingDone: true}}, nil
}

func (h *mysqlHandler) HandleStmtClose(any) error { return nil }

func (h *mysqlHandler) HandleOtherCommand(cmd byte, _ []byte) error {
	return mysql.NewError(mysql.ER_UNKNOWN_COM_ERROR, fmt.Sprintf("command %d is not supported", cmd))
}
