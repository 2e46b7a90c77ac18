package server

import (
	"testing"

	"github.com/go-mysql-org/go-mysql/client"
	"github.com/go-mysql-org/go-mysql/mysql"
)

// TestMySQLOriginFlags: a result column read straight from a table's
// column carries the flags of its definition, as MySQL 8 sends them
// (mysql --column-type-info on SELECT id FROM t with id INT
// AUTO_INCREMENT PRIMARY KEY: NOT_NULL PRI_KEY AUTO_INCREMENT NUM
// PART_KEY; a primary key column without AUTO_INCREMENT adds
// NO_DEFAULT_VALUE); a computed column carries none of them. Checked on
// the raw column definitions, which go-sql-driver does not expose, of
// the text and the binary protocol.
func TestMySQLOriginFlags(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table fk (id int auto_increment,
		p int not null, u int unique, m int, c1 int, c2 int, d int not null default 3,
		key (m), unique key (c1, c2), primary key (id, p));`)
	const (
		notNull, pri, uni, mul, num, autoInc, noDef, part = 1, 2, 4, 8, 32768, 512, 4096, 16384
		binary                                            = 128
	)
	base := uint16(binary | num)
	want := map[string]uint16{
		"id":     base | notNull | pri | autoInc | part,
		"p":      base | notNull | pri | noDef | part,
		"u":      base | uni | part,
		"m":      base | mul | part,
		"c1":     base | mul | part,
		"c2":     base | part,
		"d":      base | notNull,
		"id + 0": base | notNull,
	}
	conn, err := client.Connect(addr, "admin", "secret", "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q = "select id, p, u, m, c1, c2, d, id + 0 from fk where id > ?"
	text, err := conn.Execute("select id, p, u, m, c1, c2, d, id + 0 from fk where id > 0")
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := conn.Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	bin, err := stmt.Execute(0)
	if err != nil {
		t.Fatal(err)
	}
	for proto, r := range map[string]*mysql.Result{"text": text, "binary": bin} {
		for _, f := range r.Fields {
			if w := want[string(f.Name)]; f.Flag != w {
				t.Errorf("%s protocol, %s: flags %d, want %d", proto, f.Name, f.Flag, w)
			}
		}
	}
}

// TestMySQLImplicitPrimaryFlags: a table without PRIMARY KEY has its
// first UNIQUE key over NOT NULL columns as its primary key, so MySQL 8
// sends PRI_KEY on every column of it (here the composite (a, b), where
// an explicit composite UNIQUE key's first column is MULTIPLE_KEY); a
// later one-column UNIQUE NOT NULL key stays UNIQUE_KEY, and a UNIQUE
// key over a nullable column (n, declared first) is passed over.
func TestMySQLImplicitPrimaryFlags(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table ik (n int, a int not null,
		b int not null, u int not null, unique key (n), unique key (a, b), unique key (u));`)
	const (
		notNull, pri, uni, num, noDef, part, binary = 1, 2, 4, 32768, 4096, 16384, 128
	)
	key := uint16(binary | num | notNull | noDef | part)
	want := map[string]uint16{"n": binary | num | uni | part, "a": key | pri, "b": key | pri, "u": key | uni}
	conn, err := client.Connect(addr, "admin", "secret", "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r, err := conn.Execute("select n, a, b, u from ik")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Fields {
		if w := want[string(f.Name)]; f.Flag != w {
			t.Errorf("%s: flags %d, want %d", f.Name, f.Flag, w)
		}
	}
}

// TestMySQLTimestampFlags: a DATETIME or TIMESTAMP column with DEFAULT or
// ON UPDATE CURRENT_TIMESTAMP carries TIMESTAMP_FLAG, one with ON UPDATE
// CURRENT_TIMESTAMP also ON_UPDATE_NOW_FLAG, as MySQL 8 sends them
// (init_timestamp_flags); a plain one neither, nor a computed column.
func TestMySQLTimestampFlags(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table tf (
		a timestamp not null default current_timestamp on update current_timestamp,
		b datetime default current_timestamp, c datetime on update current_timestamp,
		d timestamp null);`)
	const notNull, ts, onUpdate = 1, 1024, 8192
	const checked = notNull | ts | onUpdate // BINARY, NUM: the types' own
	want := map[string]uint16{"a": notNull | ts | onUpdate, "b": ts, "c": ts | onUpdate, "d": 0, "b + 0": 0}
	conn, err := client.Connect(addr, "admin", "secret", "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r, err := conn.Execute("select a, b, c, d, b + 0 from tf")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Fields {
		if w := want[string(f.Name)]; f.Flag&checked != w {
			t.Errorf("%s: flags %d, want %d", f.Name, f.Flag, w)
		}
	}
}
