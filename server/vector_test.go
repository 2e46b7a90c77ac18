package server

import (
	"testing"
)

// Over the MySQL protocol (text and binary, with '?' parameters) vectors
// travel as their text form and distances as doubles.
func TestMySQLVectors(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table e (id int, v vector(3));
		insert into e values (1, '[1,2,3]'), (2, '[3,0,4]'), (3, NULL);`)
	for _, params := range []string{"", "interpolateParams=false"} {
		db := open(t, addr, "admin", "secret", params)
		var id int
		var v string
		var d float64
		err := db.QueryRow("select id, v, vec_l2_distance(v, ?) as d from e where v is not null order by d limit 1", "[3,0,3]").Scan(&id, &v, &d)
		if err != nil || id != 2 || v != "[3,0,4]" || d != 1 {
			t.Errorf("%q: nearest = %d %q %v (%v)", params, id, v, d, err)
		}
		if _, err := db.Exec("insert into e values (?, ?)", 9, "[0.5,0,1]"); err != nil {
			t.Errorf("%q: insert: %v", params, err)
		}
		if _, err := db.Exec("insert into e values (?, ?)", 10, "[1,2]"); err == nil {
			t.Errorf("%q: a 2-element vector went into VECTOR(3)", params)
		}
		if _, err := db.Exec("delete from e where id = 9"); err != nil {
			t.Fatal(err)
		}
	}
}
