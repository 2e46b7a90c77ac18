package server

import (
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"

	"gpusql/storage/columnar"
)

// TestMySQLStringTypes: string columns travel as MySQL 8 describes them,
// so a client reads the declared type: CHAR(n) as MYSQL_TYPE_STRING,
// BINARY / VARBINARY with the binary charset (63) and BINARY_FLAG, ENUM
// and SET as MYSQL_TYPE_STRING with ENUM_FLAG / SET_FLAG.
func TestMySQLStringTypes(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table s (c char(3), v varchar(5), vb varbinary(4), b binary(2),
		e enum('x', 'y'), st set('p', 'q'));
		insert into s values ('ab', 'cd', 'ef', 'g', 'y', 'p,q');`)
	db := open(t, addr, "admin", "secret", "")
	for _, q := range []string{"select c, v, vb, b, e, st from s", "select c, v, vb, b, e, st from s where v = ?"} {
		var args []any
		if q[len(q)-1] == '?' {
			args = append(args, "cd")
		}
		rows, err := db.Query(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		types, _ := rows.ColumnTypes()
		// go-sql-driver names MYSQL_TYPE_STRING CHAR whatever its
		// ENUM / SET flag, as it does a MySQL 8 server's ENUM column.
		want := []string{"CHAR", "VARCHAR", "VARBINARY", "BINARY", "CHAR", "CHAR"}
		for i, ct := range types {
			if ct.DatabaseTypeName() != want[i] {
				t.Errorf("%s: column %s: type %s, want %s", q, ct.Name(), ct.DatabaseTypeName(), want[i])
			}
		}
		var c, v, vb, b, e, st string
		if !rows.Next() {
			t.Fatalf("%s: no row", q)
		}
		if err := rows.Scan(&c, &v, &vb, &b, &e, &st); err != nil || c != "ab" || v != "cd" || vb != "ef" || b != "g\x00" || e != "y" || st != "p,q" {
			t.Errorf("%s: %q %q %q %q %q %q, %v", q, c, v, vb, b, e, st, err)
		}
		rows.Close()
	}
}

// TestStringFieldFlags: ENUM and SET columns carry MySQL's ENUM_FLAG /
// SET_FLAG and the length of their longest value (SET: every member and
// the commas), in bytes of utf8mb4; VARBINARY(4) is 4 bytes of charset 63.
func TestStringFieldFlags(t *testing.T) {
	for _, c := range []struct {
		t       columnar.Type
		typ     byte
		flag    uint16
		length  uint32
		charset uint16
	}{
		{columnar.Type{ID: columnar.String, Members: "x\x00yy\x00"}, mysql.MYSQL_TYPE_STRING, mysql.ENUM_FLAG, 8, charsetUTF8MB4},
		{columnar.Type{ID: columnar.String, Members: "p\x00qq\x00", Set: true}, mysql.MYSQL_TYPE_STRING, mysql.SET_FLAG, 16, charsetUTF8MB4},
		{columnar.Type{ID: columnar.String, Width: 4, Binary: true}, mysql.MYSQL_TYPE_VAR_STRING, mysql.BINARY_FLAG, 4, charsetBinary},
		{columnar.Type{ID: columnar.String, Width: 3, Char: true}, mysql.MYSQL_TYPE_STRING, 0, 12, charsetUTF8MB4},
	} {
		f := &mysql.Field{Type: mysql.MYSQL_TYPE_VAR_STRING, ColumnLength: uint32(4 * max(c.t.Width, 1)), Charset: charsetUTF8MB4}
		if c.t.Members != "" {
			f.ColumnLength = 4 * 16383
		}
		stringField(c.t, f)
		if f.Type != c.typ || f.Flag != c.flag || f.ColumnLength != c.length || f.Charset != c.charset {
			t.Errorf("%+v: type %d flag %d length %d charset %d, want %d %d %d %d", c.t, f.Type, f.Flag, f.ColumnLength, f.Charset, c.typ, c.flag, c.length, c.charset)
		}
	}
}
