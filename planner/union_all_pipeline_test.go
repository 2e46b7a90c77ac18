package planner_test

import (
	"testing"

	"gpusql/planner"
)

// TestUnionAllPipelines: a UNION ALL is no pipeline breaker: each input's
// pipeline passes the union and the operators over it into the union's
// consumer, the right input's after the left's; a hash join over the union
// builds its table once.
func TestUnionAllPipelines(t *testing.T) {
	e := starEnv(t)
	p := e.plan(`select d.cat, count(*) from (select d1, v from fact where v > 3 union all select d2, v from fact) u
		join dim1 d on d.id = u.d1 group by d.cat`, planner.Options{Join: "hash"})
	ex := p.Explain()
	var into []*planner.Pipeline
	builds := 0
	for _, pl := range p.Pipelines {
		if _, ok := pl.Source.(*planner.SetOp); ok {
			t.Errorf("P%d reads the UNION ALL as a materialized source:\n%s", pl.ID, ex)
		}
		if pl.SinkRole == "build" {
			builds++
		}
		if _, ok := pl.Sink.(*planner.HashAggregate); ok {
			into = append(into, pl)
		}
	}
	if len(into) != 2 || builds != 1 {
		t.Fatalf("want the union's two inputs streaming into the aggregate and one build, got %d and %d:\n%s", len(into), builds, ex)
	}
	left, right := into[0], into[1]
	if !containsInt(right.Deps, left.ID) {
		t.Errorf("P%d (right input) should run after P%d:\n%s", right.ID, left.ID, ex)
	}
	for _, pl := range into {
		if _, star := pl.Star(); star {
			t.Errorf("P%d is marked a star: the GPU's star kernel does not read a union\n%s", pl.ID, ex)
		}
		if !hasOp[*planner.SetOp](pl) || !hasOp[*planner.HashJoin](pl) {
			t.Errorf("P%d should pass the union and probe the join:\n%s", pl.ID, ex)
		}
	}
}

func hasOp[T planner.Node](pl *planner.Pipeline) bool {
	for _, op := range pl.Ops {
		if _, ok := op.(T); ok {
			return true
		}
	}
	return false
}

func containsInt(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
