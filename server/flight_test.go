package server

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/flight"
	"github.com/apache/arrow/go/v15/arrow/flight/flightsql"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"gpusql/engine"
	"gpusql/storage/ssbgen"
)

// startFlight serves srv over Flight SQL on a loopback port and returns a
// client logged in as user (no login when user is "").
func startFlight(t *testing.T, srv *Server, user, password string) (*flightsql.Client, context.Context) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.ServeFlight(l)
	c, err := flightsql.NewClient(l.Addr().String(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if user != "" {
		if ctx, err = c.Client.AuthenticateBasicToken(ctx, user, password); err != nil {
			t.Fatalf("login as %s: %v", user, err)
		}
	}
	return c, ctx
}

// fetch reads all rows of a FlightInfo's endpoints as text lines.
func fetch(t *testing.T, c *flightsql.Client, ctx context.Context, info *flight.FlightInfo) (*arrow.Schema, string) {
	t.Helper()
	var b strings.Builder
	var schema *arrow.Schema
	for _, ep := range info.Endpoint {
		rdr, err := c.DoGet(ctx, ep.Ticket)
		if err != nil {
			t.Fatal(err)
		}
		schema = rdr.Schema()
		for rdr.Next() {
			rec := rdr.Record()
			for i := 0; i < int(rec.NumRows()); i++ {
				for j := 0; j < int(rec.NumCols()); j++ {
					if j > 0 {
						b.WriteByte(' ')
					}
					col := rec.Column(j)
					switch d, ok := col.(*array.Decimal128); {
					case col.IsNull(i):
						b.WriteString("NULL")
					case ok:
						b.WriteString(d.Value(i).ToString(d.DataType().(*arrow.Decimal128Type).Scale))
					default:
						b.WriteString(col.ValueStr(i))
					}
				}
				b.WriteByte('\n')
			}
		}
		if err := rdr.Err(); err != nil {
			t.Fatal(err)
		}
		rdr.Release()
	}
	return schema, b.String()
}

func TestFlightSQL(t *testing.T) {
	srv, _ := startServer(t, Config{}, `create table t (id int, price decimal(10,2), d date, name varchar(20));
		insert into t values (1, 12.50, '2024-02-29', 'apple'), (2, NULL, '1999-12-31', 'pear');
		create view v as select name from t;`)
	c, ctx := startFlight(t, srv, "admin", "secret")

	info, err := c.Execute(ctx, "select id, price, d, name from t order by id")
	if err != nil {
		t.Fatal(err)
	}
	schema, got := fetch(t, c, ctx, info)
	if announced, err := flight.DeserializeSchema(info.Schema, memory.DefaultAllocator); err != nil || !announced.Equal(schema) {
		t.Errorf("FlightInfo schema %v (%v), stream schema %v", announced, err, schema)
	}
	if want := "1 12.50 2024-02-29 apple\n2 NULL 1999-12-31 pear\n"; got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if dt := schema.Field(1).Type; dt.ID() != arrow.DECIMAL128 || dt.(*arrow.Decimal128Type).Scale != 2 {
		t.Errorf("price column type %s, want decimal(10, 2)", dt)
	}
	if n, err := c.ExecuteUpdate(ctx, "insert into t values (3, 1.00, '2000-01-01', 'fig')"); err != nil || n != 1 {
		t.Errorf("ExecuteUpdate: %d, %v", n, err)
	}
	// DDL through Execute (as DB-API cursors send it): one row, rows_affected.
	info, err = c.Execute(ctx, "create table u (x int)")
	if err != nil {
		t.Fatal(err)
	}
	if _, got := fetch(t, c, ctx, info); got != "0\n" {
		t.Errorf("CREATE TABLE through Execute: %q", got)
	}

	// A prepared statement with a parameter bound as an Arrow batch.
	prep, err := c.Prepare(ctx, "select name from t where id = ?")
	if err != nil {
		t.Fatal(err)
	}
	if ds := prep.DatasetSchema(); ds == nil || ds.NumFields() != 1 || ds.Field(0).Type.ID() != arrow.STRING {
		t.Errorf("prepared dataset schema %v", ds)
	}
	for id, want := range map[int64]string{1: "apple\n", 3: "fig\n"} {
		b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{{Name: "p", Type: arrow.PrimitiveTypes.Int64}}, nil))
		b.Field(0).(*array.Int64Builder).Append(id)
		rec := b.NewRecord()
		prep.SetParameters(rec)
		info, err := prep.Execute(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := fetch(t, c, ctx, info); got != want {
			t.Errorf("prepared with id %d: %q, want %q", id, got, want)
		}
		rec.Release()
		b.Release()
	}
	if err := prep.Close(ctx); err != nil {
		t.Error(err)
	}

	// Catalog metadata.
	info, err = c.GetTables(ctx, &flightsql.GetTablesOpts{IncludeSchema: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := fetch(t, c, ctx, info); !strings.Contains(got, "gpusql t TABLE") || !strings.Contains(got, "gpusql v VIEW") {
		t.Errorf("GetTables:\n%s", got)
	}
	info, err = c.GetSqlInfo(ctx, []flightsql.SqlInfo{flightsql.SqlInfoFlightSqlServerName})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := fetch(t, c, ctx, info); !strings.Contains(got, "gpusql") {
		t.Errorf("GetSqlInfo: %q", got)
	}

	// Errors carry gRPC codes.
	for q, code := range map[string]codes.Code{
		"selec 1":              codes.InvalidArgument,
		"select * from nosuch": codes.NotFound,
	} {
		info, err := c.Execute(ctx, q)
		if err == nil {
			var rdr *flight.Reader
			if rdr, err = c.DoGet(ctx, info.Endpoint[0].Ticket); err == nil {
				for rdr.Next() {
				}
				err = rdr.Err()
			}
		}
		if status.Code(err) != code {
			t.Errorf("%s: %v, want %s", q, err, code)
		}
	}
}

// TestFlightSQLAuth: a wrong password is refused, calls without a token
// are refused, a read-only user cannot write.
func TestFlightSQLAuth(t *testing.T) {
	srv, _ := startServer(t, Config{}, `create table t (x int)`)
	c, _ := startFlight(t, srv, "", "")
	if _, err := c.Client.AuthenticateBasicToken(context.Background(), "admin", "wrong"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("wrong password: %v", err)
	}
	if _, err := c.Execute(context.Background(), "select 1"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("no token: %v", err)
	}
	ctx, err := c.Client.AuthenticateBasicToken(context.Background(), "reader", "r3ad")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecuteUpdate(ctx, "insert into t values (1)"); status.Code(err) != codes.PermissionDenied {
		t.Errorf("reader insert: %v", err)
	}
	info, err := c.Execute(ctx, "select count(*) from t")
	if err != nil {
		t.Fatal(err)
	}
	if _, got := fetch(t, c, ctx, info); got != "0\n" {
		t.Errorf("reader count: %q", got)
	}
}

// TestFlightSQLSSBSchemas: for every SSB query the schema FlightInfo
// announces is the schema of the batches that come.
func TestFlightSQLSSBSchemas(t *testing.T) {
	script, dir := ssbScript(t)
	db, _ := engine.Open(engine.Options{Executor: "cpu"})
	if _, err := db.Exec(context.Background(), script, dir); err != nil {
		t.Fatal(err)
	}
	srv, _ := startServer(t, Config{DB: db}, "")
	c, ctx := startFlight(t, srv, "reader", "r3ad")
	for _, q := range ssbgen.Queries() {
		info, err := c.Execute(ctx, q.SQL)
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		schema, _ := fetch(t, c, ctx, info)
		announced, err := flight.DeserializeSchema(info.Schema, memory.DefaultAllocator)
		if err != nil || !announced.Equal(schema) {
			t.Errorf("%s: announced %v (%v), sent %v", q.Name, announced, err, schema)
		}
	}
}

// TestFlightSQLDatetime: DATETIME columns travel as timestamp[us] (no time
// zone: the session's zone is UTC), and a timestamp parameter binds.
func TestFlightSQLDatetime(t *testing.T) {
	srv, _ := startServer(t, Config{}, `create table e (id int, at datetime(3));
		insert into e values (1, '2024-02-29 13:14:15.125'), (2, NULL), (3, '1999-12-31 23:59:59');`)
	c, ctx := startFlight(t, srv, "admin", "secret")
	info, err := c.Execute(ctx, "select id, at from e order by id")
	if err != nil {
		t.Fatal(err)
	}
	schema, got := fetch(t, c, ctx, info)
	if dt, ok := schema.Field(1).Type.(*arrow.TimestampType); !ok || dt.Unit != arrow.Microsecond || dt.TimeZone != "" {
		t.Errorf("at column type %s, want timestamp[us]", schema.Field(1).Type)
	}
	if want := "1 2024-02-29 13:14:15.125Z\n2 NULL\n3 1999-12-31 23:59:59Z\n"; got != want { // Arrow prints UTC with a Z
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	prep, err := c.Prepare(ctx, "select id from e where at >= ?")
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close(ctx)
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{{Name: "p", Type: &arrow.TimestampType{Unit: arrow.Millisecond}}}, nil))
	defer b.Release()
	b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(time.Date(2024, 2, 29, 13, 14, 15, 125e6, time.UTC).UnixMilli()))
	rec := b.NewRecord()
	defer rec.Release()
	prep.SetParameters(rec)
	if info, err = prep.Execute(ctx); err != nil {
		t.Fatal(err)
	}
	if _, got := fetch(t, c, ctx, info); got != "1\n" {
		t.Errorf("prepared with a timestamp: %q, want \"1\\n\"", got)
	}
}

// TestFlightSQLTimeYear: TIME columns travel as time64[us], YEAR as int32.
func TestFlightSQLTimeYear(t *testing.T) {
	srv, _ := startServer(t, Config{}, `create table e (id int, t time(3), y year);
		insert into e values (1, '10:20:30.125', '69'), (2, NULL, 0);`)
	c, ctx := startFlight(t, srv, "admin", "secret")
	info, err := c.Execute(ctx, "select id, t, y from e order by id")
	if err != nil {
		t.Fatal(err)
	}
	schema, got := fetch(t, c, ctx, info)
	if dt, ok := schema.Field(1).Type.(*arrow.Time64Type); !ok || dt.Unit != arrow.Microsecond {
		t.Errorf("t column type %s, want time64[us]", schema.Field(1).Type)
	}
	if schema.Field(2).Type.ID() != arrow.INT32 {
		t.Errorf("y column type %s, want int32", schema.Field(2).Type)
	}
	if want := "1 10:20:30.125000 2069\n2 NULL 0\n"; got != want { // Arrow prints time64[us] with six digits
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
}

// TestFlightSQLConnectionID: a Flight SQL call is its own session, with an
// id of its own as every MySQL connection has (it was 0).
func TestFlightSQLConnectionID(t *testing.T) {
	srv, _ := startServer(t, Config{}, "")
	c, ctx := startFlight(t, srv, "admin", "secret")
	ids := map[string]bool{}
	for range 2 {
		info, err := c.Execute(ctx, "select connection_id() = @@pseudo_thread_id, connection_id()")
		if err != nil {
			t.Fatal(err)
		}
		_, got := fetch(t, c, ctx, info)
		same, id, _ := strings.Cut(strings.TrimSpace(got), " ")
		if same != "true" || id == "0" || ids[id] {
			t.Errorf("CONNECTION_ID() = @@pseudo_thread_id, CONNECTION_ID(): %q, want true and a new id other than 0", got)
		}
		ids[id] = true
	}
}
