package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/flight/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"gpusql/engine"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, as
// --tls-cert/--tls-key take them.
func selfSigned(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "gpusql test"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile
}

// TestMySQLTLS: with a certificate the connection upgrades to TLS and
// works.
func TestMySQLTLS(t *testing.T) {
	cert, key := selfSigned(t)
	conf, err := LoadTLS(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	script, dir := ssbScript(t)
	edb, _ := engine.Open(engine.Options{Executor: "cpu"})
	if _, err := edb.Exec(context.Background(), script, dir); err != nil {
		t.Fatal(err)
	}
	srv, addr := startServer(t, Config{DB: edb, TLS: conf}, `create table t (x int); insert into t values (7)`)
	db := open(t, addr, "admin", "secret", "tls=skip-verify")
	var x int
	if err := db.QueryRow("select x from t").Scan(&x); err != nil || x != 7 {
		t.Fatalf("over TLS: %d, %v", x, err)
	}
	// A TLS client that goes away mid-query: the query is cancelled (the
	// session could not end while it ran: it runs for minutes).
	ctx, cancel := context.WithCancel(context.Background())
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	c.QueryRowContext(ctx, "select connection_id()").Scan(&id)
	errc := make(chan error, 1)
	go func() {
		_, err := c.ExecContext(ctx, slowQuery)
		errc <- err
	}()
	waitRunning(t, srv, uint32(id))
	cancel()
	<-errc
	waitGone(t, srv, uint32(id))
	// The same connection with TLS demanded by the client and none
	// offered fails instead of falling back to clear text.
	_, plain := startServer(t, Config{}, ``)
	if err := open(t, plain, "admin", "secret", "tls=true").Ping(); err == nil {
		t.Error("tls=true against a server without TLS connected")
	}
}

// TestFlightSQLTLS: with a certificate Flight SQL is served over TLS.
func TestFlightSQLTLS(t *testing.T) {
	cert, key := selfSigned(t)
	conf, err := LoadTLS(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := startServer(t, Config{TLS: conf}, `create table t (x int); insert into t values (7)`)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.ServeFlight(l)
	creds := credentials.NewTLS(&tls.Config{InsecureSkipVerify: true})
	c, err := flightsql.NewClient(l.Addr().String(), nil, nil, grpc.WithTransportCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, err := c.Client.AuthenticateBasicToken(context.Background(), "reader", "r3ad")
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Execute(ctx, "select x from t")
	if err != nil {
		t.Fatal(err)
	}
	if _, got := fetch(t, c, ctx, info); got != "7\n" {
		t.Errorf("over TLS: %q", got)
	}
}
