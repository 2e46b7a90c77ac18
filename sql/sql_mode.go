package sql

import (
	"strings"
)

// DefaultSQLMode is MySQL 8.0's default sql_mode without ONLY_FULL_GROUP_BY.
// gpusql leaves that one out because its check does not see functional
// dependencies (MySQL accepts SELECT name FROM t GROUP BY id when id is the
// key; gpusql's ONLY_FULL_GROUP_BY would not), and most MySQL applications
// run without it. The rest is MySQL's: strict writes, no zero dates, and a
// division by zero in INSERT / UPDATE an error (1365).
const DefaultSQLMode = "STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

// sqlModeOrder lists MySQL 8.0's sql_mode names in the order of their bits,
// which is the order @@sql_mode prints them in whatever order SET named
// them (sql/sys_vars.cc, sql_mode_names).
var sqlModeOrder = []string{
	"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ONLY_FULL_GROUP_BY",
	"NO_UNSIGNED_SUBTRACTION", "NO_DIR_IN_CREATE", "ANSI", "NO_AUTO_VALUE_ON_ZERO",
	"NO_BACKSLASH_ESCAPES", "STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE",
	"NO_ZERO_DATE", "ALLOW_INVALID_DATES", "ERROR_FOR_DIVISION_BY_ZERO", "TRADITIONAL",
	"HIGH_NOT_PRECEDENCE", "NO_ENGINE_SUBSTITUTION", "PAD_CHAR_TO_FULL_LENGTH",
	"TIME_TRUNCATE_FRACTIONAL",
}

// sqlModeCombinations are the combination modes and the modes each sets
// besides itself, as the manual's "Combination SQL Modes" lists them.
var sqlModeCombinations = map[string][]string{
	"ANSI": {"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ONLY_FULL_GROUP_BY"},
	"TRADITIONAL": {"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE",
		"ERROR_FOR_DIVISION_BY_ZERO", "NO_ENGINE_SUBSTITUTION"},
}

// SetSQLMode sets sql_mode from a comma-separated list of mode names
// (case-insensitive; the empty string clears it). A combination mode adds
// the modes it stands for. An unknown name is MySQL's error 1231 and
// changes nothing.
func (s *Session) SetSQLMode(v string) error {
	modes, err := parseSQLMode(v)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.sqlMode = modes
	s.mu.Unlock()
	return nil
}

// SetGlobalSQLMode sets @@global.sql_mode, which sessions opened later
// start with; as in MySQL, the sessions already open (this one too) keep
// theirs.
func (s *Session) SetGlobalSQLMode(v string) error {
	modes, err := parseSQLMode(v)
	if err != nil {
		return err
	}
	s.global.mu.Lock()
	s.global.sqlMode = modes
	s.global.mu.Unlock()
	return nil
}

// GlobalSQLMode is @@global.sql_mode.
func (s *Session) GlobalSQLMode() string {
	s.global.mu.RLock()
	defer s.global.mu.RUnlock()
	return strings.Join(s.global.sqlMode, ",")
}

// parseSQLMode is the modes a SET sql_mode value names, in MySQL's order.
func parseSQLMode(v string) ([]string, error) {
	set := map[string]bool{}
	for _, m := range strings.Split(v, ",") {
		m = strings.ToUpper(strings.TrimSpace(m))
		if m == "" {
			continue
		}
		if !knownSQLMode(m) {
			return nil, Errorf(ErWrongValueForVar, "Variable 'sql_mode' can't be set to the value of '%s'", m)
		}
		set[m] = true
		for _, x := range sqlModeCombinations[m] {
			set[x] = true
		}
	}
	var modes []string
	for _, m := range sqlModeOrder {
		if set[m] {
			modes = append(modes, m)
		}
	}
	return modes, nil
}

func knownSQLMode(m string) bool {
	for _, x := range sqlModeOrder {
		if x == m {
			return true
		}
	}
	return false
}

// SQLMode is @@sql_mode.
func (s *Session) SQLMode() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return strings.Join(s.sqlMode, ",")
}

// Strict reports whether writes are strict (STRICT_TRANS_TABLES or
// STRICT_ALL_TABLES; gpusql's tables are all transactional): a value a
// column cannot hold is an error, not a warning and an adjusted value.
func (s *Session) Strict() bool {
	return s.hasMode("STRICT_TRANS_TABLES") || s.hasMode("STRICT_ALL_TABLES")
}

// sqlModeBits are the bits of MySQL 8.0's numeric sql_mode (SET sql_mode =
// 2097152 is STRICT_TRANS_TABLES): mode i of sqlModeOrder is bit
// sqlModeBits[i].
var sqlModeBits = []uint{0, 1, 2, 3, 5, 6, 7, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 29, 30, 31, 32}

// SQLModeOfBits is the sql_mode a number names (MySQL takes the bit set
// as well as the names); a bit no mode has is error 1231.
func SQLModeOfBits(v *Const) (string, error) {
	if !v.T.IsInteger() || v.I < 0 {
		return "", Errorf(ErWrongTypeForVar, "Incorrect argument type to variable 'sql_mode'")
	}
	bits := uint64(v.I)
	var names []string
	for i, b := range sqlModeBits {
		if bits&(1<<b) != 0 {
			names = append(names, sqlModeOrder[i])
			bits &^= 1 << b
		}
	}
	if bits != 0 {
		return "", Errorf(ErWrongValueForVar, "Variable 'sql_mode' can't be set to the value of '%d'", v.I)
	}
	return strings.Join(names, ","), nil
}

// CheckSQLMode is SetSQLMode's error for v without setting anything, for
// SET's check of every assignment before it applies one.
func CheckSQLMode(v string) error {
	_, err := parseSQLMode(v)
	return err
}
