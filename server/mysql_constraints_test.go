package server

import "testing"

// TestMySQLConstraintErrors: constraint failures come with MySQL 8's codes.
func TestMySQLConstraintErrors(t *testing.T) {
	_, addr := startServer(t, Config{}, `create table c (a int check (a > 0), b int);
		create table p (id int primary key); insert into p values (1);
		create table k (id int, pid int, foreign key (pid) references p (id));
		insert into k values (1, 1);
		create table e (s enum('x','y'), g int as (s + 0))`)
	db := open(t, addr, "admin", "secret", "")
	for _, c := range []struct {
		q    string
		code uint16
	}{
		{"insert into c values (0, 1)", 3819},
		{"update c set a = -1", 0},
		{"insert into c values (1, 1)", 0},
		{"update c set a = -1", 3819},
		{"alter table c add check (b > 5)", 3819},
		{"alter table c drop check nosuch", 3821},
		{"alter table c add constraint c_chk_1 check (b > 0)", 3822},
		{"create table bad (a int check (a < now()))", 3814},
		{"create table bad (a int check (a < (select 1)))", 3815},
		{"create table bad (a int check (a < b), b int)", 3813},
		{"create table bad (a int, check (z > 0))", 3820},
		{"alter table c drop column a", 3959},
		{"insert into k values (2, 9)", 1452},
		{"delete from p", 1451},
		{"drop table p", 3730},
		{"create table bad (a int, foreign key (a) references nosuch (id))", 1824},
		{"insert into e (s) values ('z')", 1265},
		{"insert into e values ('x', 1)", 3105},
	} {
		_, err := db.Exec(c.q)
		if got := mysqlCode(err); got != c.code {
			t.Errorf("%s: error %v (code %d), want code %d", c.q, err, got, c.code)
		}
	}
}
