package sql

import (
	"fmt"
	"strings"

	"gpusql/storage/columnar"
)

// Connect-time variables. MySQL connectors and BI tools read and set a
// handful of variables when they connect (the mysql client reads
// @@version_comment, JDBC reads @@max_allowed_packet and the character
// sets, many set autocommit and net_write_timeout). gpusql's behaviour does
// not depend on them, so each has the one value gpusql behaves by: reading
// gives it, setting it to that value (or to a value that changes nothing
// here, as a timeout) is accepted, and setting anything else is an error
// saying why.

// fixedVariables are the connect-time variables and their values.
var fixedVariables = map[string]*Const{
	"autocommit":               {T: columnar.TInt64, I: 1},
	"auto_increment_increment": {T: columnar.TInt64, I: 1}, // AUTO_INCREMENT steps by 1 (SET to 1 only)
	"auto_increment_offset":    {T: columnar.TInt64, I: 1},
	"character_set_client":     {T: columnar.TString, S: "utf8mb4"},
	"character_set_connection": {T: columnar.TString, S: "utf8mb4"},
	"character_set_results":    {T: columnar.TString, S: "utf8mb4"},
	"character_set_server":     {T: columnar.TString, S: "utf8mb4"},
	"character_set_database":   {T: columnar.TString, S: "utf8mb4"},
	"collation_connection":     {T: columnar.TString, S: "utf8mb4_0900_ai_ci"},
	"collation_server":         {T: columnar.TString, S: "utf8mb4_0900_ai_ci"},
	"collation_database":       {T: columnar.TString, S: DatabaseCollation},
	"transaction_isolation":    {T: columnar.TString, S: "REPEATABLE-READ"},
	"transaction_read_only":    {T: columnar.TInt64, I: 0},
	"lower_case_table_names":   {T: columnar.TInt64, I: 0},
	"wait_timeout":             {T: columnar.TInt64, I: 28800},
	"interactive_timeout":      {T: columnar.TInt64, I: 28800},
	"net_write_timeout":        {T: columnar.TInt64, I: 60},
	"net_read_timeout":         {T: columnar.TInt64, I: 30},
	"version_compile_os":       {T: columnar.TString, S: "Linux"},
	"init_connect":             {T: columnar.TString, S: ""},
	"license":                  {T: columnar.TString, S: "GPL"},
	"have_ssl":                 {T: columnar.TString, S: "YES"},
	"performance_schema":       {T: columnar.TInt64, I: 0},
	"query_cache_size":         {T: columnar.TInt64, I: 0},
	"query_cache_type":         {T: columnar.TString, S: "OFF"},
	"net_buffer_length":        {T: columnar.TInt64, I: 16384},
	"sql_auto_is_null":         {T: columnar.TInt64, I: 0},
	// Set by mysqldump's scripts and by client libraries (MySQL 8's
	// defaults): the checks and notes gpusql always makes, buffer sizes
	// and timeouts of a server that has neither.
	"unique_checks":                   {T: columnar.TInt64, I: 1},
	"sql_notes":                       {T: columnar.TInt64, I: 1},
	"sql_warnings":                    {T: columnar.TInt64, I: 0},
	"sql_safe_updates":                {T: columnar.TInt64, I: 0},
	"lock_wait_timeout":               {T: columnar.TInt64, I: 31536000},
	"innodb_lock_wait_timeout":        {T: columnar.TInt64, I: 50},
	"max_heap_table_size":             {T: columnar.TInt64, I: 16777216},
	"tmp_table_size":                  {T: columnar.TInt64, I: 16777216},
	"sort_buffer_size":                {T: columnar.TInt64, I: 262144},
	"join_buffer_size":                {T: columnar.TInt64, I: 262144},
	"lc_time_names":                   {T: columnar.TString, S: "en_US"},
	"explicit_defaults_for_timestamp": {T: columnar.TInt64, I: 1},
}

// DatabaseCollation is the database's default collation: the one a table
// that names none gets (bytes, as its columns compare), which SCHEMATA,
// SHOW CREATE DATABASE and @@collation_database report.
const DatabaseCollation = "utf8mb4_bin"

// MaxAllowedPacket is the largest packet a server client may send (the
// server closes a connection that sends more) and @@max_allowed_packet's
// default; SET GLOBAL max_allowed_packet changes the variable that later
// sessions read, not the server's limit.
const MaxAllowedPacket = 64 << 20

// ignoredWhenSet are variables a client may set to anything: they tune
// what gpusql does not have (timeouts of a server that never times a
// client out, result character set conversion it does not do).
var ignoredWhenSet = map[string]bool{
	"wait_timeout": true, "interactive_timeout": true, "net_write_timeout": true,
	"net_read_timeout": true, "character_set_results": true,
	// unique_checks = 0 lets MySQL skip checks it may still make; gpusql
	// makes them. sql_notes = 0 drops notes gpusql hardly gives.
	"unique_checks": true, "sql_notes": true, "lock_wait_timeout": true,
	"innodb_lock_wait_timeout": true, "max_heap_table_size": true, "tmp_table_size": true,
	"sort_buffer_size": true, "join_buffer_size": true,
}

// utf8Names are the character sets and collations gpusql's UTF-8 is.
func utf8Name(s string) bool {
	s = strings.ToLower(s)
	return strings.HasPrefix(s, "utf8") || s == "ascii" || s == "binary" || s == "latin1"
}

// SetFixed applies SET name = v for a connect-time variable: handled false
// when name is none of them.
func SetFixed(name string, v *Const) (handled bool, err error) {
	cur, ok := fixedVariables[name]
	if !ok {
		return false, nil
	}
	switch {
	case ignoredWhenSet[name]:
		return true, nil
	case strings.HasPrefix(name, "character_set_") || strings.HasPrefix(name, "collation_"):
		if v.Null || v.T.ID == columnar.String && utf8Name(v.S) {
			return true, nil
		}
	case cur.T.ID == columnar.String:
		if !v.Null && strings.EqualFold(v.S, cur.S) {
			return true, nil
		}
	default:
		if !v.Null && v.T.IsInteger() && v.I == cur.I {
			return true, nil
		}
	}
	return true, fmt.Errorf("unsupported: SET %s = %s (gpusql runs with %s = %s)", name, v, name, cur)
}
