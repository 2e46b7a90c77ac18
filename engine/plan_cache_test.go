package engine

import (
	"context"
	"testing"
)

// execRows runs one query and returns its rows as text, in order.
func execRows(t *testing.T, c *Conn, query string) [][]string {
	t.Helper()
	res, err := c.Exec(context.Background(), query, "")
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	r := res[len(res)-1].Result
	out := make([][]string, r.Rows)
	for i := range out {
		for _, col := range r.Columns {
			out[i] = append(out[i], cell(col, i).Text)
		}
	}
	return out
}

func TestPlanCacheHit(t *testing.T) {
	db := open(t)
	c := db.conn
	mustExec(t, db, "create table t (a int, s varchar(5)); insert into t values (1, 'x'), (2, 'y'), (3, 'x')", "")
	q := "select s, sum(a) from t where s = 'x' group by s"
	first := execRows(t, c, q)
	before := db.PlanCacheStats()
	second := execRows(t, c, q+" ;\n")
	after := db.PlanCacheStats()
	if after.Hits != before.Hits+1 {
		t.Errorf("hits %d -> %d, want one more", before.Hits, after.Hits)
	}
	if len(first) != 1 || first[0][1] != "4" || len(second) != 1 || second[0][1] != "4" {
		t.Errorf("rows %v then %v, want [[x 4]]", first, second)
	}
}

