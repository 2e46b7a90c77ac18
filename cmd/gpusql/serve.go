package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"gpusql/engine"
	"gpusql/server"
)

// serveMain runs `gpusql serve`: it opens a database, runs the -f scripts
// (tables, users), and serves it over the MySQL protocol and Arrow Flight
// SQL until interrupted.
func serveMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gpusql serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var scripts []string
	fs.Func("f", "run the SQL script `FILE` before serving (tables, CREATE USER, GRANT; repeatable)", func(v string) error {
		scripts = append(scripts, v)
		return nil
	})
	mysqlAddr := fs.String("mysql", "127.0.0.1:3306", "serve the MySQL protocol on `ADDR` (\"\": off)")
	flightAddr := fs.String("flight", "", "serve Arrow Flight SQL on `ADDR`, as 127.0.0.1:31337 (\"\": off)")
	noAuth := fs.Bool("insecure-no-auth", false, "let clients in without a password (loopback addresses only)")
	tlsCert := fs.String("tls-cert", "", "TLS certificate `FILE` (PEM); with --tls-key, clients may use TLS")
	tlsKey := fs.String("tls-key", "", "TLS key `FILE` (PEM)")
	fileRoot := fs.String("file-root", "", "clients' LOAD DATA / IMPORT read only under `DIR` (default: no file access)")
	authMethod := fs.String("auth-method", "mysql_native_password", "MySQL authentication: mysql_native_password or caching_sha2_password")
	maxConns := fs.Int("max-connections", 1000, "MySQL connections open at once; more are refused (error 1040)")
	executor := fs.String("executor", "auto", "executor: cpu, gpu or auto")
	memLimit := fs.String("memory-limit", "default", "bytes all queries may hold at once, as `SIZE` 8GB (0: no limit)")
	tmpDir := fs.String("tmpdir", "", "directory `DIR` for the temporary files of queries past the memory limit (default: the system's temporary directory)")
	maxSpill := fs.String("max-spill", "0", "bytes a query's temporary files may hold on disk, as `SIZE` 10GB (0: no limit)")
	dbPath := fs.String("db", "", "serve the database directory `PATH` (created when absent; default: in memory)")
	timeZone := fs.String("default-time-zone", "", "sessions' starting time zone (@@global.time_zone), as `ZONE` +02:00 or Europe/Paris (default: SYSTEM, which is UTC)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "gpusql serve:", err)
		return 1
	}
	limit, err := engine.ParseMemoryLimit(*memLimit)
	if err != nil {
		return fail(err)
	}
	spill, err := engine.ParseMaxSpill(*maxSpill)
	if err != nil {
		return fail(err)
	}
	db, err := engine.Open(engine.Options{Executor: *executor, MemoryLimit: limit, TmpDir: *tmpDir, MaxSpill: spill, Path: *dbPath, TimeZone: *timeZone})
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	for _, f := range scripts {
		b, err := os.ReadFile(f)
		if err != nil {
			return fail(err)
		}
		if _, err := db.Exec(context.Background(), string(b), filepath.Dir(f)); err != nil {
			return fail(fmt.Errorf("%s: %w", f, err))
		}
	}
	cfg := server.Config{DB: db, InsecureNoAuth: *noAuth, AuthMethod: *authMethod, MaxConnections: *maxConns, Log: log.New(stderr, "", log.LstdFlags)}
	if *fileRoot != "" {
		if cfg.FileRoot, err = filepath.Abs(*fileRoot); err != nil {
			return fail(err)
		}
	}
	if *tlsCert != "" || *tlsKey != "" {
		if cfg.TLS, err = server.LoadTLS(*tlsCert, *tlsKey); err != nil {
			return fail(err)
		}
	}
	srv, err := server.New(cfg)
	if err != nil {
		return fail(err)
	}
	return serveUntilSignal(srv, *mysqlAddr, *flightAddr, stdout, fail)
}

func serveUntilSignal(srv *server.Server, mysqlAddr, flightAddr string, stdout io.Writer, fail func(error) int) int {
	if mysqlAddr == "" && flightAddr == "" {
		return fail(errors.New("nothing to serve: give --mysql ADDR and/or --flight ADDR"))
	}
	errc := make(chan error, 2)
	listen := func(addr, what string, serve func(net.Listener) error) error {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return err
		}
		if err := srv.CheckListener(l); err != nil {
			l.Close()
			return err
		}
		fmt.Fprintf(stdout, "gpusql: serving %s on %s\n", what, l.Addr())
		go func() { errc <- serve(l) }()
		return nil
	}
	if mysqlAddr != "" {
		if err := listen(mysqlAddr, "the MySQL protocol", srv.ServeMySQL); err != nil {
			return fail(err)
		}
	}
	if flightAddr != "" {
		if err := listen(flightAddr, "Arrow Flight SQL", srv.ServeFlight); err != nil {
			srv.Close()
			return fail(err)
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	select {
	case <-sig:
		srv.Close()
		return 0
	case err := <-errc:
		srv.Close()
		if err != nil {
			return fail(err)
		}
		return 0
	}
}
