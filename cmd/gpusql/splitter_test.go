package main

import "testing"

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		buf  string
		want bool
	}{
		{"select 1;", true},
		{"select 1", false},
		{"select 1;  \n", true},
		{"select 1; -- done", true},
		{"select 1; select", false},
		{"select ';'", false},
		{"select ';';", true},
		{"select 'it''s;'", false},
		{"select 'it\\'s;';", true},
		{"select 1 -- ;\n", false},
		{"select 1 /* ; */", false},
		{"select 1 /* ; */;", true},
		{"select 1; /* open", false},
		{"select `a;b` from t;", true},
		{"select \"x;\"\n;", true},
		{"select 1 # ;", false},
		{"", false},
		{"create trigger tr before insert on t for each row begin set new.a = 1;", false},
		{"create trigger tr before insert on t for each row begin set new.a = 1; end;", true},
		{"create procedure p() begin if 1 then select 1; end if;", false},
		{"create procedure p() begin if 1 then select 1; end if; end;\nselect 1;", true},
	} {
		if got := complete(tc.buf); got != tc.want {
			t.Errorf("complete(%q) = %v, want %v", tc.buf, got, tc.want)
		}
	}
}
