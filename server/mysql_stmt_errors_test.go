package server

import (
	"fmt"
	"strings"
	"testing"
)

// TestMySQLPreparedErrors: a statement run through the binary protocol
// (COM_STMT_EXECUTE) fails with the same number, SQLSTATE and message as
// the same statement sent as text; the library under the server used to
// send every such failure as 1105 (HY000) with "ERROR 1062 (23000): ..." as
// its message.
func TestMySQLPreparedErrors(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int primary key, n int not null, s varchar(3));
		insert into w values (1, 1, 'a');`)
	db := open(t, addr, "admin", "secret", "interpolateParams=false")
	db.SetMaxOpenConns(1)
	for _, c := range []struct {
		q     string
		args  []any
		state string
		msg   string
		code  uint16
	}{
		{"insert into w values (?, ?, ?)", []any{1, 2, "b"}, "23000", "Duplicate entry '1' for key 'w.PRIMARY'", 1062},
		{"insert into w values (?, ?, ?)", []any{2, nil, "b"}, "23000", "Column 'n' cannot be null", 1048},
		{"insert into w values (?, ?, ?)", []any{2, 2, "toolong"}, "22001", "Data too long for column 's' at row 1", 1406},
		{"insert into w values (?, ?)", []any{2, 2}, "21S01", "Column count doesn't match value count at row 1", 1136},
		{"select nosuch from w where id = ?", []any{1}, "42S22", "Unknown column 'nosuch' in 'field list'", 1054},
		{"select * from nosuch where id = ?", []any{1}, "42S02", "Table 'gpusql.nosuch' doesn't exist", 1146},
	} {
		_, err := db.Exec(c.q, c.args...)
		checkMySQLError(t, fmt.Sprintf("%s %v", c.q, c.args), err, c.code, c.state, c.msg)
	}
	// The connection goes on after each failure, and the failure is what
	// SHOW WARNINGS lists.
	var level, msg string
	var code int
	if err := db.QueryRow("show warnings").Scan(&level, &code, &msg); err != nil || code != 1146 {
		t.Errorf("show warnings: %s %d %s %v, want the 1146 error", level, code, msg, err)
	}
}

// TestMySQLSetAndTransactionErrors: SET's and a READ ONLY transaction's
// failures carry MySQL's number and SQLSTATE to a MySQL client.
func TestMySQLSetAndTransactionErrors(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int primary key);`)
	db := open(t, addr, "admin", "secret", "")
	db.SetMaxOpenConns(1)
	for _, c := range []struct {
		q, state, msg string
		code          uint16
	}{
		{"set autocommit = 'abc'", "42000", "Variable 'autocommit' can't be set to the value of 'abc'", 1231},
		{"set max_execution_time = 'x'", "42000", "Incorrect argument type to variable 'max_execution_time'", 1232},
		{"start transaction read only", "", "", 0},
		{"insert into w values (1)", "25006", "Cannot execute statement in a READ ONLY transaction.", 1792},
		{"commit", "", "", 0},
	} {
		_, err := db.Exec(c.q)
		if c.code == 0 {
			if err != nil {
				t.Fatalf("%s: %v", c.q, err)
			}
			continue
		}
		checkMySQLError(t, c.q, err, c.code, c.state, c.msg)
	}
}

// TestMySQLInformationSchemaColumns: SELECT * of information_schema.TABLES
// and COLUMNS gives MySQL 8's columns in MySQL's order, which tools that
// read them by position rely on.
func TestMySQLInformationSchemaColumns(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int primary key);`)
	db := open(t, addr, "admin", "secret", "")
	for table, want := range map[string]string{
		"tables": "TABLE_CATALOG TABLE_SCHEMA TABLE_NAME TABLE_TYPE ENGINE VERSION ROW_FORMAT TABLE_ROWS AVG_ROW_LENGTH " +
			"DATA_LENGTH MAX_DATA_LENGTH INDEX_LENGTH DATA_FREE AUTO_INCREMENT CREATE_TIME UPDATE_TIME CHECK_TIME " +
			"TABLE_COLLATION CHECKSUM CREATE_OPTIONS TABLE_COMMENT",
		"columns": "TABLE_CATALOG TABLE_SCHEMA TABLE_NAME COLUMN_NAME ORDINAL_POSITION COLUMN_DEFAULT IS_NULLABLE DATA_TYPE " +
			"CHARACTER_MAXIMUM_LENGTH CHARACTER_OCTET_LENGTH NUMERIC_PRECISION NUMERIC_SCALE DATETIME_PRECISION " +
			"CHARACTER_SET_NAME COLLATION_NAME COLUMN_TYPE COLUMN_KEY EXTRA PRIVILEGES COLUMN_COMMENT GENERATION_EXPRESSION SRS_ID",
	} {
		rows, err := db.Query("select * from information_schema." + table)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		rows.Close()
		if got := strings.Join(cols, " "); err != nil || got != want {
			t.Errorf("information_schema.%s columns:\n got %s\nwant %s", table, got, want)
		}
	}
}
