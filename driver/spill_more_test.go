package driver

import (
	"database/sql"
	"os"
	"strings"
	"testing"
)

// TestSpillMoreOperators: past the memory limit a window function and a
// non-equi join spill (EXPLAIN ANALYZE says so on their lines), UNION ALL
// streams into its aggregation without spilling, the answers are those
// worked out from the table (x = 1..16384), and no file is left.
func TestSpillMoreOperators(t *testing.T) {
	dir := t.TempDir()
	db := openNumbers(t, "executor=cpu;tmpdir="+dir, 16384)
	cases := []struct {
		limit, q string
		spills   string // the operator whose EXPLAIN ANALYZE line says "spilled" ("": none)
		want     string
	}{
		// rank within x % 100 ordered by x: the i-th of its class is rank i;
		// classes 1..84 have 164 rows, the others 163.
		{"512KB", "select count(*), sum(r) from (select x, rank() over (partition by x % 100 order by x) r from t) s",
			"Window#", "16384 1350376"},
		// Left rows x < 2000 pair with even y > x + 15000 (y <= 16384); those
		// from 1384 on pair with none.
		{"40KB", "select count(*), count(b.x) from (select x from t where x < 2000) a left join (select x from t where x % 2 = 0) b on b.x > a.x + 15000",
			"NestedLoopJoin#", "479480 478864"},
		{"64KB", "select count(*), sum(x) from (select x from t union all select x + 1 from t union all select x from t) u",
			"", "49152 402694144"},
	}
	for _, c := range cases {
		if _, err := db.Exec("set memory_limit = '" + c.limit + "'"); err != nil {
			t.Fatal(err)
		}
		plan := queryLines(t, db, "explain analyze "+c.q)
		spilled := ""
		for _, line := range strings.Split(plan, "\n") {
			if strings.Contains(line, "spilled") {
				spilled += line + "\n"
			}
		}
		switch {
		case c.spills == "" && spilled != "":
			t.Errorf("%s spilled:\n%s", c.q, plan)
		case c.spills != "" && !strings.Contains(spilled, c.spills):
			t.Errorf("%s: no spill shown on %s:\n%s", c.q, c.spills, plan)
		}
		if got := queryLines(t, db, c.q); strings.TrimSpace(got) != c.want {
			t.Errorf("%s under %s: got %q, want %q", c.q, c.limit, got, c.want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: %d spill entries left behind", c.q, len(ents))
		}
	}
}

// queryLines runs q and returns its rows, one a line, columns separated
// by a space.
func queryLines(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var sb strings.Builder
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if i > 0 {
				sb.WriteString(" ")
			}
			sb.WriteString(v.String)
		}
		sb.WriteString("\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return sb.String()
}
