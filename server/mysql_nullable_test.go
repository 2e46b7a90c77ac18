package server

import (
	"strings"
	"testing"
)

// TestMySQLNotNullFlag: result columns the query proves are never NULL
// travel with NOT_NULL_FLAG, as MySQL 8 sends them, so go-sql-driver's
// ColumnType.Nullable says false for SELECT 1, a NOT NULL table column
// and COUNT(*), and true for a nullable column, SUM and an outer join's
// inner side; through the text and the binary protocol alike.
func TestMySQLNotNullFlag(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table nn (a int not null, b int, s varchar(5) not null);
		insert into nn values (1, null, 'x');`)
	db := open(t, addr, "admin", "secret", "")
	cases := []struct {
		q    string
		want []bool // nullable per column
	}{
		{"select 1, a, b, s, a + 1, null from nn where a > ?", []bool{false, false, true, false, false, true}},
		{"select count(*), sum(a), max(a), a from nn where a > ? group by a", []bool{false, true, true, false}},
		{"select x.a, y.a from nn x left join nn y on x.a = y.a + ?", []bool{false, true}},
	}
	for _, c := range cases {
		for _, prepared := range []bool{false, true} {
			q, args := c.q, []any{0}
			if !prepared {
				q, args = strings.Replace(q, "?", "0", 1), nil
			}
			rows, err := db.Query(q, args...)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			types, err := rows.ColumnTypes()
			if err != nil {
				t.Fatal(err)
			}
			for i, ct := range types {
				n, ok := ct.Nullable()
				if !ok || n != c.want[i] {
					t.Errorf("%s: column %d (%s): nullable %v (known %v), want %v", q, i, ct.Name(), n, ok, c.want[i])
				}
			}
			rows.Close()
		}
	}
}
