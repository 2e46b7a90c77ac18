package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"gpusql/engine"
	"gpusql/storage/ssbgen"
)

func TestMySQLQueries(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (id int primary key, price decimal(10,2), d date, name varchar(20), at timestamp);
		insert into t values (1, 12.50, '2024-02-29', 'apple', '2024-02-29 13:14:15'), (2, NULL, '1999-12-31', 'pear', NULL);`)
	db := open(t, addr, "admin", "secret", "")
	var comment string
	if err := db.QueryRow("select @@version_comment").Scan(&comment); err != nil || comment != "gpusql" {
		t.Errorf("@@version_comment = %q, %v", comment, err)
	}
	for _, q := range []string{"set names utf8mb4", "set autocommit = 1", "use gpusql", "show databases", "show variables like 'char%'"} {
		if _, err := db.Exec(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	rows, err := db.Query("select id, price, d, name, at from t order by id")
	if err != nil {
		t.Fatal(err)
	}
	types, _ := rows.ColumnTypes()
	want := []string{"INT", "DECIMAL", "DATE", "VARCHAR", "TIMESTAMP"}
	for i, ct := range types {
		if ct.DatabaseTypeName() != want[i] {
			t.Errorf("column %s: type %s, want %s", ct.Name(), ct.DatabaseTypeName(), want[i])
		}
	}
	if p, s, ok := types[1].DecimalSize(); !ok || p != 10 || s != 2 {
		t.Errorf("DECIMAL size = %d,%d,%v; want 10,2", p, s, ok)
	}
	var got []string
	for rows.Next() {
		var id int
		var price sql.NullString
		var d, name string
		var at sql.NullString
		if err := rows.Scan(&id, &price, &d, &name, &at); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{price.String, d, name, at.String}, " "))
	}
	if strings.Join(got, "|") != "12.50 2024-02-29 apple 2024-02-29 13:14:15| 1999-12-31 pear " {
		t.Errorf("rows = %q", got)
	}
	res, err := db.Exec("insert into t values (3, 1.00, '2000-01-01', 'fig', NULL), (4, 2.00, '2000-01-02', 'kiwi', NULL)")
	if n, _ := res.RowsAffected(); err != nil || n != 2 {
		t.Errorf("insert: %d rows, %v", n, err)
	}
}

// TestMySQLPrepared: the binary protocol with '?' parameters of each type,
// and binary rows of each column type.
func TestMySQLPrepared(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (id int, big bigint, x double, price decimal(10,2), d date, ok boolean, name varchar(20), at datetime(3));
		insert into t values (1, 10000000000, 0.5, 12.50, '2024-02-29', true, 'apple', '2024-02-29 13:14:15.125'), (2, -3, NULL, 0.01, '1999-12-31', false, 'pear', '1999-12-31 23:59:59');`)
	db := open(t, addr, "admin", "secret", "interpolateParams=false&parseTime=true")
	st, err := db.Prepare("select id, big, x, price, d, ok, name, at from t where name = ? or id = ? order by id")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.Query("apple", 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var id int32
		var big int64
		var x sql.NullFloat64
		var price string
		var d time.Time
		var ok bool
		var name string
		var at time.Time
		if err := rows.Scan(&id, &big, &x, &price, &d, &ok, &name, &at); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(id, " ", big, " ", ftoa(x), " ", price, " ", d.Format("2006-01-02"), " ", btoa(ok), " ", name, " ", at.Format("2006-01-02T15:04:05.000")))
	}
	want := "1 10000000000 0.5 12.50 2024-02-29 1 apple 2024-02-29T13:14:15.125|2 -3 NULL 0.01 1999-12-31 0 pear 1999-12-31T23:59:59.000"
	if strings.Join(got, "|") != want {
		t.Errorf("rows = %q\nwant %q", strings.Join(got, "|"), want)
	}
	if _, err := db.Exec("insert into t (id, name) values (?, ?)", 3, "it's"); err != nil {
		t.Fatal(err)
	}
	var name string
	if err := db.QueryRow("select name from t where id = ?", 3).Scan(&name); err != nil || name != "it's" {
		t.Errorf("name = %q, %v", name, err)
	}
}

func ftoa(x sql.NullFloat64) string {
	if !x.Valid {
		return "NULL"
	}
	return fmt.Sprint(x.Float64)
}

func btoa(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// TestMySQLErrors: failures come with MySQL's error codes.
func TestMySQLErrors(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (id int primary key, n int)`)
	db := open(t, addr, "admin", "secret", "")
	for _, c := range []struct {
		q    string
		code uint16
	}{
		{"selec 1", 1064},
		{"select * from nosuch", 1146},
		{"select nosuch from t", 1054},
		{"insert into t values (1, 1), (1, 2)", 1062},
		{"select 9223372036854775807 + 1", 1690},
		{"use other", 1049},
		{"load data infile '/etc/passwd' into table t", 1290},
		{"kill query 999999", 1094},
		{"select * from t; select 1", 1235},
	} {
		_, err := db.Exec(c.q)
		if got := mysqlCode(err); got != c.code {
			t.Errorf("%s: error %v (code %d), want code %d", c.q, err, got, c.code)
		}
	}
	var n int
	if err := db.QueryRow("select count(*) from t").Scan(&n); err != nil || n != 0 {
		t.Errorf("after errors: count %d, %v (a failed statement changed the table)", n, err)
	}
}

// TestMySQLAuth: passwords are checked, read-only users cannot write, a
// user without rights cannot log in, caching_sha2_password works too.
func TestMySQLAuth(t *testing.T) {
	for _, method := range []string{"mysql_native_password", "caching_sha2_password"} {
		t.Run(method, func(t *testing.T) {
			_, addr := startServer(t, Config{AuthMethod: method}, `create table t (x int)`)
			if err := open(t, addr, "admin", "wrong", "").Ping(); mysqlCode(err) != 1045 {
				t.Errorf("wrong password: %v, want error 1045", err)
			}
			// caching_sha2_password's fast path answers unknown names with
			// 1449 (the library's); native with 1045, as MySQL.
			for _, u := range []string{"stranger", "nobody"} {
				if err := open(t, addr, u, "x", "").Ping(); mysqlCode(err) != 1045 && mysqlCode(err) != 1449 ||
					method == "mysql_native_password" && mysqlCode(err) != 1045 {
					t.Errorf("user %s (unknown or without rights): %v, want error 1045", u, err)
				}
			}
			r := open(t, addr, "reader", "r3ad", "")
			if _, err := r.Exec("select * from t"); err != nil {
				t.Errorf("reader select: %v", err)
			}
			if _, err := r.Exec("insert into t values (1)"); mysqlCode(err) != 1142 {
				t.Errorf("reader insert: %v, want error 1142", err)
			}
			if _, err := r.Exec("create user 'x' identified by 'y'"); mysqlCode(err) != 1227 {
				t.Errorf("reader create user: %v, want error 1227", err)
			}
			a := open(t, addr, "admin", "secret", "")
			if _, err := a.Exec("create user 'late' identified by 'pw'"); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Exec("grant select on *.* to 'late'"); err != nil {
				t.Fatal(err)
			}
			if err := open(t, addr, "late", "pw", "").Ping(); err != nil {
				t.Errorf("user created over the server: %v", err)
			}
		})
	}
}

// TestMySQLNoAuthNeedsLoopback: --insecure-no-auth serves loopback only,
// and a server with no users refuses to start without it.
func TestMySQLNoAuthNeedsLoopback(t *testing.T) {
	db, _ := engine.Open(engine.Options{Executor: "cpu"})
	if _, err := New(Config{DB: db}); err == nil {
		t.Error("a server without users started without --insecure-no-auth")
	}
	srv, err := New(Config{DB: db, InsecureNoAuth: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Skip(err)
	}
	defer l.Close()
	if err := srv.ServeMySQL(l); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("ServeMySQL on 0.0.0.0 without auth: %v", err)
	}
}

// TestMySQLSessions: SET on one connection does not reach another.
func TestMySQLSessions(t *testing.T) {
	_, addr := startServer(t, Config{}, ``)
	db := open(t, addr, "admin", "secret", "")
	db.SetMaxOpenConns(2)
	ctx := context.Background()
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ExecContext(ctx, "set sql_mode = 'ONLY_FULL_GROUP_BY'"); err != nil {
		t.Fatal(err)
	}
	var ma, mb string
	a.QueryRowContext(ctx, "select @@sql_mode").Scan(&ma)
	b.QueryRowContext(ctx, "select @@sql_mode").Scan(&mb)
	if ma != "ONLY_FULL_GROUP_BY" || mb == ma {
		t.Errorf("sql_mode a=%q b=%q: want a's SET to stay on a", ma, mb)
	}
	var ida, idb int64
	a.QueryRowContext(ctx, "select connection_id()").Scan(&ida)
	b.QueryRowContext(ctx, "select connection_id()").Scan(&idb)
	if ida == 0 || ida == idb {
		t.Errorf("connection ids %d and %d", ida, idb)
	}
}

// slowQuery runs for minutes at SF 0.01 unless cancelled: a nested-loop
// join of lineorder with itself (3.6e9 pairs).
const slowQuery = "select sum(a.lo_quantity) from lineorder a join lineorder b on a.lo_quantity + b.lo_quantity < a.lo_discount"

// TestMySQLCancel: KILL QUERY from another connection and a client that
// goes away both stop the running query; the server goes on serving.
func TestMySQLCancel(t *testing.T) {
	srv, addr := ssbServer(t)
	c := open(t, addr, "admin", "secret", "")
	ctx := context.Background()
	victim, id, errc := startSlowQuery(t, srv, c, ctx)
	if _, err := c.Exec(fmt.Sprintf("kill query %d", id)); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; mysqlCode(err) != 1317 {
		t.Errorf("killed query: %v, want error 1317", err)
	}
	var n int
	if err := victim.QueryRowContext(ctx, "select count(*) from date").Scan(&n); err != nil || n == 0 {
		t.Errorf("the connection after KILL QUERY: %d, %v", n, err)
	}
	victim.Close()

	// A client that goes away: the driver closes the connection when the
	// context ends; the server cancels the query and forgets the session.
	qctx, cancel := context.WithCancel(ctx)
	_, id, errc = startSlowQuery(t, srv, c, qctx)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled client: %v", err)
	}
	waitGone(t, srv, uint32(id))
	if err := c.QueryRow("select count(*) from date").Scan(&n); err != nil {
		t.Errorf("server after a client went away: %v", err)
	}
}

// ssbServer serves a CPU database holding the SSB test data.
func ssbServer(t *testing.T) (*Server, string) {
	t.Helper()
	script, dir := ssbScript(t)
	db, _ := engine.Open(engine.Options{Executor: "cpu"})
	if _, err := db.Exec(context.Background(), script, dir); err != nil {
		t.Fatal(err)
	}
	return startServer(t, Config{DB: db}, "")
}

// startSlowQuery opens a connection of c, starts slowQuery on it under
// qctx and returns once the server runs it: the connection, its id and
// where the query's error will come.
func startSlowQuery(t *testing.T, srv *Server, c *sql.DB, qctx context.Context) (*sql.Conn, int64, <-chan error) {
	t.Helper()
	conn, err := c.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := conn.QueryRowContext(context.Background(), "select connection_id()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := conn.ExecContext(qctx, slowQuery)
		errc <- err
	}()
	waitRunning(t, srv, uint32(id))
	return conn, id, errc
}

// waitRunning waits until session id is running a query.
func waitRunning(t *testing.T, srv *Server, id uint32) {
	t.Helper()
	for i := 0; i < 2000; i++ {
		srv.mu.Lock()
		ss := srv.sessions[id]
		srv.mu.Unlock()
		if ss != nil {
			ss.mu.Lock()
			running := ss.cancel != nil
			ss.mu.Unlock()
			if running {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("session %d never ran its query", id)
}

// waitGone waits until session id has ended.
func waitGone(t *testing.T, srv *Server, id uint32) {
	t.Helper()
	for i := 0; i < 2000; i++ {
		srv.mu.Lock()
		ss := srv.sessions[id]
		srv.mu.Unlock()
		if ss == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("session %d still there after its client went away", id)
}

// TestMySQLConcurrentSSB: 64 clients run the 13 SSB queries at once and
// each gets the answers a single session gets.
func TestMySQLConcurrentSSB(t *testing.T) {
	script, dir := ssbScript(t)
	db, _ := engine.Open(engine.Options{Executor: "auto"})
	if _, err := db.Exec(context.Background(), script, dir); err != nil {
		t.Fatal(err)
	}
	_, addr := startServer(t, Config{DB: db}, "")
	queries := ssbgen.Queries()
	want := make([]string, len(queries))
	c := open(t, addr, "reader", "r3ad", "")
	for i, q := range queries {
		want[i] = queryText(t, c, q.SQL)
	}
	clients := 64
	if testing.Short() {
		clients = 8
	}
	c.SetMaxOpenConns(clients)
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for k := 0; k < clients; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for j := range queries {
				i := (j + k) % len(queries)
				got, err := queryTextErr(c, queries[i].SQL)
				if err == nil && got != want[i] {
					err = fmt.Errorf("client %d %s: answer differs from a single session's", k, queries[i].Name)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(k)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func queryText(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	s, err := queryTextErr(db, q)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// queryTextErr runs q and returns its rows as text.
func queryTextErr(db *sql.DB, q string) (string, error) {
	rows, err := db.Query(q)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		for _, v := range vals {
			b.Write(v)
			b.WriteByte('\t')
		}
		b.WriteByte('\n')
	}
	return b.String(), rows.Err()
}

// TestMySQLBadPackets: a malformed handshake and a packet over
// max_allowed_packet each close that connection; others go on.
func TestMySQLBadPackets(t *testing.T) {
	_, addr := startServer(t, Config{}, ``)
	good := open(t, addr, "admin", "secret", "")
	if err := good.Ping(); err != nil {
		t.Fatal(err)
	}
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	raw.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := raw.Read(buf); err != nil { // the server's greeting
		t.Fatal(err)
	}
	raw.Write([]byte{5, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff})
	if _, err := io.ReadAll(raw); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Logf("garbage handshake: %v", err)
	}
	raw.Close()

	big, err := open(t, addr, "admin", "secret", "maxAllowedPacket=134217728").Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	q := "select '" + strings.Repeat("x", 65<<20) + "'"
	if _, err := big.ExecContext(context.Background(), q); err == nil {
		t.Error("a 65 MiB query was accepted past max_allowed_packet")
	}
	var one int
	if err := good.QueryRow("select 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("another connection after the bad packets: %v", err)
	}
}

// TestMySQLMaxConnections: past MaxConnections a client gets error 1040
// and the others keep their connections.
func TestMySQLMaxConnections(t *testing.T) {
	_, addr := startServer(t, Config{MaxConnections: 2}, ``)
	db := open(t, addr, "admin", "secret", "")
	db.SetMaxOpenConns(3)
	ctx := context.Background()
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := db.Conn(ctx); mysqlCode(err) != 1040 {
		t.Errorf("third connection: %v, want error 1040", err)
	}
	if err := a.PingContext(ctx); err != nil {
		t.Errorf("first connection after the refusal: %v", err)
	}
}

// TestMySQLSessionMemoryLimit: SET memory_limit bounds that session's
// queries (error 1041) and no other session's.
func TestMySQLSessionMemoryLimit(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (x int); insert into t values (1), (2), (3), (4), (5), (6), (7), (8)`)
	db := open(t, addr, "reader", "r3ad", "")
	db.SetMaxOpenConns(2)
	ctx := context.Background()
	small, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := small.ExecContext(ctx, "set memory_limit = 1"); err != nil {
		t.Fatal(err)
	}
	q := "select count(*) from t a, t b, t c, t d where a.x + b.x < c.x + d.x"
	if _, err := small.ExecContext(ctx, q); mysqlCode(err) != 1041 {
		t.Errorf("under a 1-byte session limit: %v, want error 1041", err)
	}
	var n int
	if err := other.QueryRowContext(ctx, q).Scan(&n); err != nil || n == 0 {
		t.Errorf("another session: %d, %v", n, err)
	}
}

// TestMySQLKillConnection: KILL n closes another session of the same user;
// a read-only user may not kill someone else's session.
func TestMySQLKillConnection(t *testing.T) {
	_, addr := startServer(t, Config{}, ``)
	ctx := context.Background()
	admin := open(t, addr, "admin", "secret", "")
	victim, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	victim.QueryRowContext(ctx, "select connection_id()").Scan(&id)
	reader := open(t, addr, "reader", "r3ad", "")
	if _, err := reader.Exec(fmt.Sprintf("kill %d", id)); mysqlCode(err) != 1095 {
		t.Errorf("reader killing admin's session: %v, want error 1095", err)
	}
	if _, err := admin.Exec(fmt.Sprintf("kill %d", id)); err != nil {
		t.Fatal(err)
	}
	if err := victim.PingContext(ctx); err == nil {
		t.Error("the killed connection still answers")
	}
}

// TestMySQLConnectQueries: what connectors and BI tools ask on connect.
func TestMySQLConnectQueries(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (id int, name varchar(10))`)
	db := open(t, addr, "reader", "r3ad", "")
	for q, want := range map[string]string{
		"select @@version_comment limit 1":                                  "gpusql\t\n",
		"select user(), database()":                                         "reader@%\tgpusql\t\n",
		"show databases":                                                    "gpusql\t\ninformation_schema\t\n",
		"show variables like 'max_allowed_packet'":                          "max_allowed_packet\t67108864\t\n",
		"select @@max_allowed_packet, @@autocommit, @@character_set_client": "67108864\t1\tutf8mb4\t\n",
		"select table_name, table_type from information_schema.tables where table_schema = database()":                   "t\tBASE TABLE\t\n",
		"select column_name, data_type from information_schema.columns where table_name = 't' order by ordinal_position": "id\tint\t\nname\tvarchar\t\n",
	} {
		got, err := queryTextErr(db, q)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", q, got, err, want)
		}
	}
}

// TestMySQLAutocommitAndSavepoints: SET autocommit = 0 over the MySQL
// protocol (the session's changes stay private until COMMIT, @@autocommit
// reads 0) and savepoints, with MySQL's error 1305 for an unknown one.
func TestMySQLAutocommitAndSavepoints(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (x int)`)
	db := open(t, addr, "admin", "secret", "")
	other := open(t, addr, "admin", "secret", "")
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"set autocommit = 0", "insert into t values (1)", "savepoint s1", "insert into t values (2)", "rollback to savepoint s1"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var ac, mine, theirs int
	if err := conn.QueryRowContext(ctx, "select @@autocommit, count(*) from t").Scan(&ac, &mine); err != nil {
		t.Fatal(err)
	}
	if err := other.QueryRowContext(ctx, "select count(*) from t").Scan(&theirs); err != nil {
		t.Fatal(err)
	}
	if ac != 0 || mine != 1 || theirs != 0 {
		t.Errorf("before COMMIT: @@autocommit %d, this session %d rows, another %d; want 0 1 0", ac, mine, theirs)
	}
	if _, err := conn.ExecContext(ctx, "release savepoint nope"); mysqlCode(err) != 1305 || !strings.Contains(err.Error(), "SAVEPOINT nope does not exist") {
		t.Errorf("RELEASE of an unknown savepoint: %v, want error 1305", err)
	}
	if _, err := conn.ExecContext(ctx, "commit"); err != nil {
		t.Fatal(err)
	}
	if err := other.QueryRowContext(ctx, "select count(*) from t").Scan(&theirs); err != nil || theirs != 1 {
		t.Errorf("after COMMIT another session sees %d rows (%v), want 1", theirs, err)
	}
}
