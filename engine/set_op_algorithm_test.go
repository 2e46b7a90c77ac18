package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Options.SetOpAlgorithm forces the GPU plan's DISTINCT and set operation
// algorithm (EXPLAIN says so, no GPU needed); an unknown name is refused.
func TestSetOpAlgorithmOption(t *testing.T) {
	if _, err := Open(Options{Executor: "cpu", SetOpAlgorithm: "merge"}); err == nil || !strings.Contains(err.Error(), "set operation algorithm") {
		t.Errorf("unknown algorithm: %v", err)
	}
	ctx := context.Background()
	setup := "create table t (a int, s varchar(5)); insert into t values (1, 'x'), (1, 'x'), (2, null);"
	for _, c := range []struct{ alg, want string }{
		{"sort", "sort-based (Diamos et al.)"},
		{"hash", "global hash table (group_by.cu); forced"},
		{"", "estimated sort"},
	} {
		db, err := Open(Options{Executor: "cpu", GPUProfile: "h100", SetOpAlgorithm: c.alg})
		if err != nil {
			t.Fatal(err)
		}
		res, err := db.Exec(ctx, setup+"explain select a, s from t intersect select a, s from t", "")
		if err != nil {
			t.Fatal(err)
		}
		if ex := fmt.Sprint(res[len(res)-1].Result.Columns[0].Dict); !strings.Contains(ex, c.want) {
			t.Errorf("%q: EXPLAIN lacks %q:\n%s", c.alg, c.want, ex)
		}
		db.Close()
	}
}
