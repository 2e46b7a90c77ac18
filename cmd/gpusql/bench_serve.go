package main

import (
	"context"
	dbsql "database/sql"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"log"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow/go/v15/arrow/flight/flightsql"
	"github.com/go-sql-driver/mysql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"gpusql/engine"
	"gpusql/server"
	"gpusql/storage/ssbgen"
)

// benchServe runs `gpusql bench serve`: an in-process server on loopback,
// the 13 SSB queries from 1, 8 and 64 concurrent clients over each
// protocol (each client runs every query --rounds times, in a rotated
// order), then one large result streamed over each protocol.
func benchServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := fs.Float64("sf", 0.1, "scale factor to generate (ignored with --data)")
	data := fs.String("data", "", "folder with schema.sql and the table files (default: generate straight into memory)")
	clientsFlag := fs.String("clients", "1,8,64", "comma-separated client counts")
	rounds := fs.Int("rounds", 3, "times each client runs the 13 queries")
	streamRows := fs.Int("stream-rows", 10_000_000, "rows of the streamed result (at most lineorder's)")
	executor := fs.String("executor", "auto", "executor: cpu, gpu or auto")
	planCache := fs.String("plan-cache", "on", "reuse the plans of repeated queries: on or off (to measure what the plan cache saves)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var clients []int
	for _, s := range strings.Split(*clientsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "gpusql bench serve: --clients: bad count %q\n", s)
			return 2
		}
		clients = append(clients, n)
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "gpusql bench serve:", err)
		return 1
	}
	db, err := engine.Open(engine.Options{Executor: *executor, PlanCache: *planCache})
	if err != nil {
		return fail(err)
	}
	ctx := context.Background()
	if err := fillSSB(ctx, db, *data, *sf, 0, stderr); err != nil {
		return fail(err)
	}
	if _, err := db.Exec(ctx, "create user 'bench' identified by 'bench'; grant select on *.* to 'bench'", ""); err != nil {
		return fail(err)
	}
	srv, err := server.New(server.Config{DB: db, Log: log.New(io.Discard, "", 0)})
	if err != nil {
		return fail(err)
	}
	defer srv.Close()
	myAddr, flAddr, err := listenBoth(srv)
	if err != nil {
		return fail(err)
	}
	my, fl, err := benchClients(myAddr, flAddr, slices.Max(clients))
	if err != nil {
		return fail(err)
	}
	defer my.db.Close()
	defer fl.c.Close()
	fmt.Fprintf(stdout, "SSB over the server (executor %s, %d rounds of 13 queries per client, loopback)\n", db.Executor(), *rounds)
	fmt.Fprintf(stdout, "every answer is checked equal to a single session's\n")
	fmt.Fprintf(stdout, "%-8s %8s %10s %10s %10s\n", "protocol", "clients", "QPS", "p50 ms", "p99 ms")
	for _, p := range []benchProtocol{my, fl} {
		want, err := baseline(p)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", p.name(), err))
		}
		for _, n := range clients {
			lat, wall, err := runClients(p, n, *rounds, want)
			if err != nil {
				return fail(fmt.Errorf("%s, %d clients: %w", p.name(), n, err))
			}
			fmt.Fprintf(stdout, "%-8s %8d %10.1f %10.2f %10.2f\n", p.name(), n,
				float64(len(lat))/wall.Seconds(), pct(lat, 0.50), pct(lat, 0.99))
		}
	}
	rows := min(*streamRows, lineorderRows(db))
	q := fmt.Sprintf("select lo_orderkey, lo_linenumber, lo_custkey, lo_orderdate, lo_quantity, lo_extendedprice, lo_revenue from lineorder limit %d", rows)
	fmt.Fprintf(stdout, "streaming %d rows of 7 columns:\n", rows)
	for _, p := range []benchProtocol{my, fl} {
		start := time.Now()
		n, bytes, _, err := p.stream(q)
		if err != nil {
			return fail(err)
		}
		d := time.Since(start)
		fmt.Fprintf(stdout, "%-8s %d rows in %.2f s: %.1f MB/s of payload, %.2f M rows/s\n",
			p.name(), n, d.Seconds(), float64(bytes)/d.Seconds()/1e6, float64(n)/d.Seconds()/1e6)
	}
	return 0
}

func lineorderRows(db *engine.DB) int {
	if t, ok := db.Catalog().Table("lineorder"); ok {
		return t.Rows
	}
	return 0
}

func listenBoth(srv *server.Server) (string, string, error) {
	lm, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", "", err
	}
	lf, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", "", err
	}
	go srv.ServeMySQL(lm)
	go srv.ServeFlight(lf)
	return lm.Addr().String(), lf.Addr().String(), nil
}

// benchProtocol is one protocol's client side.
type benchProtocol interface {
	name() string
	// stream runs q and counts rows and payload bytes received; the
	// digest fingerprints the rows (in order) to compare answers.
	stream(q string) (rows, bytes int64, digest uint64, err error)
}

type mysqlBench struct{ db *dbsql.DB }

type flightBench struct {
	c   *flightsql.Client
	ctx context.Context
}

func benchClients(myAddr, flAddr string, conns int) (*mysqlBench, *flightBench, error) {
	_ = mysql.SetLogger(log.New(io.Discard, "", 0))
	db, err := dbsql.Open("mysql", "bench:bench@tcp("+myAddr+")/gpusql")
	if err != nil {
		return nil, nil, err
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	c, err := flightsql.NewClient(flAddr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, err
	}
	ctx, err := c.Client.AuthenticateBasicToken(context.Background(), "bench", "bench")
	if err != nil {
		return nil, nil, err
	}
	return &mysqlBench{db}, &flightBench{c, ctx}, nil
}

func (m *mysqlBench) name() string { return "mysql" }

func (m *mysqlBench) stream(q string) (int64, int64, uint64, error) {
	rows, err := m.db.Query(q)
	if err != nil {
		return 0, 0, 0, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]dbsql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var n, bytes int64
	h := fnv.New64a()
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, 0, 0, err
		}
		n++
		for _, v := range vals {
			bytes += int64(len(v))
			h.Write(v)
			h.Write([]byte{0})
		}
	}
	return n, bytes, h.Sum64(), rows.Err()
}

func (f *flightBench) name() string { return "flight" }

func (f *flightBench) stream(q string) (int64, int64, uint64, error) {
	info, err := f.c.Execute(f.ctx, q)
	if err != nil {
		return 0, 0, 0, err
	}
	var n, bytes int64
	h := fnv.New64a()
	for _, ep := range info.Endpoint {
		rdr, err := f.c.DoGet(f.ctx, ep.Ticket)
		if err != nil {
			return 0, 0, 0, err
		}
		for rdr.Next() {
			rec := rdr.Record()
			n += rec.NumRows()
			if rec.NumRows() <= 1000 { // query answers; not the streamed result
				for i := 0; i < int(rec.NumRows()); i++ {
					for _, col := range rec.Columns() {
						h.Write([]byte(col.ValueStr(i)))
						h.Write([]byte{0})
					}
				}
			}
			for _, col := range rec.Columns() {
				for _, b := range col.Data().Buffers() {
					if b != nil {
						bytes += int64(b.Len())
					}
				}
			}
		}
		err = rdr.Err()
		rdr.Release()
		if err != nil {
			return 0, 0, 0, err
		}
	}
	return n, bytes, h.Sum64(), nil
}

// baseline is each SSB query's answer digest from one session alone.
func baseline(p benchProtocol) (map[string]uint64, error) {
	want := map[string]uint64{}
	for _, q := range ssbgen.Queries() {
		_, _, d, err := p.stream(q.SQL)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q.Name, err)
		}
		want[q.Name] = d
	}
	return want, nil
}

// runClients runs n clients, each the 13 SSB queries rounds times, and
// returns every query's latency and the wall time. An error, or an answer
// that differs from a single session's (want), fails the run.
func runClients(p benchProtocol, n, rounds int, want map[string]uint64) ([]time.Duration, time.Duration, error) {
	queries := ssbgen.Queries()
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				for j := range queries {
					q := queries[(j+k)%len(queries)]
					t0 := time.Now()
					_, _, digest, err := p.stream(q.SQL)
					d := time.Since(t0)
					if err == nil && digest != want[q.Name] {
						err = fmt.Errorf("client %d: answer differs from a single session's", k)
					}
					mu.Lock()
					if err != nil && firstErr == nil {
						firstErr = fmt.Errorf("%s: %w", q.Name, err)
					}
					lat = append(lat, d)
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}
		}(k)
	}
	wg.Wait()
	return lat, time.Since(start), firstErr
}

// pct is the p-th quantile of the latencies in milliseconds.
func pct(lat []time.Duration, p float64) float64 {
	s := slices.Clone(lat)
	slices.Sort(s)
	i := min(int(p*float64(len(s))), len(s)-1)
	return float64(s[i].Microseconds()) / 1000
}
