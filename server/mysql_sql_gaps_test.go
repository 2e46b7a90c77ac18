package server

import "testing"

// TestMySQLErrorCodesOfGaps: the errors of collations and DOUBLE overflow
// carry MySQL's numbers over the wire.
func TestMySQLErrorCodesOfGaps(t *testing.T) {
	_, addr := startServer(t, Config{}, "")
	db := open(t, addr, "admin", "secret", "")
	for _, c := range []struct {
		q    string
		code uint16
	}{
		{"select 'a' collate utf8mb4_general_ci = 'A' collate utf8mb4_0900_ai_ci", 1267},
		{"select 'a' collate nosuch_ci", 1273},
		{"select 5 collate utf8mb4_general_ci", 1253},
		{"select 1e308 * 10", 1690},
		{"select get_lock('', 0)", 3057},
	} {
		_, err := db.Exec(c.q)
		if got := mysqlCode(err); got != c.code {
			t.Errorf("%s: %v (code %d), want code %d", c.q, err, got, c.code)
		}
	}
	var v int64
	if err := db.QueryRow("select 'abc' collate utf8mb4_0900_ai_ci = 'ABC' and date '2024-01-02' + 0 = 20240102 and 'Robert' sounds like 'Rupert'").Scan(&v); err != nil || v != 1 {
		t.Errorf("collation, DATE + 0 and SOUNDS LIKE over the wire: %d, %v", v, err)
	}
}
