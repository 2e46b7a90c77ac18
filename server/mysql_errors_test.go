package server

import (
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestMySQLErrorTexts: a MySQL client sees MySQL 8.0's number, SQLSTATE and
// message for each failure, as the "MySQL 8.0 Server Error Message
// Reference" words them (the message without gpusql's line:column).
func TestMySQLErrorTexts(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table t (a int, b varchar(5)); create table u (a int, c int);
		create table w (id int not null primary key, n int not null, t tinyint, s varchar(3), d date);`)
	db := open(t, addr, "admin", "secret", "")
	db.SetMaxOpenConns(1)
	for _, c := range []struct {
		q, state, msg string
		code          uint16
	}{
		{"select nosuch from t", "42S22", "Unknown column 'nosuch' in 'field list'", 1054},
		{"select a from t where nosuch = 1", "42S22", "Unknown column 'nosuch' in 'where clause'", 1054},
		{"select a from t order by nosuch", "42S22", "Unknown column 'nosuch' in 'order clause'", 1054},
		{"select a from t group by nosuch", "42S22", "Unknown column 'nosuch' in 'group statement'", 1054},
		{"select a from t group by a having nosuch > 1", "42S22", "Unknown column 'nosuch' in 'having clause'", 1054},
		{"select * from t join u on t.nosuch = u.a", "42S22", "Unknown column 't.nosuch' in 'on clause'", 1054},
		{"select a from t, u", "23000", "Column 'a' in field list is ambiguous", 1052},
		{"select * from nosuch", "42S02", "Table 'gpusql.nosuch' doesn't exist", 1146},
		{"use nosuchdb", "42000", "Unknown database 'nosuchdb'", 1049},
		{"create table t (x int)", "42S01", "Table 't' already exists", 1050},
		{"drop table nosuch", "42S02", "Unknown table 'gpusql.nosuch'", 1051},
		{"create table v (a int, a int)", "42S21", "Duplicate column name 'a'", 1060},
		{"select a from t where", "42000", "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1", 1064},
		{"selec 1", "42000", "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'selec 1' at line 1", 1064},
		{"select * from (select 1)", "42000", "Every derived table must have its own alias", 1248},
		{"select 1 union select 1, 2", "21000", "The used SELECT statements have a different number of columns", 1222},
		{"select a from t where sum(a) > 1", "HY000", "Invalid use of group function", 1111},
		{"select * from t, t", "42000", "Not unique table/alias: 't'", 1066},
		{"select nosuchfunc(1)", "42000", "FUNCTION gpusql.nosuchfunc does not exist", 1305},
		{"select abs(1, 2)", "42000", "Incorrect parameter count in the call to native function 'abs'", 1582},
		{"insert into w (id, n) values (1, null)", "23000", "Column 'n' cannot be null", 1048},
		{"insert into w (id, n, t) values (1, 1, 300)", "22003", "Out of range value for column 't' at row 1", 1264},
		{"insert into w (id, n) values (1, 'abc')", "HY000", "Incorrect integer value: 'abc' for column 'n' at row 1", 1366},
		{"insert into w (id, n, s) values (1, 1, 'toolong')", "22001", "Data too long for column 's' at row 1", 1406},
		{"insert into w (id, n, d) values (1, 1, '2020-13-01')", "22007", "Incorrect date value: '2020-13-01' for column 'd' at row 1", 1292},
		{"insert into w (id, n) values (1, 1 / 0)", "22012", "Division by 0", 1365},
		{"insert into w values (1)", "21S01", "Column count doesn't match value count at row 1", 1136},
		{"insert into w (id, id) values (1, 2)", "42000", "Column 'id' specified twice", 1110},
		{"insert into w (n) values (1)", "HY000", "Field 'id' doesn't have a default value", 1364},
		{"create index ia on t (a)", "", "", 0},
		{"create index ia on t (b)", "42000", "Duplicate key name 'ia'", 1061},
		{"create table jk (j json, key (j))", "42000", "JSON column 'j' supports indexing only via generated columns on a specified JSON path.", 3152},
		{"create table jk (j json, primary key (j(10)))", "42000", "JSON column 'j' supports indexing only via generated columns on a specified JSON path.", 3152},
		{"select regexp_substr('a', '(')", "HY000", "Mismatched parenthesis in regular expression.", 3691},
		{"select 'a' regexp 'a[' ", "HY000", "The regular expression contains an unclosed bracket expression.", 3696},
		{"drop index nosuch on t", "42000", "Can't DROP 'nosuch'; check that column/key exists", 1091},
		{"select @@nosuchvar", "HY000", "Unknown system variable 'nosuchvar'", 1193},
		{"set session nosuchvar = 1", "HY000", "Unknown system variable 'nosuchvar'", 1193},
		{"set sql_mode = 'only_full_group_by'", "", "", 0},
		{"select a, b from t group by a", "42000", "Expression #2 of SELECT list is not in GROUP BY clause and contains nonaggregated column 'gpusql.t.b' which is not functionally dependent on columns in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by", 1055},
	} {
		if c.code == 0 {
			if _, err := db.Exec(c.q); err != nil {
				t.Fatalf("%s: %v", c.q, err)
			}
			continue
		}
		_, err := db.Exec(c.q)
		checkMySQLError(t, c.q, err, c.code, c.state, c.msg)
	}
}

// checkMySQLError checks that err is the MySQL error code (SQLSTATE
// state, message msg) that statement what should give.
func checkMySQLError(t *testing.T, what string, err error, code uint16, state, msg string) {
	t.Helper()
	me, ok := err.(*mysql.MySQLError)
	if !ok {
		t.Errorf("%s: %v, want error %d", what, err, code)
		return
	}
	if me.Number != code || string(me.SQLState[:]) != state || me.Message != msg {
		t.Errorf("%s:\n got %d (%s) %s\nwant %d (%s) %s", what, me.Number, me.SQLState[:], me.Message, code, state, msg)
	}
}

// TestMySQLStoreErrorTexts: the store errors of INSERT ... SELECT and UPDATE
// reach a MySQL client in MySQL's words too (gpusql's own text adds the
// statement and the column's type).
func TestMySQLStoreErrorTexts(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int primary key, t tinyint, s varchar(3));
		insert into w values (1, 1, 'a');`)
	db := open(t, addr, "admin", "secret", "")
	for _, c := range []struct {
		q, msg string
		code   uint16
	}{
		{"update w set s = 'toolong'", "Data too long for column 's' at row 1", 1406},
		{"insert into w select 2, 1, 'toolong'", "Data too long for column 's' at row 1", 1406},
		{"update w set t = t + 200", "Out of range value for column 't' at row 1", 1264},
		{"update w set id = null", "Column 'id' cannot be null", 1048},
		{"insert into w select 1, 1, 'a'", "Duplicate entry '1' for key 'w.PRIMARY'", 1062},
	} {
		_, err := db.Exec(c.q)
		me, ok := err.(*mysql.MySQLError)
		if !ok || me.Number != c.code || me.Message != c.msg {
			t.Errorf("%s: %v, want %d %s", c.q, err, c.code, c.msg)
		}
	}
}
