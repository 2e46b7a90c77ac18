package server

import "testing"

// TestMySQLErrorCodesOfRows: row constructors, row subqueries, SELECT ...
// INTO @var and BIGINT functions fail with MySQL's numbers over the wire,
// and the session's variables carry := assignments between statements.
func TestMySQLErrorCodesOfRows(t *testing.T) {
	_, addr := startServer(t, Config{}, "")
	db := open(t, addr, "admin", "secret", "")
	db.SetMaxOpenConns(1) // one connection: user variables are per connection
	for _, c := range []struct {
		q    string
		code uint16
	}{
		{"select (1, 2) = 1", 1241},
		{"select (1, 2) = (1, 2, 3)", 1241},
		{"select (1, 2) = (select 1, 2 union all select 3, 4)", 1242},
		{"select 1 union all select 2 into @x", 1172},
		{"select 1, 2 into @x", 1222},
		{"select abs(-9223372036854775808)", 1690},
	} {
		_, err := db.Exec(c.q)
		if got := mysqlCode(err); got != c.code {
			t.Errorf("%s: %v (code %d), want code %d", c.q, err, got, c.code)
		}
	}
	var a, b int64
	if err := db.QueryRow("select @n := 5, @n + 1").Scan(&a, &b); err != nil || a != 5 || b != 6 {
		t.Errorf("select @n := 5, @n + 1: %d, %d, %v", a, b, err)
	}
	if _, err := db.Exec("select 7, 8 into @p, @q"); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("select @p * 10 + @q, (@p, @q) = (7, 8)").Scan(&a, &b); err != nil || a != 78 || b != 1 {
		t.Errorf("INTO @p, @q then a row comparison: %d, %d, %v", a, b, err)
	}
}
