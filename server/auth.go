package server

import (
	"crypto/rand"
	"crypto/tls"
	"fmt"

	gms "github.com/go-mysql-org/go-mysql/server"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// Authentication. The protocol library checks the client's scramble
// against the password a credential provider returns, for
// mysql_native_password and caching_sha2_password alike. Its own
// in-memory provider is the one its caching_sha2_password fast path
// accepts, so each connection gets one filled with the database's users
// as they are at that moment: a user created, changed or dropped takes
// effect from the next connection on, as in MySQL. A user with no rights
// (created but never granted anything) cannot log in.
//
// The library answers a name it does not know with "user does not exist"
// (1449), which tells a stranger which names exist. Under
// mysql_native_password an unknown name instead gets a random password no
// client can know, so it fails as a wrong password does (1045, as MySQL);
// the caching_sha2_password fast path needs the library's own provider,
// which keeps the library's answer.
//
// With --insecure-no-auth anyone may log in as any name with an empty
// password (a created user still needs its own password).

func (s *Server) credentials(method string) gms.CredentialProvider {
	p := gms.NewInMemoryProvider()
	for _, name := range s.db.Users() {
		if u, ok := s.db.User(name); ok && u.Read {
			p.AddUser(u.Name, u.Password)
		}
	}
	switch {
	case s.cfg.InsecureNoAuth:
		return anyone{p}
	case method == mysql.AUTH_NATIVE_PASSWORD:
		return strangers{p}
	}
	return p
}

// strangers gives unknown names a password nobody knows.
type strangers struct{ users *gms.InMemoryProvider }

func (p strangers) CheckUsername(string) (bool, error) { return true, nil }

func (p strangers) GetCredential(name string) (string, bool, error) {
	if pw, ok, _ := p.users.GetCredential(name); ok {
		return pw, true, nil
	}
	return rand.Text(), true, nil
}

// anyone lets every name in with an empty password, created users with
// theirs.
type anyone struct{ users *gms.InMemoryProvider }

func (a anyone) CheckUsername(string) (bool, error) { return true, nil }

func (a anyone) GetCredential(name string) (string, bool, error) {
	if pw, ok, _ := a.users.GetCredential(name); ok {
		return pw, true, nil
	}
	return "", true, nil
}

// protocolServer is the library's server configuration: gpusql's version,
// utf8mb4, the authentication method and TLS.
func (s *Server) protocolServer() (*gms.Server, string, error) {
	method := s.cfg.AuthMethod
	switch method {
	case "", mysql.AUTH_NATIVE_PASSWORD:
		method = mysql.AUTH_NATIVE_PASSWORD
	case mysql.AUTH_CACHING_SHA2_PASSWORD:
	default:
		return nil, "", fmt.Errorf("server: unknown authentication method %q (want %s or %s)", method, mysql.AUTH_NATIVE_PASSWORD, mysql.AUTH_CACHING_SHA2_PASSWORD)
	}
	var tlsConf *tls.Config
	if s.cfg.TLS != nil {
		tlsConf = s.cfg.TLS
	}
	return gms.NewServer(serverVersion, mysql.DEFAULT_COLLATION_ID, method, nil, tlsConf), method, nil
}

// serverVersion is what the handshake and @@version report.
const serverVersion = "8.0.36-gpusql"

// LoadTLS reads a certificate and its key (PEM files) for Config.TLS.
func LoadTLS(certFile, keyFile string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("server: TLS certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}
