package sql

import (
	"math"
	"sort"
	"strings"
	"sync"

	"gpusql/storage/columnar"
)

// Session holds the system variables a connection's statements see: the
// SQL mode, which changes how statements bind, and the variables the engine
// owns (memory_limit), which SELECT @@name reads. One Session serves a
// database (the REPL, one driver connector), so SESSION and GLOBAL scopes
// are the same variables.
type Session struct {
	mu      sync.RWMutex
	sqlMode []string
	engine  map[string]*Const
	// limits are MySQL's integer limits gpusql honours
	// (cte_max_recursion_depth, group_concat_max_len).
	limits map[string]int64
	user   string // USER(): who logged in to a server session
	// timeZone is @@session.time_zone; global holds @@global.time_zone
	// and the global limits, shared by the sessions of one database
	// (time_zone.go).
	timeZone *TimeZone
	global   *globals
}

// globals are the GLOBAL values sessions opened later start from: as in
// MySQL, SET GLOBAL leaves the sessions already open as they are.
type globals struct {
	mu      sync.RWMutex
	zone    *TimeZone
	limits  map[string]int64 // limitVariables set by SET GLOBAL
	sqlMode []string         // @@global.sql_mode
	// manualCommit is SET GLOBAL autocommit = 0: connections opened
	// later start with autocommit off.
	manualCommit bool
}

// TimeZone is @@session.time_zone.
func (s *Session) TimeZone() *TimeZone {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.timeZone
}

// SetTimeZone sets @@session.time_zone.
func (s *Session) SetTimeZone(z *TimeZone) {
	s.mu.Lock()
	s.timeZone = z
	s.mu.Unlock()
}

// GlobalTimeZone is @@global.time_zone.
func (s *Session) GlobalTimeZone() *TimeZone {
	s.global.mu.RLock()
	defer s.global.mu.RUnlock()
	return s.global.zone
}

// SetGlobalTimeZone sets @@global.time_zone, which sessions opened later
// start in (as in MySQL, the sessions already open keep theirs).
func (s *Session) SetGlobalTimeZone(z *TimeZone) {
	s.global.mu.Lock()
	s.global.zone = z
	s.global.mu.Unlock()
}

// NewSessionOf returns a session of the same database as s: it shares s's
// global variables and starts in @@global.time_zone.
func (s *Session) NewSessionOf() *Session {
	n := NewSession()
	n.global = s.global
	n.timeZone = s.GlobalTimeZone()
	s.global.mu.RLock()
	n.sqlMode = s.global.sqlMode // replaced whole by SET, never changed in place
	for name, v := range s.global.limits {
		n.SetLimit(name, v)
	}
	s.global.mu.RUnlock()
	return n
}

// SetUser records the user a server session runs as, for USER().
func (s *Session) SetUser(name string) {
	s.mu.Lock()
	s.user = name
	s.mu.Unlock()
}

// User is the session's user ("" outside a server).
func (s *Session) User() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.user
}

// limitVariables are the settable integer limits, their defaults and
// least values (MySQL's).
var limitVariables = map[string][2]int64{
	"cte_max_recursion_depth": {1000, 0},
	"group_concat_max_len":    {1024, 4},
	// max_execution_time bounds a SELECT's run, in milliseconds (0: no
	// bound; engine/max_execution_time.go).
	"max_execution_time": {0, 0},
	// foreign_key_checks = 0 turns foreign key checks and cascades off
	// (engine/foreign_keys.go), 1 on (a switch: engine/set.go).
	"foreign_key_checks": {1, 0},
	// sql_select_limit bounds the rows of a top SELECT without a LIMIT
	// (SelectLimit); the default, no bound, is MySQL's 2^64-1.
	"sql_select_limit": {math.MaxInt64, 0},
	// max_allowed_packet is read-only in a session (SET GLOBAL only:
	// set.go); within [1 KiB, 1 GiB], a multiple of 1 KiB (PacketFit).
	"max_allowed_packet": {MaxAllowedPacket, 1024},
}

// PacketFit is the max_allowed_packet MySQL stores for n: within 1 KiB
// and 1 GiB, rounded down to a multiple of 1 KiB (its block size).
func PacketFit(n int64) int64 {
	return min(max(n, 1024), 1<<30) &^ 1023
}

// LimitDefault is a limit variable's default; ok is false for other names.
func LimitDefault(name string) (int64, bool) {
	d, ok := limitVariables[name]
	return d[0], ok
}

// LimitLeast is a limit variable's least value (SET raises a smaller one
// to it).
func LimitLeast(name string) int64 { return limitVariables[name][1] }

// Limit is the current value of a limit variable.
func (s *Session) Limit(name string) int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if v, ok := s.limits[name]; ok {
		return v
	}
	return limitVariables[name][0]
}

// SetLimit sets a limit variable (SET cte_max_recursion_depth = n); ok is
// false for a name that is not one. Values under the least are raised to
// it, as MySQL does.
func (s *Session) SetLimit(name string, v int64) bool {
	d, ok := limitVariables[name]
	if !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits == nil {
		s.limits = map[string]int64{}
	}
	s.limits[name] = max(v, d[1])
	return true
}

// NewSession returns a session with the default variables.
func NewSession() *Session {
	s := &Session{engine: map[string]*Const{}, timeZone: UTCZone, global: &globals{zone: UTCZone, limits: map[string]int64{}}}
	// sql_log_bin = 0 would keep a session's writes out of the binary log,
	// which gpusql does not have; mysqldump's scripts save, set and
	// restore it, so it reads back what was set, as in MySQL.
	s.engine["sql_log_bin"] = &Const{T: columnar.TInt64, I: 1}
	if err := s.SetSQLMode(DefaultSQLMode); err != nil {
		panic(err)
	}
	s.global.sqlMode = s.sqlMode
	return s
}

func (s *Session) hasMode(m string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, x := range s.sqlMode {
		if x == m {
			return true
		}
	}
	return false
}

// HasMode reports whether sql_mode includes m (upper case).
func (s *Session) HasMode(m string) bool { return s.hasMode(m) }

// OnlyFullGroupBy reports whether a grouped query must aggregate or group
// every column it names.
func (s *Session) OnlyFullGroupBy() bool { return s.hasMode("ONLY_FULL_GROUP_BY") }

// SetEngineVariable records the current value of a variable the engine
// owns, for SELECT @@name.
func (s *Session) SetEngineVariable(name string, v *Const) {
	s.mu.Lock()
	s.engine[strings.ToLower(name)] = v
	s.mu.Unlock()
}

// serverVersion is what @@version reports: the MySQL version whose
// behaviour gpusql follows, marked as gpusql.
const serverVersion = "8.0.36-gpusql"

// Variable is the value of @@name, if the variable exists.
func (s *Session) Variable(name string) (*Const, bool) {
	name = strings.ToLower(name)
	str := func(v string) (*Const, bool) { return &Const{T: columnar.TString, S: v}, true }
	switch name {
	case "sql_mode":
		return str(s.SQLMode())
	case "version":
		return str(serverVersion)
	case "version_comment":
		return str("gpusql")
	case "div_precision_increment":
		return &Const{T: columnar.TInt64, I: 4}, true
	case "time_zone":
		return str(s.TimeZone().Name)
	case "system_time_zone":
		return str(SystemTimeZone)
	}
	if _, ok := limitVariables[name]; ok {
		return limitConst(name, s.Limit(name)), true
	}
	if v, ok := fixedVariables[name]; ok {
		return v, true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.engine[name]
	return v, ok
}

// Variables lists the readable variables, for error messages.
func (s *Session) Variables() []string {
	names := []string{"sql_mode", "version", "version_comment", "div_precision_increment", "time_zone", "system_time_zone"}
	for n := range limitVariables {
		names = append(names, n)
	}
	for n := range fixedVariables {
		names = append(names, n)
	}
	s.mu.RLock()
	for n := range s.engine {
		names = append(names, n)
	}
	s.mu.RUnlock()
	sort.Strings(names)
	return names
}

// GlobalLimit is @@global.name of a limit variable.
func (s *Session) GlobalLimit(name string) int64 {
	s.global.mu.RLock()
	defer s.global.mu.RUnlock()
	if v, ok := s.global.limits[name]; ok {
		return v
	}
	return limitVariables[name][0]
}

// SetGlobalLimit sets @@global.name of a limit variable (raised to its
// least value, as SetLimit), which sessions opened later start with.
func (s *Session) SetGlobalLimit(name string, v int64) bool {
	d, ok := limitVariables[name]
	if !ok {
		return false
	}
	s.global.mu.Lock()
	s.global.limits[name] = max(v, d[1])
	s.global.mu.Unlock()
	return true
}

// GlobalVariable is @@global.name where it differs from the session's
// value; ok is false for a variable whose two scopes gpusql shares.
func (s *Session) GlobalVariable(name string) (*Const, bool) {
	name = strings.ToLower(name)
	switch _, limit := limitVariables[name]; {
	case name == "time_zone":
		return &Const{T: columnar.TString, S: s.GlobalTimeZone().Name}, true
	case name == "sql_mode":
		return &Const{T: columnar.TString, S: s.GlobalSQLMode()}, true
	case name == "sql_log_bin":
		// Its global default, which SHOW GLOBAL VARIABLES lists; no SET
		// GLOBAL changes it and @@global reads refuse it (set.go).
		return &Const{T: columnar.TInt64, I: 1}, true
	case limit:
		return limitConst(name, s.GlobalLimit(name)), true
	case name == "autocommit":
		on := int64(0)
		if s.GlobalAutocommit() {
			on = 1
		}
		return &Const{T: columnar.TInt64, I: on}, true
	}
	return nil, false
}

// limitConst is a limit variable's value as @@name reads it.
func limitConst(name string, v int64) *Const {
	if name == "sql_select_limit" && v == math.MaxInt64 {
		return &Const{T: columnar.TUint64, I: -1} // 18446744073709551615
	}
	return &Const{T: columnar.TInt64, I: v}
}

// GlobalAutocommit is @@global.autocommit, which connections opened later
// start with.
func (s *Session) GlobalAutocommit() bool {
	s.global.mu.RLock()
	defer s.global.mu.RUnlock()
	return !s.global.manualCommit
}

// SetGlobalAutocommit records SET GLOBAL autocommit = on; the open
// connections keep theirs, as in MySQL.
func (s *Session) SetGlobalAutocommit(on bool) {
	s.global.mu.Lock()
	s.global.manualCommit = !on
	s.global.mu.Unlock()
}
