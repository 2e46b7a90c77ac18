package server

import (
	"context"
	"testing"
)

// TestMySQLTimeYear: TIME and YEAR columns travel as MySQL sends them
// (types TIME and YEAR; text rows '-01:00:00.500' and '0000', binary rows
// decoded by the client to the same time and to the number), and SQL
// PREPARE / EXECUTE works over the wire, per connection.
func TestMySQLTimeYear(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table d (id int, t time(3), y year);
		insert into d values (1, '-01:00:00.5', '69'), (2, '34:00:00', 0), (3, NULL, NULL);`)
	db := open(t, addr, "admin", "secret", "")
	rows, err := db.Query("select t, y from d order by id")
	if err != nil {
		t.Fatal(err)
	}
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "TIME" || types[1].DatabaseTypeName() != "YEAR" {
		t.Errorf("types %s %s, want TIME YEAR", types[0].DatabaseTypeName(), types[1].DatabaseTypeName())
	}
	var got []string
	for rows.Next() {
		var tm, y *string
		if err := rows.Scan(&tm, &y); err != nil {
			t.Fatal(err)
		}
		got = append(got, nullableText(tm)+" "+nullableText(y))
	}
	rows.Close()
	if want := "-01:00:00.500 2069|34:00:00.000 0000|NULL NULL"; joinRows(got) != want {
		t.Errorf("text rows %s, want %s", joinRows(got), want)
	}
	// With an argument the client prepares: binary rows.
	var tm, y string
	if err := db.QueryRow("select t, y from d where id = ?", 1).Scan(&tm, &y); err != nil || tm != "-01:00:00.500" || y != "2069" {
		t.Errorf("binary row %q %q (%v), want -01:00:00.500 2069", tm, y, err)
	}
	if err := db.QueryRow("select t, y from d where id = ?", 2).Scan(&tm, &y); err != nil || tm != "34:00:00.000" || y != "0" {
		t.Errorf("binary row %q %q (%v), want 34:00:00.000 0", tm, y, err)
	}

	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"PREPARE s FROM 'select id from d where y = ?'", "SET @y = '69'"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var id int
	if err := conn.QueryRowContext(ctx, "EXECUTE s USING @y").Scan(&id); err != nil || id != 1 {
		t.Errorf("EXECUTE s USING @y: %d, %v; want 1", id, err)
	}
}

func nullableText(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

func joinRows(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += "|"
		}
		out += x
	}
	return out
}
