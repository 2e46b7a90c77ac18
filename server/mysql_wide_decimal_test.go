package server

import (
	"fmt"
	"strings"
	"testing"
)

// TestMySQLWideDecimal: a DECIMAL(40,10) column travels as NEWDECIMAL of
// its precision and scale, its values as exact text in the text and the
// binary protocol, and a '?' string parameter stores exactly.
func TestMySQLWideDecimal(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int, a decimal(40,10));
		insert into w values (1, 123456789012345678901234567890.0123456789), (2, -0.0000000001);`)
	for _, dsn := range []string{"", "interpolateParams=false"} {
		db := open(t, addr, "admin", "secret", dsn)
		if _, err := db.Exec("insert into w values (?, ?)", 3, "-99999999999999999999999999999.9999999999"); err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query("select a from w where id > ? order by id", 0)
		if err != nil {
			t.Fatal(err)
		}
		types, _ := rows.ColumnTypes()
		if p, s, ok := types[0].DecimalSize(); types[0].DatabaseTypeName() != "DECIMAL" || !ok || p != 40 || s != 10 {
			t.Errorf("%s: type %s(%d,%d) %v", dsn, types[0].DatabaseTypeName(), p, s, ok)
		}
		var got []string
		for rows.Next() {
			var a string
			if err := rows.Scan(&a); err != nil {
				t.Fatal(err)
			}
			got = append(got, a)
		}
		rows.Close()
		want := "123456789012345678901234567890.0123456789|-0.0000000001|-99999999999999999999999999999.9999999999"
		if strings.Join(got, "|") != want {
			t.Errorf("%s: rows %q\nwant %q", dsn, strings.Join(got, "|"), want)
		}
		if _, err := db.Exec("delete from w where id = 3"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMySQLSumTypes: SUM and AVG of integers and DECIMALs are announced
// as MySQL types them (SUM(INT) DECIMAL(32,0), SUM(BIGINT)
// DECIMAL(41,0), AVG(BIGINT) DECIMAL(23,4), SUM(DECIMAL(10,2))
// DECIMAL(32,2)), with their values as text, in the text and the binary
// protocol.
func TestMySQLSumTypes(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table s (i int, b bigint, d decimal(10,2));
		insert into s values (1, 2, 3.25), (4, 5, 6.50);`)
	for _, dsn := range []string{"", "interpolateParams=false"} {
		db := open(t, addr, "admin", "secret", dsn)
		rows, err := db.Query("select sum(i), sum(b), avg(b), sum(d), count(*) from s where i > ?", 0)
		if err != nil {
			t.Fatal(err)
		}
		types, _ := rows.ColumnTypes()
		want := []string{"DECIMAL 32 0", "DECIMAL 41 0", "DECIMAL 23 4", "DECIMAL 32 2", "BIGINT 0 0"}
		for i, ct := range types {
			p, s, _ := ct.DecimalSize()
			if got := fmt.Sprintf("%s %d %d", ct.DatabaseTypeName(), p, s); got != want[i] {
				t.Errorf("%s: column %s: %s, want %s", dsn, ct.Name(), got, want[i])
			}
		}
		var si, sb, ab, sd string
		var n int64
		rows.Next()
		if err := rows.Scan(&si, &sb, &ab, &sd, &n); err != nil || si+" "+sb+" "+ab+" "+sd != "5 7 3.5000 9.75" || n != 2 {
			t.Errorf("%s: row %s %s %s %s %d, %v", dsn, si, sb, ab, sd, n, err)
		}
		rows.Close()
	}
}
