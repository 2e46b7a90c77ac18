package server

import (
	"testing"
)

// TestMySQLIntWidths: TINYINT, SMALLINT and MEDIUMINT columns, signed and
// UNSIGNED, travel as MySQL's TINY / SHORT / INT24 types, and a client
// reads their extreme values in the text and the binary (prepared)
// protocol.
func TestMySQLIntWidths(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table w (id int, t tinyint, ut tinyint unsigned, s smallint,
		us smallint unsigned, m mediumint, um mediumint unsigned);
		insert into w values (1, -128, 255, -32768, 65535, -8388608, 16777215), (2, 127, 0, 32767, 0, 8388607, 0);`)
	db := open(t, addr, "admin", "secret", "")
	const q = "select t, ut, s, us, m, um from w where id = ?"
	rows, err := db.Query("select t, ut, s, us, m, um from w where id = 1")
	if err != nil {
		t.Fatal(err)
	}
	types, _ := rows.ColumnTypes()
	// go-sql-driver names INT24 MEDIUMINT whatever its UNSIGNED flag.
	want := []string{"TINYINT", "UNSIGNED TINYINT", "SMALLINT", "UNSIGNED SMALLINT", "MEDIUMINT", "MEDIUMINT"}
	for i, ct := range types {
		if ct.DatabaseTypeName() != want[i] {
			t.Errorf("column %s: type %s, want %s", ct.Name(), ct.DatabaseTypeName(), want[i])
		}
	}
	rows.Close()
	wantRows := map[int][6]int64{
		1: {-128, 255, -32768, 65535, -8388608, 16777215},
		2: {127, 0, 32767, 0, 8388607, 0},
	}
	for id, w := range wantRows {
		var text, bin [6]int64
		if err := db.QueryRow("select t, ut, s, us, m, um from w where id = "+string(rune('0'+id))).Scan(&text[0], &text[1], &text[2], &text[3], &text[4], &text[5]); err != nil || text != w {
			t.Errorf("text protocol, row %d: %v, %v; want %v", id, text, err, w)
		}
		if err := db.QueryRow(q, id).Scan(&bin[0], &bin[1], &bin[2], &bin[3], &bin[4], &bin[5]); err != nil || bin != w {
			t.Errorf("binary protocol, row %d: %v, %v; want %v", id, bin, err, w)
		}
	}
}
