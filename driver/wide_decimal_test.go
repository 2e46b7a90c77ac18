package driver

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// TestWideDecimalValues: a DECIMAL of more than 18 digits comes back as
// its exact text, its column type says DECIMAL with its precision and
// scale, a bound string argument stores exactly, and SUM of BIGINT
// UNSIGNED is DECIMAL (MySQL's DECIMAL(42,0)).
func TestWideDecimalValues(t *testing.T) {
	db, err := sql.Open("gpusql", "executor=cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, q := range []string{"create table w (id int, a decimal(40,10))", "create table u (b bigint unsigned)",
		"insert into u values (18446744073709551615), (18446744073709551615)"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, "insert into w values (1, ?), (2, NULL)", "-123456789012345678901234567890.0123456789"); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, "select a from w order by id")
	if err != nil {
		t.Fatal(err)
	}
	types, _ := rows.ColumnTypes()
	if p, s, ok := types[0].DecimalSize(); types[0].DatabaseTypeName() != "DECIMAL" || !ok || p != 40 || s != 10 {
		t.Errorf("type %s(%d,%d) %v", types[0].DatabaseTypeName(), p, s, ok)
	}
	var got []string
	for rows.Next() {
		var a sql.NullString
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		got = append(got, a.String)
	}
	rows.Close()
	if len(got) != 2 || got[0] != "-123456789012345678901234567890.0123456789" || got[1] != "" {
		t.Errorf("values %q", got)
	}
	var sum string
	row := db.QueryRowContext(ctx, "select sum(b) from u")
	if err := row.Scan(&sum); err != nil || sum != "36893488147419103230" {
		t.Errorf("sum = %s, %v", sum, err)
	}
	// SUM / AVG of integers and narrow DECIMALs are typed as MySQL types
	// them (the engine sums in int64; the result column says DECIMAL).
	if _, err := db.ExecContext(ctx, "create table s (i int, b bigint, d decimal(10,2)); insert into s values (1, 2, 3.25), (4, 5, 6.50)"); err != nil {
		t.Fatal(err)
	}
	rows, err = db.QueryContext(ctx, "select sum(i), sum(b), avg(b), sum(d), avg(d), count(*) from s")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ = rows.ColumnTypes()
	want := []string{"DECIMAL(32,0)", "DECIMAL(41,0)", "DECIMAL(23,4)", "DECIMAL(32,2)", "DECIMAL(14,6)", "BIGINT"}
	for i, ct := range types {
		got := ct.DatabaseTypeName()
		if p, s, ok := ct.DecimalSize(); ok {
			got = fmt.Sprintf("%s(%d,%d)", got, p, s)
		}
		if got != want[i] {
			t.Errorf("column %s: %s, want %s", ct.Name(), got, want[i])
		}
	}
	var si, sb, ab, sd, ad string
	var n int64
	rows.Next()
	if err := rows.Scan(&si, &sb, &ab, &sd, &ad, &n); err != nil || si+" "+sb+" "+ab+" "+sd+" "+ad != "5 7 3.5000 9.75 4.875000" {
		t.Errorf("row %s %s %s %s %s, %v", si, sb, ab, sd, ad, err)
	}
}
