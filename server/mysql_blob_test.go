package server

import "testing"

// TestMySQLBlobColumns: a table's TEXT and BLOB columns travel as MySQL 8
// sends them, MYSQL_TYPE_BLOB with BLOB_FLAG (BLOB with the binary
// charset), so go-sql-driver names them TEXT and BLOB; a computed string
// of unknown width stays a VARCHAR; values read back unchanged through
// the text and the binary protocol.
func TestMySQLBlobColumns(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table lob (id int, t text, b blob);
		insert into lob values (1, 'héllo', 'ab');`)
	db := open(t, addr, "admin", "secret", "")
	for _, args := range [][]any{nil, {1}} {
		q := "select t, b, upper(t) from lob where id = 1"
		if args != nil {
			q = "select t, b, upper(t) from lob where id = ?"
		}
		rows, err := db.Query(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		types, _ := rows.ColumnTypes()
		want := []string{"TEXT", "BLOB", "VARCHAR"}
		for i, ct := range types {
			if ct.DatabaseTypeName() != want[i] {
				t.Errorf("%s: column %s: type %s, want %s", q, ct.Name(), ct.DatabaseTypeName(), want[i])
			}
		}
		var s, u string
		var b []byte
		if !rows.Next() {
			t.Fatalf("%s: no row", q)
		}
		if err := rows.Scan(&s, &b, &u); err != nil || s != "héllo" || string(b) != "ab" || u != "HÉLLO" {
			t.Errorf("%s: %q %q %q, %v", q, s, b, u, err)
		}
		rows.Close()
	}
}
