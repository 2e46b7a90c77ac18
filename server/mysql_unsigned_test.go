package server

import (
	"testing"
)

// TestMySQLUnsigned: a BIGINT UNSIGNED column travels with MySQL's
// UNSIGNED flag, so a client reads 18446744073709551615, not -1, in the
// text and the binary (prepared) protocol.
func TestMySQLUnsigned(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table u (id int, b bigint unsigned);
		insert into u values (1, 18446744073709551615), (2, 7);`)
	db := open(t, addr, "admin", "secret", "")
	rows, err := db.Query("select b from u where id = 1")
	if err != nil {
		t.Fatal(err)
	}
	types, _ := rows.ColumnTypes()
	if name := types[0].DatabaseTypeName(); name != "UNSIGNED BIGINT" {
		t.Errorf("type %s, want UNSIGNED BIGINT", name)
	}
	for rows.Next() {
		var b uint64
		if err := rows.Scan(&b); err != nil || b != 18446744073709551615 {
			t.Errorf("text protocol: %d, %v", b, err)
		}
	}
	rows.Close()
	var b uint64
	if err := db.QueryRow("select b from u where id = ?", 1).Scan(&b); err != nil || b != 18446744073709551615 {
		t.Errorf("binary protocol: %d, %v", b, err)
	}
}
