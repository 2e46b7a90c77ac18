package server

import (
	"strings"
	"testing"
)

// TestMySQLJSON: a JSON column travels as MySQL sends one (type JSON, the
// normalized text), in the text and the binary protocol, and a string
// that is not JSON text is refused with MySQL's message.
func TestMySQLJSON(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table d (id int, j json);
		insert into d values (1, '{"b": [1,2], "a": "x"}'), (2, NULL);`)
	db := open(t, addr, "admin", "secret", "")
	rows, err := db.Query("select j, j->>'$.a' from d where id = 1")
	if err != nil {
		t.Fatal(err)
	}
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "JSON" || types[1].DatabaseTypeName() == "JSON" {
		t.Errorf("types %s %s, want JSON and a string type", types[0].DatabaseTypeName(), types[1].DatabaseTypeName())
	}
	for rows.Next() {
		var j, a string
		if err := rows.Scan(&j, &a); err != nil {
			t.Fatal(err)
		}
		if j != `{"a": "x", "b": [1, 2]}` || a != "x" {
			t.Errorf("row %q %q", j, a)
		}
	}
	rows.Close()
	var got string
	if err := db.QueryRow("select json_array(j->'$.b[1]', ?) from d where id = ?", "s", 1).Scan(&got); err != nil || got != `[2, "s"]` {
		t.Errorf("prepared: %q, %v", got, err)
	}
	if _, err := db.Exec(`insert into d values (3, '{"a": tru}')`); err == nil ||
		!strings.HasPrefix(err.Error(), "Error 3140 (22032): ") ||
		!strings.HasSuffix(err.Error(), `Invalid JSON text: "Invalid value." at position 6 in value for column 'd.j' at row 1`) {
		t.Errorf("invalid JSON: %v", err)
	}
}
