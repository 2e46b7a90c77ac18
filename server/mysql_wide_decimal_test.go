package server

import (
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
