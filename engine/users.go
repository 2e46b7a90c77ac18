package engine

import (
	"fmt"
	"sort"
	"sync"

	"gpusql/sql"
)

// Users are the accounts the server (server/) lets in: CREATE USER gives a
// name and password, GRANT SELECT ON *.* lets the user read, GRANT ALL ON
// *.* read and write. They live with the database in memory (a -f script
// run before serving creates them). Passwords are kept as given because
// MySQL's challenge-response methods (mysql_native_password,
// caching_sha2_password) check a scramble computed from the password.

// User is one account.
type User struct {
	Name, Password string
	// Read and Write are the rights granted (Write implies Read).
	Read, Write bool
}

type users struct {
	mu sync.RWMutex
	m  map[string]*User
}

// User returns the account name, if it exists.
func (db *DB) User(name string) (User, bool) {
	db.users.mu.RLock()
	defer db.users.mu.RUnlock()
	u, ok := db.users.m[name]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// Users lists the account names.
func (db *DB) Users() []string {
	db.users.mu.RLock()
	defer db.users.mu.RUnlock()
	var names []string
	for n := range db.users.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// createUser applies CREATE USER: all named users are created or none
// (MySQL's error 1396 names the ones that exist).
func (db *DB) createUser(s *sql.CreateUser) (*StatementResult, error) {
	db.users.mu.Lock()
	defer db.users.mu.Unlock()
	if db.users.m == nil {
		db.users.m = map[string]*User{}
	}
	for _, u := range s.Users {
		if _, ok := db.users.m[u.Name]; ok && !s.IfNotExists {
			return nil, &UserError{Op: "CREATE USER", Name: u.Name}
		}
	}
	for _, u := range s.Users {
		if _, ok := db.users.m[u.Name]; !ok {
			db.users.m[u.Name] = &User{Name: u.Name, Password: u.Password}
		}
	}
	return message("created %d %s", len(s.Users), plural(len(s.Users), "user")), nil
}

func (db *DB) dropUser(s *sql.DropUser) (*StatementResult, error) {
	db.users.mu.Lock()
	defer db.users.mu.Unlock()
	for _, n := range s.Names {
		if _, ok := db.users.m[n]; !ok && !s.IfExists {
			return nil, &UserError{Op: "DROP USER", Name: n}
		}
	}
	for _, n := range s.Names {
		delete(db.users.m, n)
	}
	return message("dropped %d %s", len(s.Names), plural(len(s.Names), "user")), nil
}

func (db *DB) grant(s *sql.Grant) (*StatementResult, error) {
	db.users.mu.Lock()
	defer db.users.mu.Unlock()
	for _, n := range s.Names {
		if _, ok := db.users.m[n]; !ok {
			return nil, fmt.Errorf("user '%s' does not exist (CREATE USER it first)", n)
		}
	}
	for _, n := range s.Names {
		u := db.users.m[n]
		// REVOKE SELECT takes reading away, and with it writing.
		switch {
		case s.Revoke:
			u.Read, u.Write = false, false
		case s.Write:
			u.Read, u.Write = true, true
		default:
			u.Read = true
		}
	}
	if s.Revoke {
		return message("revoked"), nil
	}
	return message("granted"), nil
}

// UserError is CREATE USER of a user that exists or DROP USER of one that
// does not (MySQL error 1396).
type UserError struct{ Op, Name string }

func (e *UserError) Error() string {
	return fmt.Sprintf("operation %s failed for '%s'", e.Op, e.Name)
}
